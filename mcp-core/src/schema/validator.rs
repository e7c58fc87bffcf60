//! Checking a JSON value against a schema, every violation named by its
//! JSON pointer: what transformed tools check their arguments with, and
//! generated tools their responses.

use std::fmt;

use jsonschema::ValidationError;
use jsonschema::error::ValidationErrorKind;
use serde_json::Value;

use crate::error::SchemaError;
use crate::json::JsonObject;

/// The keywords a sub-schema may need from its root: the dialect and the
/// shared definitions its `$ref`s point at.
const ROOT_KEYWORDS: [&str; 3] = ["$schema", "$defs", "definitions"];

/// A compiled JSON Schema (2020-12 unless it names another dialect).
///
/// ```
/// use mcp_core::schema::Validator;
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
/// let validator = Validator::new(&schema)?;
/// assert!(validator.violations(&json!({"n": 1})).is_empty());
/// assert_eq!(
///     validator.violations(&json!({"n": "one"})),
///     ["/n: \"one\" is not of type \"integer\""]
/// );
/// # Ok::<(), mcp_core::SchemaError>(())
/// ```
pub struct Validator(jsonschema::Validator);

impl Validator {
    /// Compiles `schema`; [`SchemaError::Invalid`] when it is not a valid
    /// JSON Schema.
    pub fn new(schema: &Value) -> Result<Self, SchemaError> {
        jsonschema::validator_for(schema)
            .map(Self)
            .map_err(|error| SchemaError::Invalid {
                reason: error.to_string(),
            })
    }

    /// Compiles `schema`, or says why it is not a usable schema.
    pub(crate) fn compile(schema: &JsonObject) -> Result<Self, String> {
        jsonschema::validator_for(&Value::Object(schema.clone()))
            .map(Self)
            .map_err(|error| error.to_string())
    }

    /// Compiles `property`, a schema inside `root`, keeping what of the root
    /// its references need.
    pub(crate) fn for_property(root: &JsonObject, property: &Value) -> Result<Self, String> {
        let mut schema = JsonObject::new();
        for key in ROOT_KEYWORDS {
            if let Some(value) = root.get(key) {
                schema.insert(key.to_owned(), value.clone());
            }
        }
        match property {
            Value::Object(object) => schema.extend(object.clone()),
            Value::Bool(false) => {
                schema.insert("not".to_owned(), Value::Object(JsonObject::new()));
            }
            _ => {}
        }
        Self::compile(&schema)
    }

    /// Every violation of the schema by `instance`, as `pointer: message`
    /// (`(root)` for the instance itself).
    pub fn violations(&self, instance: &Value) -> Vec<String> {
        self.0
            .iter_errors(instance)
            .map(|error| {
                let pointer = error.instance_path().as_str().to_owned();
                let pointer = if pointer.is_empty() {
                    "(root)".to_owned()
                } else {
                    pointer
                };
                format!("{pointer}: {}", violation_message(&error))
            })
            .collect()
    }
}

/// How many allowed values a message lists before it says how many more
/// there are.
const LISTED_VALUES: usize = 20;

/// What `error` says, in words a person (or a model) can act on: a value
/// outside an `enum`, or outside a `oneOf`/`anyOf` of `const`s (how
/// schemars spells an enum whose variants have doc comments), names the
/// values allowed; other violations read as the validator words them.
pub(crate) fn violation_message(error: &ValidationError<'_>) -> String {
    let allowed = match error.kind() {
        ValidationErrorKind::Enum { options } => options.as_array().cloned(),
        ValidationErrorKind::OneOfNotValid { context } | ValidationErrorKind::AnyOf { context } => {
            constants(error, context)
        }
        _ => None,
    };
    match allowed {
        Some(values) if !values.is_empty() => {
            format!("{} is not one of {}", error.instance(), listed(&values))
        }
        _ => error.to_string(),
    }
}

