//! What the index reads of a tool: its text in weighted fields, and the
//! categories it belongs to.

use mcp_core::schema::walk::{Keyword, Walk};
use mcp_core::{Tool, ToolSchema};
use serde_json::{Map, Value};

use super::toolsets::Toolsets;
use super::words::for_each_word;
use crate::sentence::first_sentence;

/// The `_meta` key of a generated tool's method, path and operationId.
pub(crate) const OPENAPI_META_KEY: &str = "rs.mcp-toolkit/openapi";
/// The `_meta` key of a tool's tags.
pub(crate) const TAGS_META_KEY: &str = "rs.mcp-toolkit/tags";

/// The fields of a tool the ranking weighs differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Field {
    /// The name, split into words.
    Name,
    /// The title (or `annotations.title`).
    Title,
    /// The categories.
    Tags,
    /// The words of the OpenAPI path (parameters left out): resource nouns.
    Path,
    /// The intent of the OpenAPI method: list, get, create, update, delete.
    Intent,
    /// The description's first paragraph.
    Summary,
    /// The rest of the description.
    Description,
    /// The names and descriptions of the arguments, and the field names
    /// (and descriptions) of object arguments.
    Arguments,
    /// The field names of the result.
    Response,
    /// The descriptions of its categories (an OpenAPI tag's description).
    Category,
}

impl Field {
    /// Every field, in the order of [`Field::index`].
    pub(crate) const ALL: [Field; 10] = [
        Field::Name,
        Field::Title,
        Field::Tags,
        Field::Path,
        Field::Intent,
        Field::Summary,
        Field::Description,
        Field::Arguments,
        Field::Response,
        Field::Category,
    ];

