//! The result of a tool call, and what a handler may return.

use std::any::Any;
use std::fmt::Display;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::protocol_error::ProtocolError;
use crate::content::block::Content;
use crate::meta::Meta;

/// The result of a tool call (`CallToolResult` of the MCP specification).
///
/// A failing tool is a result with `isError: true`, not a protocol error, so
/// the model sees what went wrong and can correct itself; a handler whose
/// server broke down returns a [`ProtocolError`] instead (see there for when
/// to use which), which this result then carries in place of content.
///
/// ```
/// use mcp_core::CallToolResult;
/// use serde_json::json;
///
/// let ok = CallToolResult::structured(json!({"sum": 3}));
/// assert_eq!(
///     serde_json::to_value(&ok).unwrap(),
///     json!({"content": [{"type": "text", "text": "{\"sum\":3}"}], "structuredContent": {"sum": 3}})
/// );
/// let failed = CallToolResult::error("user 7 does not exist");
/// assert_eq!(failed.is_error, Some(true));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CallToolResult {
    /// The unstructured result.
    #[serde(default)]
    pub content: Vec<Content>,
    /// The structured result, matching the tool's output schema.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<Value>,
    /// Whether the call failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_error: Option<bool>,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Meta::is_empty")]
    pub meta: Meta,
    /// Set when the handler raised a JSON-RPC error: the server answers that
    /// error instead of this result. Never on the wire as part of a result.
    #[serde(skip)]
    protocol_error: Option<Box<ProtocolError>>,
}

impl CallToolResult {
    /// The result of a handler that raised `error`: the call is answered
    /// with that JSON-RPC error (a task ends `failed` with it).
    pub fn from_protocol_error(error: ProtocolError) -> Self {
        Self {
            content: vec![Content::text(error.message.clone())],
            is_error: Some(true),
            protocol_error: Some(Box::new(error)),
            ..Self::default()
        }
    }

    /// The JSON-RPC error the handler raised, if it raised one.
    pub fn protocol_error(&self) -> Option<&ProtocolError> {
        self.protocol_error.as_deref()
    }

    /// A successful result with the given content blocks.
    pub fn success(content: Vec<Content>) -> Self {
        Self {
            content,
            ..Self::default()
        }
    }

    /// A successful result with one text block.
    pub fn text(text: impl Into<String>) -> Self {
        Self::success(vec![Content::text(text)])
    }

    /// A successful structured result: `structuredContent` plus a text block
    /// holding the same JSON, for clients that only read `content`.
    pub fn structured(value: Value) -> Self {
        Self {
            content: vec![Content::text(value.to_string())],
            structured_content: Some(value),
            ..Self::default()
        }
    }

    /// A failed result with one text block explaining why.
    pub fn error(message: impl Into<String>) -> Self {
        Self {
            content: vec![Content::text(message)],
            is_error: Some(true),
            ..Self::default()
        }
    }

    /// Whether the result reports a failure.
    pub fn is_error(&self) -> bool {
        self.is_error == Some(true)
    }

    /// The text of the text blocks, joined with newlines.
    pub fn text_content(&self) -> String {
        self.content
            .iter()
            .filter_map(Content::as_text)
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// What a handler without a declared output type may return.
///
/// `String` and `&str` become one text block, [`Content`] and `Vec<Content>`
/// the blocks as they are, [`CallToolResult`] itself passes through, `()` an
/// empty success, and `Result<T, E>` is `T`'s result or, for `Err`, a result
/// with `isError: true` and the error's message (a [`ProtocolError`] makes
/// the call a JSON-RPC error instead).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a tool handler without a declared output",
    note = "return `String`, `Content`, `CallToolResult` or `Result` of those, or declare a structured output with `.output::<T>()` (T: Serialize + JsonSchema)"
)]
pub trait IntoCallToolResult {
    /// Converts the value into a tool result.
    fn into_call_tool_result(self) -> CallToolResult;
}

impl IntoCallToolResult for CallToolResult {
    fn into_call_tool_result(self) -> CallToolResult {
        self
    }
}

impl IntoCallToolResult for String {
    fn into_call_tool_result(self) -> CallToolResult {
        CallToolResult::text(self)
    }
}

impl IntoCallToolResult for &str {
    fn into_call_tool_result(self) -> CallToolResult {
        CallToolResult::text(self)
    }
}

impl IntoCallToolResult for Content {
    fn into_call_tool_result(self) -> CallToolResult {
        CallToolResult::success(vec![self])
    }
}

impl IntoCallToolResult for Vec<Content> {
    fn into_call_tool_result(self) -> CallToolResult {
        CallToolResult::success(self)
    }
}

impl IntoCallToolResult for () {
    fn into_call_tool_result(self) -> CallToolResult {
        CallToolResult::success(Vec::new())
    }
}

impl<T: IntoCallToolResult, E: Display + 'static> IntoCallToolResult for Result<T, E> {
    fn into_call_tool_result(self) -> CallToolResult {
        match self {
            Ok(value) => value.into_call_tool_result(),
            Err(error) => error_result(error),
        }
    }
}

/// The result of a handler's `Err`: a [`ProtocolError`] as itself, anything
/// else as `isError: true` with its message.
pub(crate) fn error_result<E: Display + 'static>(error: E) -> CallToolResult {
    match (&error as &dyn Any).downcast_ref::<ProtocolError>() {
        Some(raised) => CallToolResult::from_protocol_error(raised.clone()),
        None => CallToolResult::error(error.to_string()),
    }
}