/// The values of a `oneOf`/`anyOf` whose every branch failed on its
/// `const` (or `enum`) at the error's own value, or `None` when a branch
/// failed otherwise.
fn constants(
    error: &ValidationError<'_>,
    branches: &[Vec<ValidationError<'_>>],
) -> Option<Vec<Value>> {
    let mut values: Vec<Value> = Vec::new();
    for branch in branches {
        let mut found = false;
        for failure in branch
            .iter()
            .filter(|failure| failure.instance_path() == error.instance_path())
        {
            let allowed = match failure.kind() {
                ValidationErrorKind::Constant { expected_value } => {
                    vec![(**expected_value).clone()]
                }
                ValidationErrorKind::Enum { options } => {
                    options.as_array().cloned().unwrap_or_default()
                }
                _ => continue,
            };
            found = true;
            for value in allowed {
                if !values.contains(&value) {
                    values.push(value);
                }
            }
        }
        if !found {
            return None;
        }
    }
    Some(values)
}

/// `"a", "b", "c"`, or the first [`LISTED_VALUES`] and how many more.
fn listed(values: &[Value]) -> String {
    let shown: Vec<String> = values
        .iter()
        .take(LISTED_VALUES)
        .map(Value::to_string)
        .collect();
    let more = values.len().saturating_sub(LISTED_VALUES);
    if more == 0 {
        shown.join(", ")
    } else {
        format!("{} and {more} more", shown.join(", "))
    }
}

impl fmt::Debug for Validator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Validator").finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn properties_resolve_references_against_their_root() {
        let root = json!({
            "type": "object",
            "$defs": {"State": {"type": "string", "enum": ["open", "closed"]}},
            "properties": {"state": {"$ref": "#/$defs/State"}}
        });
        let root = root.as_object().unwrap();
        let state = Validator::for_property(root, &root["properties"]["state"]).unwrap();
        assert!(state.violations(&json!("open")).is_empty());
        let found = state.violations(&json!("all"));
        assert_eq!(found.len(), 1);
        assert!(found[0].starts_with("(root): "), "{found:?}");
    }

    #[test]
    fn a_value_outside_an_enum_names_the_allowed_values() {
        let unit = |schema: Value| {
            let root = json!({"type": "object", "properties": {"unit": schema}, "$defs": {
                "Unit": {"oneOf": [
                    {"type": "string", "const": "celsius", "description": "Degrees Celsius."},
                    {"type": "string", "const": "fahrenheit", "description": "Degrees Fahrenheit."}
                ]}
            }});
            Validator::new(&root)
                .unwrap()
                .violations(&json!({"unit": "kelvin"}))
        };
        let expected = [r#"/unit: "kelvin" is not one of "celsius", "fahrenheit""#];
        assert_eq!(unit(json!({"enum": ["celsius", "fahrenheit"]})), expected);
        assert_eq!(unit(json!({"$ref": "#/$defs/Unit"})), expected);
        assert_eq!(
            unit(json!({"anyOf": [{"const": "celsius"}, {"enum": ["fahrenheit"]}]})),
            expected
        );
        // A branch that is not a constant keeps the validator's words.
        let mixed = unit(json!({"oneOf": [{"const": "celsius"}, {"type": "integer"}]}));
        assert!(mixed[0].contains("'oneOf'"), "{mixed:?}");
    }

    #[test]
    fn long_lists_say_how_many_more() {
        let options: Vec<Value> = (0..25).map(|n| json!(n)).collect();
        let validator = Validator::new(&json!({"enum": options})).unwrap();
        let found = validator.violations(&json!(99));
        assert!(found[0].ends_with(", 19 and 5 more"), "{found:?}");
    }

    #[test]
    fn violations_name_the_argument_by_pointer() {
        let schema = json!({
            "type": "object",
            "properties": {"status": {"enum": ["open", "closed"]}},
            "required": ["repo"]
        });
        let validator = Validator::new(&schema).unwrap();
        let found = validator.violations(&json!({"status": "all"}));
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found.iter().any(|line| line.starts_with("/status: ")));
        assert!(found.iter().any(|line| line.contains("\"repo\"")));
    }
}
