//! The input schema of a transformed tool, regenerated from its argument
//! changes, and the argument mapping that goes with it.

use std::collections::HashMap;

use serde_json::Value;

use crate::json::JsonObject;
use crate::schema::Validator;
use crate::transform::arg::{ArgTransform, HiddenValue};
use crate::transform::check::{check_change, check_names};
use crate::transform::error::TransformError;
use crate::transform::plan::{ArgPlan, Blocked};

/// Root keywords that may name properties: renaming or hiding an argument
/// under one of them would leave it pointing at the old name.
const NAMING_KEYWORDS: [&str; 11] = [
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "propertyNames",
];

/// The changed input schema and the plan that maps calls back.
pub(crate) struct Rewritten<C> {
    pub(crate) schema: JsonObject,
    pub(crate) plan: ArgPlan<C>,
}

/// Applies `changes` (by original argument name) to `schema`, the input
/// schema of tool `tool`; `new_name` is the transformed tool's name.
///
/// Properties keep their order; hidden ones leave `properties` and
/// `required`, renamed ones keep their place under the new name; `enum`,
/// `default` and `description` are written into the property; a default
/// makes an argument optional and `required` makes it required.
pub(crate) fn rewrite_input<C>(
    tool: &str,
    new_name: &str,
    schema: &JsonObject,
    changes: &[(String, ArgTransform<C>)],
) -> Result<Rewritten<C>, TransformError> {
    let schema_error = |reason: String| TransformError::Schema {
        tool: tool.to_owned(),
        reason,
    };
    let properties = match schema.get("properties") {
        None => JsonObject::new(),
        Some(Value::Object(properties)) => properties.clone(),
        Some(_) => {
            return Err(schema_error(
                "its input `properties` is not an object".into(),
            ));
        }
    };
    let required = required_names(schema);
    check_names(tool, &properties, changes)?;
    for (name, change) in changes {
        check_change(
            tool,
            schema,
            name,
            &properties[name],
            change,
            required.contains(name),
        )?;
    }
    if changes.iter().any(|(_, c)| c.hide || c.rename.is_some())
        && let Some(keyword) = NAMING_KEYWORDS.iter().find(|k| schema.contains_key(**k))
    {
        return Err(schema_error(format!(
            "its input schema uses `{keyword}` at the root, which may name arguments: only arguments of a plain object schema can be renamed or hidden"
        )));
    }

    let by_name: HashMap<&str, &ArgTransform<C>> =
        changes.iter().map(|(n, c)| (n.as_str(), c)).collect();
    let mut plan = Plan::default();
    let mut shown = JsonObject::new();
    let mut owners: HashMap<String, String> = HashMap::new();
    for (name, property) in &properties {
        let (new, property) = match by_name.get(name.as_str()) {
            None => (name.clone(), property.clone()),
            Some(change) if change.hide => {
                plan.blocked.insert(name.clone(), Blocked::Hidden);
                if let Some(value) = &change.value {
                    plan.hidden.push((name.clone(), value.clone()));
                }
                continue;
            }
            Some(change) => {
                let new = change.rename.clone().unwrap_or_else(|| name.clone());
                if new != *name {
                    plan.renamed.insert(new.clone(), name.clone());
                    plan.blocked
                        .insert(name.clone(), Blocked::RenamedTo(new.clone()));
                }
                if let Some(default) = &change.default {
                    plan.defaults.push((new.clone(), default.clone()));
                }
                (new, edit_property(property, change))
            }
        };
        if let Some(first) = owners.insert(new.clone(), name.clone()) {
            return Err(TransformError::ArgumentNames {
                tool: tool.to_owned(),
                reason: format!("arguments `{first}` and `{name}` would both be named `{new}`"),
            });
        }
        shown.insert(new, property);
    }

    let mut new_required = Vec::new();
    for name in &required {
        let new = match by_name.get(name.as_str()) {
            None => name.clone(),
            Some(change) if change.hide || change.default.is_some() => continue,
            Some(change) => change.rename.clone().unwrap_or_else(|| name.clone()),
        };
        push_unique(&mut new_required, new);
    }
    for (name, change) in changes {
        if change.required {
            push_unique(
                &mut new_required,
                change.rename.clone().unwrap_or_else(|| name.clone()),
            );
        }
    }

    let mut rewritten = schema.clone();
    if schema.contains_key("properties") {
        rewritten.insert("properties".to_owned(), Value::Object(shown));
    }
    if new_required.is_empty() {
        rewritten.shift_remove("required");
    } else {
        rewritten.insert(
            "required".to_owned(),
            new_required.into_iter().map(Value::String).collect(),
        );
    }
    let validator = Validator::compile(&rewritten)
        .map_err(|reason| schema_error(format!("its new input schema is invalid: {reason}")))?;
    let plan = ArgPlan {
        tool: new_name.to_owned(),
        validator,
        renamed: plan.renamed,
        blocked: plan.blocked,
        hidden: plan.hidden,
        defaults: plan.defaults,
    };
    Ok(Rewritten {
        schema: rewritten,
        plan,
    })
}

