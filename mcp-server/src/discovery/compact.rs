//! The compact form of an input schema that search results carry: each
//! argument's type, enum values and one-line description, which arguments
//! are required, and the field names of object arguments one level deep.
//! Enough to call most tools; `detail` gives the full schema.

use mcp_core::ToolSchema;
use mcp_core::schema::walk::{Keyword, Walk};
use serde_json::{Map, Value, json};

use super::document::{properties, resolve};
use super::words::strip_markup;
use crate::sentence::first_sentence;

/// The size a compact schema aims at by default, in bytes of JSON: past
/// it, argument descriptions (then nested field names) are left out, the
/// optional arguments' first. No argument is ever left out.
#[cfg(test)]
const BUDGET: usize = 900;
/// The longest one-line description kept, in characters.
const DESCRIPTION_CHARS: usize = 80;
/// The most enum values listed; more are cut with a count.
const ENUM_VALUES: usize = 12;

/// How much of each argument a compact schema says.
#[derive(Clone, Copy)]
struct Detail {
    /// Descriptions of required arguments.
    required_descriptions: bool,
    /// Descriptions of optional arguments.
    optional_descriptions: bool,
    /// The field names of object arguments.
    nested: bool,
    /// The values of enums.
    enums: bool,
    /// Whether optional arguments have a schema each (else only their
    /// names are said, in the schema's description).
    optional: bool,
}

/// The compact form of `schema` (an object schema whose `$ref`s point into
/// its own `$defs`), within `budget` bytes where leaving out descriptions
/// and nested names can get it there.
pub(crate) fn compact_schema(schema: &ToolSchema, budget: usize) -> Value {
    let full = Detail {
        required_descriptions: true,
        optional_descriptions: true,
        nested: true,
        enums: true,
        optional: true,
    };
    let ladder = [
        full,
        Detail {
            optional_descriptions: false,
            ..full
        },
        Detail {
            optional_descriptions: false,
            nested: false,
            ..full
        },
        Detail {
            required_descriptions: false,
            optional_descriptions: false,
            nested: false,
            ..full
        },
        Detail {
            required_descriptions: false,
            optional_descriptions: false,
            nested: false,
            enums: false,
            optional: true,
        },
        Detail {
            required_descriptions: false,
            optional_descriptions: false,
            nested: false,
            enums: false,
            optional: false,
        },
    ];
    let mut compact = Value::Null;
    for detail in ladder {
        compact = compact_with(schema, detail);
        if serde_json::to_string(&compact).map_or(0, |text| text.len()) <= budget {
            break;
        }
    }
    compact
}

fn compact_with(schema: &ToolSchema, detail: Detail) -> Value {
    let required: Vec<&str> = schema
        .root()
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let mut arguments = Map::new();
    let mut unsaid: Vec<&str> = Vec::new();
    for (name, argument) in properties(schema.root()) {
        let argument = resolve(schema, argument);
        let needed = required.contains(&name);
        if !needed && !detail.optional {
            unsaid.push(name);
            continue;
        }
        let describe = if needed {
            detail.required_descriptions
        } else {
            detail.optional_descriptions
        };
        arguments.insert(
            name.to_owned(),
            compact_argument(schema, argument, describe, detail),
        );
    }
    let mut compact = Map::new();
    compact.insert("type".to_owned(), "object".into());
    compact.insert("properties".to_owned(), Value::Object(arguments));
    if !required.is_empty() {
        compact.insert("required".to_owned(), json!(required));
    }
    if !unsaid.is_empty() {
        compact.insert(
            "description".to_owned(),
            format!(
                "Optional too: {} (`detail: true` for their schemas)",
                unsaid.join(", ")
            )
            .into(),
        );
    }
    Value::Object(compact)
}

/// One argument: type, enum, one-line description, field names.
fn compact_argument(root: &ToolSchema, argument: &Value, describe: bool, detail: Detail) -> Value {
    let nested = detail.nested;
    let mut compact = Map::new();
    if let Some(kind) = type_of(root, argument, &mut Walk::new()) {
        compact.insert("type".to_owned(), kind);
    }
    if detail.enums
        && let Some(values) = argument.get("enum").and_then(Value::as_array)
    {
        let mut listed: Vec<Value> = values.iter().take(ENUM_VALUES).cloned().collect();
        if values.len() > ENUM_VALUES {
            listed.push(format!("({} more)", values.len() - ENUM_VALUES).into());
        }
        compact.insert("enum".to_owned(), Value::Array(listed));
    }
    if describe && let Some(description) = argument.get("description").and_then(Value::as_str) {
        compact.insert("description".to_owned(), one_line(description).into());
    }
    if nested {
        let object = match argument.get("items") {
            Some(items) => resolve(root, items),
            None => argument,
        };
        let fields: Map<String, Value> = object
            .as_object()
            .into_iter()
            .flat_map(properties)
            .map(|(name, field)| {
                let field = resolve(root, field);
                let kind = type_of(root, field, &mut Walk::new()).unwrap_or(Value::Null);
                (name.to_owned(), json!({ "type": kind }))
            })
            .collect();
        if !fields.is_empty() {
            let slot = if argument.get("items").is_some() {
                "items"
            } else {
                "properties"
            };
            let fields = Value::Object(fields);
            let value = if slot == "items" {
                json!({ "type": "object", "properties": fields })
            } else {
                fields
            };
            compact.insert(slot.to_owned(), value);
        }
    }
    Value::Object(compact)
}

