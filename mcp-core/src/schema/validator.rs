//! Checking a JSON value against a schema, every violation named by its
//! JSON pointer: what transformed tools check their arguments with, and
//! generated tools their responses.

use std::fmt;

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
                format!("{pointer}: {error}")
            })
            .collect()
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
