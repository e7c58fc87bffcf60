//! Results that pass on a value which does not match the tool's documented
//! output schema.
//!
//! Real APIs do not always match their documents, and a tool that relays
//! one (a generated OpenAPI tool) should not turn a successful call into a
//! failure for it. Such a tool declares [`tolerant_output_schema`] of its
//! documented schema `D`: `{"type": "object", "anyOf": [D, envelope]}`. A
//! value that matches `D` is sent as is; one that does not is sent in the
//! envelope `{"unvalidatedResponse": <the value>, "schemaViolations":
//! ["<pointer>: <message>", ...]}`, so `structuredContent` always matches
//! the declared `outputSchema` and the value still reaches the caller.
//!
//! ```
//! use mcp_core::tool::unvalidated::{Unvalidated, documented, tolerant_output_schema};
//! use serde_json::json;
//!
//! let declared = json!({"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]});
//! let tolerant = tolerant_output_schema(declared.as_object().unwrap());
//! assert_eq!(documented(&tolerant), Some(&declared));
//!
//! let sent = json!({"unvalidatedResponse": {"id": null}, "schemaViolations": ["/id: null is not of type \"integer\""]});
//! let Unvalidated { value, violations } = Unvalidated::of(&sent).unwrap();
//! assert_eq!(value, &json!({"id": null}));
//! assert_eq!(violations, ["/id: null is not of type \"integer\""]);
//! ```

use serde_json::{Value, json};

use crate::json::JsonObject;

/// The envelope's member holding the value as received.
pub const UNVALIDATED_RESPONSE: &str = "unvalidatedResponse";
/// The envelope's member listing how the value departs from the schema.
pub const SCHEMA_VIOLATIONS: &str = "schemaViolations";

/// The schema of the envelope, the second branch of a tolerant output
/// schema.
pub fn envelope_schema() -> Value {
    json!({
        "type": "object",
        "description": "The upstream response did not match the documented schema; it is passed on unchanged.",
        "properties": {
            UNVALIDATED_RESPONSE: {
                "description": "The response as received (text when it is not JSON). Any JSON value on purpose: it did not match the documented schema, so nothing more about its shape is known.",
                "anyOf": [
                    {"type": "object"},
                    {"type": "array"},
                    {"type": "string"},
                    {"type": "number"},
                    {"type": "boolean"},
                    {"type": "null"}
                ]
            },
            SCHEMA_VIOLATIONS: {"type": "array", "items": {"type": "string"}}
        },
        "required": [UNVALIDATED_RESPONSE, SCHEMA_VIOLATIONS],
        "additionalProperties": false
    })
}

/// The output schema that admits both `declared` and the envelope:
/// `{"type": "object", "anyOf": [declared, envelope]}`, with `declared`'s
/// `$schema` and shared definitions hoisted to the root.
pub fn tolerant_output_schema(declared: &JsonObject) -> JsonObject {
    tolerant(declared.clone())
}

/// [`tolerant_output_schema`] of a schema given by value (nothing copied).
pub fn tolerant(mut declared: JsonObject) -> JsonObject {
    let mut root = JsonObject::new();
    for key in ["$schema", "$defs", "definitions"] {
        if let Some(value) = declared.remove(key) {
            root.insert(key.to_owned(), value);
        }
    }
    root.insert("type".to_owned(), json!("object"));
    root.insert(
        "anyOf".to_owned(),
        json!([Value::Object(declared), envelope_schema()]),
    );
    root
}

/// The documented branch of a tolerant output schema; `None` when `schema`
/// does not declare the envelope.
pub fn documented(schema: &JsonObject) -> Option<&Value> {
    match schema
        .get("anyOf")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
    {
        Some([documented, envelope]) if is_envelope_schema(envelope) => Some(documented),
        _ => None,
    }
}

/// Whether `schema` is the envelope's schema.
pub fn is_envelope_schema(schema: &Value) -> bool {
    // Cheap checks first: most `anyOf`s are not the envelope.
    schema
        .get("required")
        .and_then(Value::as_array)
        .is_some_and(|required| {
            required.len() == 2
                && required[0] == UNVALIDATED_RESPONSE
                && required[1] == SCHEMA_VIOLATIONS
        })
        && *schema == envelope_schema()
}

/// A value sent in the envelope, and how it departs from the schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unvalidated<'a> {
    /// The value as received.
    pub value: &'a Value,
    /// The violations, each `"<JSON pointer>: <message>"`.
    pub violations: Vec<&'a str>,
}

impl<'a> Unvalidated<'a> {
    /// The value and violations `structured` carries when it is the
    /// envelope (an object of exactly its two members); `None` otherwise.
    pub fn of(structured: &'a Value) -> Option<Self> {
        let object = structured.as_object().filter(|object| object.len() == 2)?;
        let value = object.get(UNVALIDATED_RESPONSE)?;
        let violations = object
            .get(SCHEMA_VIOLATIONS)?
            .as_array()?
            .iter()
            .filter_map(Value::as_str)
            .collect();
        Some(Self { value, violations })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tolerant_schema_hoists_definitions_and_is_recognized() {
        let declared = json!({
            "$defs": {"Item": {"type": "string"}},
            "type": "array",
            "items": {"$ref": "#/$defs/Item"}
        });
        let tolerant = tolerant_output_schema(declared.as_object().unwrap());
        assert_eq!(tolerant["$defs"], json!({"Item": {"type": "string"}}));
        assert_eq!(
            documented(&tolerant),
            Some(&json!({"type": "array", "items": {"$ref": "#/$defs/Item"}}))
        );
        let plain = json!({"type": "object", "anyOf": [{"type": "object"}, {"type": "object"}]});
        assert_eq!(documented(plain.as_object().unwrap()), None);
        assert_eq!(documented(declared.as_object().unwrap()), None);
    }

    #[test]
    fn only_the_two_member_envelope_is_unvalidated() {
        assert_eq!(
            Unvalidated::of(&json!({"unvalidatedResponse": null, "schemaViolations": []})),
            Some(Unvalidated {
                value: &Value::Null,
                violations: Vec::new()
            })
        );
        assert_eq!(
            Unvalidated::of(&json!({"unvalidatedResponse": 1, "schemaViolations": [], "x": 2})),
            None
        );
        assert_eq!(
            Unvalidated::of(&json!({"unvalidatedResponse": 1, "other": []})),
            None
        );
        assert_eq!(Unvalidated::of(&json!([1])), None);
    }
}
