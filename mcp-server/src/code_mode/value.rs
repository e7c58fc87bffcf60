//! What a tool call resolves to inside a script.

use mcp_core::meta::WRAPPED_OUTPUT_META_KEY;
use mcp_core::tool::unvalidated::Unvalidated;
use mcp_core::{CallToolResult, Tool};
use serde_json::Value;

use super::typescript::declares_envelope;

/// The value a script's call resolves to.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct ScriptValue {
    /// The value as JSON text.
    pub(crate) json: String,
    /// How the value departs from the tool's documented output schema,
    /// when it was passed on regardless (for the run's logs).
    pub(crate) mismatch: Option<String>,
}

/// The value a script's call of `tool` resolves to, or the message of the
/// `Error` it throws:
///
/// - an `isError` result throws its text;
/// - structured content is the value, unwrapped from `{"result": ...}`
///   when the tool wraps a non-object value, and from the
///   [`unvalidated`](mcp_core::tool::unvalidated) envelope when the tool passed on a value that does not
///   match its documented schema (the value as the API sent it, with the
///   mismatch said in [`ScriptValue::mismatch`]);
/// - otherwise the text, parsed when it is JSON (non-text content comes
///   back as the content list).
pub(crate) fn script_value(tool: &Tool, result: &CallToolResult) -> Result<ScriptValue, String> {
    if result.is_error() {
        let text = result.text_content();
        return Err(if text.trim().is_empty() {
            format!("tool `{}` failed without a message", tool.name)
        } else {
            text
        });
    }
    let plain = |json: String| ScriptValue {
        json,
        mismatch: None,
    };
    if let Some(structured) = &result.structured_content {
        let wrapped = tool.meta.get(WRAPPED_OUTPUT_META_KEY) == Some(&Value::Bool(true));
        if let Some(passed_on) = declares_envelope(tool)
            .then(|| Unvalidated::of(structured))
            .flatten()
        {
            return Ok(ScriptValue {
                json: passed_on.value.to_string(),
                mismatch: Some(mismatch(&passed_on.violations, wrapped)),
            });
        }
        let value = match structured {
            Value::Object(object) if wrapped && object.len() == 1 => {
                object.get("result").unwrap_or(structured)
            }
            other => other,
        };
        return Ok(plain(value.to_string()));
    }
    let text = result.text_content();
    let has_text = result
        .content
        .iter()
        .any(|content| content.as_text().is_some());
    if !has_text && !result.content.is_empty() {
        return serde_json::to_string(&result.content)
            .map(plain)
            .map_err(|error| error.to_string());
    }
    Ok(plain(
        match serde_json::from_str::<serde::de::IgnoredAny>(&text) {
            Ok(_) => text,
            Err(_) => Value::String(text).to_string(),
        },
    ))
}

/// The mismatch of a value passed on regardless, in one line: the first
/// violation (its pointer into the value the script gets) and how many
/// more there are.
fn mismatch(violations: &[&str], wrapped: bool) -> String {
    let Some(first) = violations.first() else {
        return "the response does not match its schema".to_owned();
    };
    let more = match violations.len() - 1 {
        0 => String::new(),
        1 => " (and 1 more)".to_owned(),
        n => format!(" (and {n} more)"),
    };
    let (pointer, message) = first.split_once(": ").unwrap_or(("", first));
    // A wrapping tool's schema describes `{"result": value}`.
    let pointer = match pointer.strip_prefix("/result").filter(|_| wrapped) {
        Some("") => "(root)",
        Some(rest) if rest.starts_with('/') => rest,
        _ => pointer,
    };
    match pointer {
        "(root)" => format!("the response does not match its schema: {message}{more}"),
        _ if pointer.starts_with('/') => {
            format!("the response does not match its schema at {pointer}: {message}{more}")
        }
        // A reason without a place (a body that is not JSON, or none).
        _ => format!("{first}{more}"),
    }
}