/// The parts of an [`ArgPlan`] gathered while rewriting.
struct Plan<C> {
    renamed: HashMap<String, String>,
    blocked: HashMap<String, Blocked>,
    hidden: Vec<(String, HiddenValue<C>)>,
    defaults: Vec<(String, Value)>,
}

impl<C> Default for Plan<C> {
    fn default() -> Self {
        Self {
            renamed: HashMap::new(),
            blocked: HashMap::new(),
            hidden: Vec::new(),
            defaults: Vec::new(),
        }
    }
}

fn required_names(schema: &JsonObject) -> Vec<String> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect()
}

fn push_unique(names: &mut Vec<String>, name: String) {
    if !names.contains(&name) {
        names.push(name);
    }
}

/// The property schema with the change's description, enum and default.
fn edit_property<C>(property: &Value, change: &ArgTransform<C>) -> Value {
    let mut object = match property {
        Value::Object(object) => object.clone(),
        _ => JsonObject::new(),
    };
    if let Some(description) = &change.description {
        object.insert("description".to_owned(), description.clone().into());
    }
    if let Some(values) = &change.enum_values {
        object.insert("enum".to_owned(), Value::Array(values.clone()));
    }
    if let Some(default) = &change.default {
        object.insert("default".to_owned(), default.clone());
    }
    Value::Object(object)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn issues() -> JsonObject {
        json!({
            "type": "object",
            "properties": {
                "owner": {"type": "string"},
                "repo": {"type": "string"},
                "state": {"type": "string", "enum": ["open", "closed", "all"]},
                "per_page": {"type": "integer", "maximum": 100}
            },
            "required": ["owner", "repo"]
        })
        .as_object()
        .cloned()
        .unwrap()
    }

    fn rewrite(changes: &[(&str, ArgTransform)]) -> Result<Rewritten<()>, TransformError> {
        let changes: Vec<(String, ArgTransform)> = changes
            .iter()
            .map(|(name, change)| ((*name).to_owned(), change.clone()))
            .collect();
        rewrite_input("issues", "list_issues", &issues(), &changes)
    }

    fn schema(changes: &[(&str, ArgTransform)]) -> Value {
        Value::Object(rewrite(changes).unwrap().schema)
    }

    fn error(changes: &[(&str, ArgTransform)]) -> String {
        match rewrite(changes) {
            Ok(_) => panic!("the changes were accepted"),
            Err(error) => error.to_string(),
        }
    }

    #[test]
    fn no_change_keeps_the_schema() {
        assert_eq!(schema(&[]), Value::Object(issues()));
    }

    #[test]
    fn a_rename_keeps_the_place_and_the_requirement() {
        let renamed = schema(&[("repo", ArgTransform::new().rename("repository"))]);
        let names: Vec<&String> = renamed["properties"].as_object().unwrap().keys().collect();
        assert_eq!(names, ["owner", "repository", "state", "per_page"]);
        assert_eq!(renamed["required"], json!(["owner", "repository"]));
    }

    #[test]
    fn a_hidden_argument_leaves_properties_and_required() {
        let hidden = schema(&[("owner", ArgTransform::new().hide().value("acme"))]);
        assert!(hidden["properties"].get("owner").is_none());
        assert_eq!(hidden["required"], json!(["repo"]));
        let plan = rewrite(&[("owner", ArgTransform::new().hide().value("acme"))])
            .unwrap()
            .plan;
        assert_eq!(plan.blocked.get("owner"), Some(&Blocked::Hidden));
    }

    #[test]
    fn hiding_every_required_argument_drops_required() {
        let hidden = schema(&[
            ("owner", ArgTransform::new().hide().value("acme")),
            ("repo", ArgTransform::new().hide().value("widgets")),
        ]);
        assert!(hidden.get("required").is_none(), "{hidden}");
    }

    #[test]
    fn enum_default_and_description_are_written_into_the_property() {
        let changed = schema(&[(
            "state",
            ArgTransform::new()
                .description("Which issues.")
                .enum_values(["open", "closed"])
                .default_value("open"),
        )]);
        assert_eq!(
            changed["properties"]["state"],
            json!({"type": "string", "enum": ["open", "closed"], "description": "Which issues.", "default": "open"})
        );
    }

    #[test]
    fn a_default_makes_an_argument_optional_and_required_makes_it_required() {
        let changed = schema(&[
            ("repo", ArgTransform::new().default_value("widgets")),
            ("per_page", ArgTransform::new().required()),
        ]);
        assert_eq!(changed["required"], json!(["owner", "per_page"]));
    }

    #[test]
    fn unknown_arguments_are_named_with_the_known_ones() {
        assert_eq!(
            error(&[("onwer", ArgTransform::new().hide())]),
            "tool `issues` has no argument `onwer` (its arguments: `owner`, `repo`, `state`, `per_page`)"
        );
    }

    #[test]
    fn contradictions_are_refused() {
        let cases = [
            (
                ArgTransform::new().hide().rename("x").value("acme"),
                "a hidden argument cannot also have `rename`",
            ),
            (
                ArgTransform::new().hide(),
                "the tool requires this argument, so hiding it needs a `value`",
            ),
            (
                ArgTransform::new().value("acme"),
                "a `value` is only for a hidden argument: add `hide`",
            ),
            (
                ArgTransform::new().required().default_value("acme"),
                "cannot also be `required`",
            ),
            (ArgTransform::new().rename(""), "must not be empty"),
            (
                ArgTransform::new().hide().value(7),
                "the `value` 7 does not fit the argument's schema",
            ),
        ];
        for (change, expected) in cases {
            let message = error(&[("owner", change)]);
            assert!(
                message.starts_with("tool `issues`, argument `owner`: ")
                    && message.contains(expected),
                "{message}"
            );
        }
    }

    #[test]
    fn enum_and_default_values_must_fit_the_original_schema() {
        let message = error(&[("state", ArgTransform::new().enum_values(["open", "draft"]))]);
        assert!(
            message.contains("the `enum` \"draft\" does not fit"),
            "{message}"
        );
        let message = error(&[(
            "state",
            ArgTransform::new()
                .enum_values(["open"])
                .default_value("closed"),
        )]);
        assert!(
            message.contains("is not one of the `enum` values"),
            "{message}"
        );
        let message = error(&[("per_page", ArgTransform::new().default_value(500))]);
        assert!(
            message.contains("the `default` 500 does not fit"),
            "{message}"
        );
    }

    #[test]
    fn optional_arguments_may_be_hidden_without_a_value() {
        let hidden = rewrite(&[("per_page", ArgTransform::new().hide())]).unwrap();
        assert!(hidden.schema["properties"].get("per_page").is_none());
        assert!(hidden.plan.hidden.is_empty());
    }

    #[test]
    fn two_arguments_cannot_share_a_name() {
        assert_eq!(
            error(&[("state", ArgTransform::new().rename("owner"))]),
            "tool `issues`: arguments `owner` and `state` would both be named `owner`"
        );
        assert_eq!(
            error(&[
                ("state", ArgTransform::new().description("a")),
                ("state", ArgTransform::new().description("b"))
            ]),
            "tool `issues`: argument `state` is transformed twice"
        );
        // Swapping two names is fine.
        let swapped = schema(&[
            ("owner", ArgTransform::new().rename("repo")),
            ("repo", ArgTransform::new().rename("owner")),
        ]);
        assert_eq!(swapped["required"], json!(["repo", "owner"]));
    }

    #[test]
    fn combined_root_schemas_cannot_lose_names() {
        let mut combined = issues();
        combined.insert(
            "anyOf".into(),
            json!([{"required": ["owner"]}, {"required": ["repo"]}]),
        );
        let changes = vec![(
            "owner".to_owned(),
            ArgTransform::<()>::new().rename("login"),
        )];
        let message = match rewrite_input("issues", "issues", &combined, &changes) {
            Ok(_) => panic!("accepted"),
            Err(error) => error.to_string(),
        };
        assert!(message.contains("uses `anyOf` at the root"), "{message}");
        let described = vec![(
            "owner".to_owned(),
            ArgTransform::<()>::new().description("Who."),
        )];
        assert!(rewrite_input("issues", "issues", &combined, &described).is_ok());
    }
}
