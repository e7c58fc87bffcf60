//! The part of an output schema that describes what a script gets back.
//!
//! A script sees a tool's structured content unwrapped from `{"result":
//! ...}` when the tool wraps a non-object value (its `_meta` says so under
//! [`WRAPPED_OUTPUT_META_KEY`]), so the declared type is that of `result`.
//! A generated OpenAPI tool declares `{"anyOf": [documented, envelope]}`,
//! the [`unvalidated`] envelope being what it sends when the upstream
//! response does not match the document; a script gets the response itself
//! either way, so the declaration keeps the documented branch.

use mcp_core::Tool;
use mcp_core::meta::WRAPPED_OUTPUT_META_KEY;
use mcp_core::tool::unvalidated;
use serde_json::Value;

/// The schema, inside the output schema `root` of `tool`, of the value a
/// script gets back.
pub(crate) fn entry<'a>(tool: &Tool, root: &'a Value) -> &'a Value {
    let documented = root
        .as_object()
        .and_then(unvalidated::documented)
        .unwrap_or(root);
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
        .is_some_and(|schema| unvalidated::documented(schema.root()).is_some())
}

#[cfg(test)]
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
        let tolerant = Value::Object(unvalidated::tolerant_output_schema(
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
