//! JSON Schemas of tool arguments and outputs, derived with schemars.
//!
//! Schemas follow JSON Schema 2020-12 (`$defs` for shared definitions),
//! spelled the portable way, the same for every kind of tool (generated
//! OpenAPI tools follow the same policy):
//!
//! - **No `$schema`**: 2020-12 is the MCP default dialect and several
//!   clients refuse the `$schema` URI. The root `title` and `description`
//!   are dropped too: the tool's own title and description say that.
//! - **No type arrays with `null`**: function-calling dialects such as
//!   Gemini's refuse `"type": ["T", "null"]`. An optional top-level
//!   argument (`Option<T>`, not in `required`) is spelled as `T` alone; a
//!   client that sends `null` for it anyway is treated as having left it
//!   out (see [`arguments`](crate::arguments)), which is what serde makes
//!   of it. Any other nullable value is spelled
//!   `"anyOf": [{"type": "T"}, {"type": "null"}]` (see [`portable`]).
//!
//! ```
//! use mcp_core::schema::input_schema_for;
//! use schemars::JsonSchema;
//!
//! #[derive(JsonSchema)]
//! #[allow(dead_code)]
//! struct Search {
//!     /// What to look for.
//!     query: String,
//! }
//!
//! let schema = input_schema_for::<Search>()?;
//! assert_eq!(schema["type"], "object");
//! assert_eq!(schema["required"], serde_json::json!(["query"]));
//! assert!(input_schema_for::<Vec<String>>().is_err());
//! # Ok::<(), mcp_core::SchemaError>(())
//! ```

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::Value;

use crate::error::SchemaError;
use crate::json::JsonObject;

pub mod compiled;
mod portable;
pub(crate) mod validator;
pub mod walk;

pub use portable::{ANNOTATION_KEYWORDS, portable, portable_input};
pub use validator::Validator;

/// The input schema of `T`: its root must describe an object.
pub fn input_schema_for<T: JsonSchema>() -> Result<JsonObject, SchemaError> {
    let mut schema = root_schema_for::<T>();
    match schema.get("type") {
        Some(Value::String(kind)) if kind == "object" => {
            portable_input(&mut schema);
            Ok(schema)
        }
        other => Err(SchemaError::InputNotObject {
            type_name: T::schema_name().into_owned(),
            found: describe_root(other),
        }),
    }
}

/// The output schema of `T`, and whether it had to be wrapped.
///
/// MCP requires an object root. A `T` whose schema is not an object (a
/// number, a list, an enum) is wrapped as
/// `{"type":"object","properties":{"result":<schema>},"required":["result"]}`
/// and its value is sent as `{"result": value}`; shared `$defs` move to the
/// root so references still resolve.
pub fn output_schema_for<T: JsonSchema>() -> (JsonObject, bool) {
    let mut schema = root_schema_for::<T>();
    portable(&mut schema);
    if matches!(schema.get("type"), Some(Value::String(kind)) if kind == "object") {
        return (schema, false);
    }
    (wrap_result(schema), true)
}

/// Wraps a non-object schema under a required `result` property.
pub fn wrap_result(mut schema: JsonObject) -> JsonObject {
    let defs = schema.remove("$defs");
    let mut properties = JsonObject::new();
    properties.insert("result".to_owned(), Value::Object(schema));
    let mut wrapper = JsonObject::new();
    wrapper.insert("type".to_owned(), "object".into());
    wrapper.insert("properties".to_owned(), Value::Object(properties));
    wrapper.insert("required".to_owned(), Value::Array(vec!["result".into()]));
    if let Some(defs) = defs {
        wrapper.insert("$defs".to_owned(), defs);
    }
    wrapper
}

fn root_schema_for<T: JsonSchema>() -> JsonObject {
    let schema = SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<T>();
    let mut object = match schema.to_value() {
        Value::Object(object) => object,
        // `true` accepts anything, `false` nothing: spelled as objects.
        Value::Bool(true) => JsonObject::new(),
        other => {
            let mut object = JsonObject::new();
            object.insert("not".to_owned(), serde_json::json!({}));
            debug_assert!(other == Value::Bool(false));
            object
        }
    };
    for key in ["$schema", "title", "description"] {
        object.remove(key);
    }
    object
}

fn describe_root(kind: Option<&Value>) -> String {
    match kind {
        Some(Value::String(kind)) => format!("`\"type\": \"{kind}\"`"),
        Some(other) => format!("`\"type\": {other}`"),
        None => "a schema without `\"type\": \"object\"`".to_owned(),
    }
}

/// The schema of raw JSON object arguments: any object.
pub(crate) fn any_object() -> JsonObject {
    let mut object = JsonObject::new();
    object.insert("type".to_owned(), "object".into());
    object
}

/// Checks that a hand-written schema is an object with `"type": "object"`.
pub(crate) fn check_object_schema(schema: &JsonObject) -> Result<(), SchemaError> {
    match schema.get("type") {
        Some(Value::String(kind)) if kind == "object" => Ok(()),
        other => Err(SchemaError::NotAnObject {
            found: describe_root(other),
        }),
    }
}

/// A short name of a JSON value's kind (`"an object"`, `"a string"`,
/// `"null"`, ...), for error messages about schemas and documents.
///
/// ```
/// use mcp_core::schema::json_kind;
/// use serde_json::json;
///
/// assert_eq!(json_kind(&json!([1])), "an array");
/// assert_eq!(json_kind(&json!(null)), "null");
/// ```
pub fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The length in bytes of `value` as compact JSON, counted without building
/// the text: what a tool or schema weighs in a `tools/list` answer.
///
/// ```
/// use mcp_core::schema::json_len;
///
/// assert_eq!(json_len(&serde_json::json!({"a": [1, 2]})), r#"{"a":[1,2]}"#.len());
/// ```
pub fn json_len(value: &(impl serde::Serialize + ?Sized)) -> usize {
    struct Counter(usize);
    impl std::io::Write for Counter {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut counter = Counter(0);
    // Writing to a counter cannot fail; a value that cannot be serialized
    // counts what was written before the failure.
    let _ = serde_json::to_writer(&mut counter, value);
    counter.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    /// A pair.
    struct Pair {
        /// The left one.
        a: i64,
        b: Option<String>,
    }

    #[test]
    fn object_inputs_keep_field_docs_and_drop_root_noise() {
        let schema = input_schema_for::<Pair>().unwrap();
        assert_eq!(
            Value::Object(schema),
            json!({
                "type": "object",
                "properties": {
                    "a": {"type": "integer", "format": "int64", "description": "The left one."},
                    "b": {"type": "string"}
                },
                "required": ["a"]
            })
        );
    }

    #[test]
    fn non_object_inputs_are_refused_with_the_type_name() {
        let err = input_schema_for::<Vec<i64>>().unwrap_err().to_string();
        assert!(
            err.contains("`Array_of_int64`") && err.contains("\"type\": \"array\""),
            "{err}"
        );
    }

    #[test]
    fn non_object_outputs_are_wrapped_under_result() {
        let (schema, wrapped) = output_schema_for::<Vec<Pair>>();
        assert!(wrapped);
        assert_eq!(schema["required"], json!(["result"]));
        assert_eq!(
            schema["properties"]["result"]["items"],
            json!({"$ref": "#/$defs/Pair"})
        );
        assert!(schema["$defs"]["Pair"].is_object());
        let (_, wrapped) = output_schema_for::<Pair>();
        assert!(!wrapped);
    }
}