#[cfg(test)]
mod tests {
    use mcp_core::content::Content;
    use mcp_core::tool::unvalidated;
    use serde_json::json;

    use super::*;

    fn tool(wrapped: bool) -> Tool {
        let mut builder = mcp_core::tool("t");
        if wrapped {
            builder = builder.meta(WRAPPED_OUTPUT_META_KEY, Value::Bool(true));
        }
        builder.build().unwrap()
    }

    fn json(result: Result<ScriptValue, String>) -> String {
        result.unwrap().json
    }

    #[test]
    fn results_become_values_and_errors_messages() {
        let structured = CallToolResult::structured(json!({"result": [1, 2]}));
        assert_eq!(json(script_value(&tool(true), &structured)), "[1,2]");
        assert_eq!(
            json(script_value(&tool(false), &structured)),
            r#"{"result":[1,2]}"#
        );
        assert_eq!(
            json(script_value(
                &tool(false),
                &CallToolResult::text(r#"{"a":1}"#)
            )),
            r#"{"a":1}"#
        );
        assert_eq!(
            json(script_value(&tool(false), &CallToolResult::text("plain"))),
            r#""plain""#
        );
        assert_eq!(
            script_value(&tool(false), &CallToolResult::error("Not Found")).unwrap_err(),
            "Not Found"
        );
        let image = CallToolResult::success(vec![Content::image("aGk=", "image/png")]);
        assert!(json(script_value(&tool(false), &image)).starts_with('['));
    }

    fn tolerant_tool(wrapped: bool) -> Tool {
        let documented = json!({
            "type": "object",
            "properties": {"result": {"type": "array", "items": {"type": "object"}}},
            "required": ["result"]
        });
        let mut builder = mcp_core::tool("pulls_list").output_schema(
            unvalidated::tolerant_output_schema(documented.as_object().unwrap()),
        );
        if wrapped {
            builder = builder.meta(WRAPPED_OUTPUT_META_KEY, Value::Bool(true));
        }
        builder.build().unwrap()
    }

    fn passed_on(violations: Value) -> CallToolResult {
        let mut result = CallToolResult::text("[...]");
        result.structured_content = Some(json!({
            "unvalidatedResponse": [{"head": {"repo": null}}],
            "schemaViolations": violations,
        }));
        result
    }

    #[test]
    fn a_value_passed_on_regardless_is_the_value_and_its_mismatch() {
        let value = script_value(
            &tolerant_tool(true),
            &passed_on(json!([
                "/result/0/head/repo: null is not of type \"object\"",
                "/result/0/title: \"title\" is a required property"
            ])),
        )
        .unwrap();
        assert_eq!(value.json, r#"[{"head":{"repo":null}}]"#);
        assert_eq!(
            value.mismatch.as_deref(),
            Some(
                "the response does not match its schema at /0/head/repo: null is not of type \"object\" (and 1 more)"
            )
        );
        let root = script_value(
            &tolerant_tool(false),
            &passed_on(json!(["(root): {} is not of type \"array\""])),
        )
        .unwrap();
        assert_eq!(
            root.mismatch.as_deref(),
            Some("the response does not match its schema: {} is not of type \"array\"")
        );
        let not_json = script_value(
            &tolerant_tool(false),
            &passed_on(json!([
                "the response is `text/html`, not the documented JSON"
            ])),
        )
        .unwrap();
        assert_eq!(
            not_json.mismatch.as_deref(),
            Some("the response is `text/html`, not the documented JSON")
        );
        // A tool that never declared the envelope gets what it sent.
        let untouched = script_value(&tool(false), &passed_on(json!([]))).unwrap();
        assert!(
            untouched.json.starts_with(r#"{"schemaViolations""#)
                || untouched.json.starts_with(r#"{"unvalidatedResponse""#)
        );
        assert_eq!(untouched.mismatch, None);
    }
}
