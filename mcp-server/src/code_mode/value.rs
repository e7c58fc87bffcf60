//! What a tool call resolves to inside a script.

use mcp_core::meta::WRAPPED_OUTPUT_META_KEY;
use mcp_core::{CallToolResult, Tool};
use serde_json::Value;

/// The value a script's call of `tool` resolves to, as JSON text, or the
/// message of the `Error` it throws:
///
/// - an `isError` result throws its text;
/// - structured content is the value, unwrapped from `{"result": ...}`
///   when the tool wraps a non-object value;
/// - otherwise the text, parsed when it is JSON (non-text content comes
///   back as the content list).
pub(crate) fn script_value(tool: &Tool, result: &CallToolResult) -> Result<String, String> {
    if result.is_error() {
        let text = result.text_content();
        return Err(if text.trim().is_empty() {
            format!("tool `{}` failed without a message", tool.name)
        } else {
            text
        });
    }
    if let Some(structured) = &result.structured_content {
        let wrapped = tool.meta.get(WRAPPED_OUTPUT_META_KEY) == Some(&Value::Bool(true));
        let value = match structured {
            Value::Object(object) if wrapped && object.len() == 1 => {
                object.get("result").unwrap_or(structured)
            }
            other => other,
        };
        return Ok(value.to_string());
    }
    let text = result.text_content();
    let has_text = result
        .content
        .iter()
        .any(|content| content.as_text().is_some());
    if !has_text && !result.content.is_empty() {
        return serde_json::to_string(&result.content).map_err(|error| error.to_string());
    }
    match serde_json::from_str::<serde::de::IgnoredAny>(&text) {
        Ok(_) => Ok(text),
        Err(_) => Ok(Value::String(text).to_string()),
    }
}

#[cfg(test)]
mod tests {
    use mcp_core::content::Content;
    use serde_json::json;

    use super::*;

    fn tool(wrapped: bool) -> Tool {
        let mut builder = mcp_core::tool("t");
        if wrapped {
            builder = builder.meta(WRAPPED_OUTPUT_META_KEY, Value::Bool(true));
        }
        builder.build().unwrap()
    }

    #[test]
    fn results_become_values_and_errors_messages() {
        let structured = CallToolResult::structured(json!({"result": [1, 2]}));
        assert_eq!(script_value(&tool(true), &structured).unwrap(), "[1,2]");
        assert_eq!(
            script_value(&tool(false), &structured).unwrap(),
            r#"{"result":[1,2]}"#
        );
        assert_eq!(
            script_value(&tool(false), &CallToolResult::text(r#"{"a":1}"#)).unwrap(),
            r#"{"a":1}"#
        );
        assert_eq!(
            script_value(&tool(false), &CallToolResult::text("plain")).unwrap(),
            r#""plain""#
        );
        assert_eq!(
            script_value(&tool(false), &CallToolResult::error("Not Found")).unwrap_err(),
            "Not Found"
        );
        let image = CallToolResult::success(vec![Content::image("aGk=", "image/png")]);
        assert!(script_value(&tool(false), &image).unwrap().starts_with('['));
    }
}