/// The type of `schema`: its `type`, else the types of its `anyOf`/`oneOf`
/// branches, else `object` when it has properties; `$ref`s into `root`
/// followed within `walk`.
fn type_of<'a>(root: &'a ToolSchema, schema: &'a Value, walk: &mut Walk<'a>) -> Option<Value> {
    if let Some(kind) = schema.get("type") {
        return Some(kind.clone());
    }
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str)
        && let Some(target) = root.resolve(reference)
    {
        let mut inner = walk.follow(reference)?;
        return type_of(root, target, &mut inner);
    }
    let object = schema.as_object()?;
    for keyword in [Keyword::AnyOf, Keyword::OneOf, Keyword::AllOf] {
        if !object.get(keyword.as_str()).is_some_and(Value::is_array) {
            continue;
        }
        let mut kinds: Vec<Value> = Vec::new();
        for branch in keyword.subschemas_in(object) {
            let Some(mut inner) = walk.step() else {
                break;
            };
            let found = match type_of(root, branch.schema, &mut inner) {
                Some(Value::Array(many)) => many,
                Some(one) => vec![one],
                None => Vec::new(),
            };
            for kind in found {
                if !kinds.contains(&kind) {
                    kinds.push(kind);
                }
            }
        }
        return match kinds.len() {
            0 => None,
            1 => kinds.pop(),
            _ => Some(Value::Array(kinds)),
        };
    }
    object.get("properties").map(|_| "object".into())
}

/// The first sentence of `text`, without markup, cut at a word to at most
/// [`DESCRIPTION_CHARS`].
pub(crate) fn one_line(text: &str) -> String {
    sentence_within(text, DESCRIPTION_CHARS)
}

/// The first sentence of `text`, without markup, cut at a word to at most
/// `chars` characters.
pub(crate) fn sentence_within(text: &str, chars: usize) -> String {
    cut(first_sentence(strip_markup(text).trim()), chars)
}

/// `text` cut at a word boundary to at most `chars` characters, with `…`
/// when cut.
pub(crate) fn cut(text: &str, chars: usize) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() <= chars {
        return text;
    }
    let end = text
        .char_indices()
        .nth(chars)
        .map_or(text.len(), |(index, _)| index);
    let head = &text[..end];
    let head = head.rfind(' ').map_or(head, |space| &head[..space]);
    format!("{}…", head.trim_end_matches([',', ';', ':']))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_keep_type_enum_required_and_one_line() {
        let schema = json!({
            "type": "object",
            "properties": {
                "owner": {"type": "string", "description": "The account owner. Not case sensitive."},
                "state": {"type": "string", "enum": ["open", "closed"], "default": "open"},
                "author": {"$ref": "#/$defs/Author"},
                "labels": {"type": "array", "items": {"type": "string"}}
            },
            "required": ["owner"],
            "$defs": {"Author": {"type": "object", "properties": {"name": {"type": "string"}, "email": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}}
        });
        let schema = ToolSchema::new(schema.as_object().cloned().unwrap());
        let compact = compact_schema(&schema, BUDGET);
        assert_eq!(
            compact,
            json!({
                "type": "object",
                "properties": {
                    "owner": {"type": "string", "description": "The account owner."},
                    "state": {"type": "string", "enum": ["open", "closed"]},
                    "author": {"type": "object", "properties": {"name": {"type": "string"}, "email": {"type": ["string", "null"]}}},
                    "labels": {"type": "array"}
                },
                "required": ["owner"]
            })
        );
    }

    #[test]
    fn long_text_is_cut_at_a_word() {
        assert_eq!(cut("one two three", 9), "one two…");
        assert_eq!(
            one_line("<p>Creates a <b>customer</b>.</p> More."),
            "Creates a customer ."
        );
    }
}