    /// The field's position in per-field arrays.
    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// A tool's searchable text, field by field, and its categories.
#[derive(Debug, Default)]
pub(crate) struct ToolText {
    /// The raw text of each field, in [`Field::ALL`] order.
    pub(crate) fields: [String; 10],
    /// The categories: `_meta` tags, else the namespace of the operationId
    /// (`repos/get` is in `repos`), else the first resource of the path.
    pub(crate) tags: Vec<String>,
    /// The OpenAPI method, lowercase, for a generated tool.
    pub(crate) method: Option<String>,
    /// Whether the tool only reads: a `GET`, or annotated read-only.
    pub(crate) reads: bool,
    /// The name without a category prefix (`activity/` of
    /// `activity/list-stargazers`): what the operation itself is called.
    pub(crate) operation_name: String,
    /// The words of the OpenAPI path's parameters (`{subscription_exposed_id}`).
    pub(crate) path_parameters: String,
    /// Whether the operation changes one item (a `POST` or `PATCH` on a path
    /// ending in its identifier).
    pub(crate) updates_item: bool,
    /// Whether the resource the path ends in is people (`/user/followers`).
    pub(crate) people: bool,
}

impl ToolText {
    /// The searchable text of the tool at `position` of `toolsets` (whose
    /// toolsets are the tags of its operation, for a generated tool).
    pub(crate) fn of(tool: &Tool, position: usize, toolsets: &Toolsets) -> Self {
        let mut text = Self::default();
        let mut put = |field: Field, value: &str| {
            let slot = &mut text.fields[field.index()];
            if !slot.is_empty() {
                slot.push(' ');
            }
            slot.push_str(value);
        };
        put(Field::Name, &tool.name);
        if let Some(title) = tool
            .title
            .as_deref()
            .or_else(|| tool.annotations.as_ref()?.title.as_deref())
        {
            put(Field::Title, title);
        }
        let description = tool.description.as_deref().unwrap_or_default();
        let (summary, rest) = split_first_paragraph(description);
        put(Field::Summary, summary);
        put(Field::Description, rest);
        let openapi = tool.meta.get(OPENAPI_META_KEY);
        let path = openapi.and_then(|o| o.get("path")).and_then(Value::as_str);
        let method = openapi
            .and_then(|o| o.get("method"))
            .and_then(Value::as_str);
        if let Some(path) = path {
            for segment in resource_segments(path) {
                put(Field::Path, segment);
            }
        }
        if let (Some(method), Some(path)) = (method, path) {
            put(Field::Intent, intent(method, path));
        }
        let input = &tool.input_schema;
        for (name, schema) in properties(input.root()) {
            put(Field::Arguments, name);
            if let Some(description) = schema.get("description").and_then(Value::as_str) {
                put(Field::Arguments, first_sentence(description));
            }
            for value in schema
                .get("enum")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(value) = value.as_str() {
                    put(Field::Arguments, value);
                }
            }
            // What an object argument is (its definition's description)
            // and holds (its field names, two levels deep).
            let object = resolve(input, schema);
            if let Some(description) = object.get("description").and_then(Value::as_str)
                && !std::ptr::eq(object, schema)
            {
                put(Field::Arguments, first_sentence(description));
            }
            field_names(input, object, 2, &mut Walk::new(), &mut |name| {
                put(Field::Arguments, name)
            });
        }
        if let Some(output) = &tool.output_schema {
            field_names_in(output, output.root(), 2, &mut Walk::new(), &mut |name| {
                put(Field::Response, name)
            });
        }
        let mut tags: Vec<String> = tool
            .meta
            .get(TAGS_META_KEY)
            .and_then(Value::as_array)
            .map(|tags| {
                tags.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        for toolset in toolsets.of_tool(position) {
            if !tags.contains(toolset) {
                tags.push(toolset.clone());
            }
        }
        if tags.is_empty() {
            let operation_id = openapi
                .and_then(|o| o.get("operationId"))
                .and_then(Value::as_str);
            let namespace = operation_id
                .and_then(|id| id.split_once('/'))
                .map(|(namespace, _)| namespace);
            let resource = path.and_then(|path| resource_segments(path).next());
            tags.extend(namespace.or(resource).map(str::to_owned));
        }
        for tag in &tags {
            put(Field::Tags, tag);
            if let Some(description) = toolsets.description(tag) {
                put(Field::Category, description);
            }
        }
        text.tags = tags;
        text.method = method.map(str::to_ascii_lowercase);
        text.operation_name = tool
            .name
            .split_once('/')
            .map_or(tool.name.as_str(), |(_, rest)| rest)
            .to_owned();
        text.path_parameters = path
            .into_iter()
            .flat_map(|path| path.split('/'))
            .filter(|segment| segment.contains('{'))
            .collect::<Vec<_>>()
            .join(" ");
        text.people = path.is_some_and(names_people);
        text.updates_item = matches!(text.method.as_deref(), Some("post" | "patch"))
            && path.is_some_and(|path| path.trim_end_matches('/').ends_with('}'));
        text.reads = text.method.as_deref() == Some("get")
            || tool
                .annotations
                .as_ref()
                .and_then(|a| a.read_only_hint)
                .unwrap_or(false);
        text
    }
}

/// `schema`, or what its local `$ref`s lead to in `document`; a few hops
/// at most.
pub(crate) fn resolve<'a>(document: &'a ToolSchema, mut schema: &'a Value) -> &'a Value {
    for _ in 0..8 {
        let Some(target) = schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|reference| document.resolve(reference))
        else {
            break;
        };
        schema = target;
    }
    schema
}

/// Calls `visit` with the field names of the object `schema` (or of the
/// items of an array, or of the branches of a union), `depth` levels of
/// fields deep, `$ref`s into `document` followed, within `walk`.
fn field_names<'a>(
    document: &'a ToolSchema,
    schema: &'a Value,
    depth: usize,
    walk: &mut Walk<'a>,
    visit: &mut impl FnMut(&str),
) {
    let Some(object) = schema.as_object() else {
        return;
    };
    if let Some(reference) = object.get("$ref").and_then(Value::as_str)
        && let Some(target) = document.resolve(reference)
    {
        if let Some(mut inner) = walk.follow(reference) {
            field_names(document, target, depth, &mut inner, visit);
        }
        return;
    }
    field_names_in(document, object, depth, walk, visit);
}

