//! A tool call that fails as a JSON-RPC error rather than as a result.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A JSON-RPC error a handler raises instead of returning a result.
///
/// Two ways for a tool call to fail, for two kinds of failure:
///
/// - **A result with `isError: true`** ([`CallToolResult::error`], or any
///   other `Err` a handler returns) when the failure is about the call and
///   the model can act on it: bad arguments, a missing record, an upstream
///   API's 4xx. The model reads the message and may retry differently. A
///   task with such a result ends `completed`.
/// - **A `ProtocolError`** (return `Err(ProtocolError::..)`) when the server
///   itself cannot serve the request and nothing the model sends would
///   help: a broken dependency, a misconfiguration, an invariant that does
///   not hold. The client gets a JSON-RPC error instead of a result, and a
///   task ends `failed` with this error inlined.
///
/// [`CallToolResult::error`]: crate::CallToolResult::error
///
/// ```
/// use mcp_core::{ProtocolError, ToolDef, tool};
/// use mcp_core::tool::CallToolRequest;
///
/// let broken: ToolDef = tool("broken").run(|| async {
///     Err::<String, _>(ProtocolError::internal("the cache is unreachable"))
/// })?;
/// let cx = broken.context(CallToolRequest::new("broken", None), std::sync::Arc::new(()));
/// let result = futures_executor::block_on(broken.call(cx));
/// let error = result.protocol_error().expect("a protocol error");
/// assert_eq!(error.code, ProtocolError::INTERNAL_ERROR);
/// assert_eq!(error.message, "the cache is unreachable");
/// # Ok::<(), mcp_core::ToolError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[error("JSON-RPC error {code}: {message}")]
#[non_exhaustive]
pub struct ProtocolError {
    /// The JSON-RPC error code.
    pub code: i32,
    /// What went wrong, for people.
    pub message: String,
    /// Details for programs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

impl ProtocolError {
    /// JSON-RPC "Internal error".
    pub const INTERNAL_ERROR: i32 = -32603;
    /// JSON-RPC "Invalid params".
    pub const INVALID_PARAMS: i32 = -32602;

    /// An error with `code` and `message`.
    pub fn new(code: i32, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            data: None,
        }
    }

    /// An internal error (-32603): the server broke down.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(Self::INTERNAL_ERROR, message)
    }

    /// Invalid params (-32602): the request cannot be served as sent.
    pub fn invalid_params(message: impl Into<String>) -> Self {
        Self::new(Self::INVALID_PARAMS, message)
    }

    /// The error with `data` attached.
    #[must_use]
    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }
}
