//! The part of an output schema that describes what a script gets back.
//!
//! A script sees a tool's structured content unwrapped from `{"result":
//! ...}` when the tool wraps a non-object value (its `_meta` says so under
//! [`WRAPPED_OUTPUT_META_KEY`]), so the declared type is that of `result`.
//! A generated OpenAPI tool declares `{"anyOf": [documented, envelope]}`,
//! the envelope being what it returns when the upstream response does not
//! match the document; the declaration keeps the documented branch (the
//! search tool says once what the envelope holds).

use mcp_core::meta::WRAPPED_OUTPUT_META_KEY;
use mcp_core::{JsonObject, Tool};
use serde_json::Value;

/// The schema, inside the output schema `root` of `tool`, of the value a
/// script gets back.
pub(crate) fn entry<'a>(tool: &Tool, root: &'a Value) -> &'a Value {
    let documented = root.as_object().and_then(documented).unwrap_or(root);
    let wrapped = tool.meta.get(WRAPPED_OUTPUT_META_KEY) == Some(&Value::Bool(true));
    let result = documented
        .get("properties")
        .and_then(|properties| properties.get("result"));
    match result {
        Some(result) if wrapped => result,
        _ => documented,
    }
}

/// Whether `tool`'s output schema declares the envelope of responses that
/// do not match the document.
pub(crate) fn is_tolerant(tool: &Tool) -> bool {
    tool.output_schema
        .as_ref()
        .is_some_and(|schema| documented(schema.root()).is_some())
}

/// The documented branch of a tolerant output schema.
fn documented(root: &JsonObject) -> Option<&Value> {
    let envelope = envelope()?;
    match root
        .get("anyOf")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
    {
        Some([documented, other]) if other == envelope => Some(documented),
        _ => None,
    }
}

/// The envelope branch generated tools declare.
#[cfg(feature = "openapi")]
fn envelope() -> Option<&'static Value> {
    use std::sync::LazyLock;
    static ENVELOPE: LazyLock<Option<Value>> = LazyLock::new(|| {
        let tolerant = mcp_openapi::call::tolerant_output_schema(&JsonObject::new());
        tolerant.get("anyOf")?.get(1).cloned()
    });
    ENVELOPE.as_ref()
}

/// Without OpenAPI generation no tool declares the envelope.
#[cfg(not(feature = "openapi"))]
fn envelope() -> Option<&'static Value> {
    None
}

#[cfg(all(test, feature = "openapi"))]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(wrapped: bool, output: Value) -> Tool {
        let mut builder =
            mcp_core::tool("t").output_schema(output.as_object().cloned().unwrap_or_default());
        if wrapped {
            builder = builder.meta(WRAPPED_OUTPUT_META_KEY, Value::Bool(true));
        }
        builder.build().unwrap()
    }

    #[test]
    fn the_envelope_and_the_result_wrapper_are_taken_off() {
        let documented = json!({"type": "object", "properties": {"result": {"type": "array"}}, "required": ["result"]});
        let tolerant = Value::Object(mcp_openapi::call::tolerant_output_schema(
            documented.as_object().unwrap(),
        ));
        assert!(is_tolerant(&tool(false, tolerant.clone())));
        assert_eq!(
            entry(&tool(true, tolerant.clone()), &tolerant),
            &json!({"type": "array"})
        );
        assert_eq!(
            entry(&tool(false, tolerant.clone()), &tolerant),
            &documented
        );
        assert_eq!(
            entry(&tool(true, documented.clone()), &documented),
            &json!({"type": "array"})
        );
        let plain = json!({"type": "object", "anyOf": [{"type": "object"}, {"type": "object"}]});
        assert!(!is_tolerant(&tool(false, plain.clone())));
        assert!(!is_tolerant(&mcp_core::tool("t").build().unwrap()));
        assert_eq!(entry(&tool(false, plain.clone()), &plain), &plain);
    }
}