/// [`field_names`] of an object schema.
fn field_names_in<'a>(
    document: &'a ToolSchema,
    object: &'a Map<String, Value>,
    depth: usize,
    walk: &mut Walk<'a>,
    visit: &mut impl FnMut(&str),
) {
    if depth == 0 {
        return;
    }
    for keyword in [
        Keyword::Items,
        Keyword::AnyOf,
        Keyword::OneOf,
        Keyword::AllOf,
    ] {
        for sub in keyword.subschemas_in(object) {
            if let Some(mut inner) = walk.step() {
                field_names(document, sub.schema, depth, &mut inner, visit);
            }
        }
    }
    for sub in Keyword::Properties.subschemas_in(object) {
        if let Some(name) = sub.name {
            visit(name);
        }
        if let Some(mut inner) = walk.step() {
            field_names(document, sub.schema, depth - 1, &mut inner, visit);
        }
    }
}

/// The words an OpenAPI method means on `path`: `GET` of a collection
/// lists, `GET` of one item gets, and so on.
fn intent(method: &str, path: &str) -> &'static str {
    let on_item = path.trim_end_matches('/').ends_with('}');
    match method.to_ascii_lowercase().as_str() {
        "get" if on_item => "get retrieve",
        "get" => "list get",
        "post" if on_item => "update",
        "post" => "create",
        "put" => "update set replace",
        "patch" => "update",
        "delete" => "delete remove",
        _ => "",
    }
}

/// Whether the last resource of `path` is people: users, members, or a
/// noun of those who do something (`followers`, `collaborators`,
/// `assignees`).
pub(crate) fn names_people(path: &str) -> bool {
    let Some(last) = resource_segments(path).last() else {
        return false;
    };
    let mut word = String::new();
    for_each_word(last, |w| {
        word.clear();
        word.push_str(w);
    });
    let singular = word.strip_suffix('s').unwrap_or(&word);
    ["user", "people", "person", "admin", "member", "owner"].contains(&singular)
        || (singular.len() >= 6 && ["er", "or", "ee"].iter().any(|end| singular.ends_with(end)))
}

/// The segments of `path` that name resources or actions: not parameters,
/// not versions (`v1`), not `api`.
pub(crate) fn resource_segments(path: &str) -> impl Iterator<Item = &str> {
    path.split('/').filter(|segment| {
        let version = segment.len() <= 3
            && segment.starts_with('v')
            && segment[1..].chars().all(|c| c.is_ascii_digit());
        !segment.is_empty() && !segment.contains('{') && *segment != "api" && !version
    })
}

/// The properties of an object schema, in order.
pub(crate) fn properties(schema: &Map<String, Value>) -> impl Iterator<Item = (&str, &Value)> {
    schema
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(name, value)| (name.as_str(), value))
}

/// The first paragraph of `text` and the rest.
pub(crate) fn split_first_paragraph(text: &str) -> (&str, &str) {
    let text = text.trim();
    let end = [text.find("\n\n"), text.find("</p>")]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(text.len());
    (&text[..end], &text[end..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn methods_name_intents_by_path_shape() {
        assert_eq!(
            intent("GET", "/repos/{owner}/{repo}/stargazers"),
            "list get"
        );
        assert_eq!(intent("get", "/v1/customers/{customer}"), "get retrieve");
        assert_eq!(intent("post", "/v1/customers"), "create");
        assert_eq!(intent("delete", "/gists/{id}"), "delete remove");
    }

    #[test]
    fn resources_leave_out_parameters_and_versions() {
        let segments: Vec<_> =
            resource_segments("/v1/customers/{customer}/payment_methods").collect();
        assert_eq!(segments, ["customers", "payment_methods"]);
    }

    #[test]
    fn people_are_users_members_and_doers() {
        assert!(names_people("/repos/{owner}/{repo}/stargazers"));
        assert!(names_people("/user/followers"));
        assert!(names_people("/users/{username}"));
        assert!(names_people(
            "/repos/{owner}/{repo}/issues/{issue_number}/assignees"
        ));
        assert!(!names_people("/user/following"));
        assert!(!names_people("/users/{username}/starred"));
    }

    #[test]
    fn paragraphs_and_sentences() {
        assert_eq!(
            split_first_paragraph("Lists.\n\nMore."),
            ("Lists.", "\n\nMore.")
        );
        assert_eq!(
            split_first_paragraph("<p>Lists.</p><p>More</p>").0,
            "<p>Lists."
        );
    }
}
