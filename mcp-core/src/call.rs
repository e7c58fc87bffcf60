//! One tool call: the request as the client sent it
//! ([`CallToolRequest`]), what a handler and middleware see while serving
//! it ([`ToolCallContext`]), and the result ([`CallToolResult`]).
//!
//! ```
//! use std::sync::Arc;
//!
//! use mcp_core::call::{CallToolRequest, CallToolResult, ToolCallContext};
//! use mcp_core::{tool, ToolDef};
//!
//! let whoami: ToolDef = tool("whoami")
//!     .run(|_: mcp_core::JsonObject, cx: ToolCallContext| async move {
//!         CallToolResult::text(format!("called as {}", cx.request().name))
//!     })?;
//! let cx = whoami.context(CallToolRequest::new("whoami", None), Arc::new(()));
//! let result = futures_executor::block_on(whoami.call(cx));
//! assert_eq!(result.text_content(), "called as whoami");
//! # Ok::<(), mcp_core::ToolError>(())
//! ```

pub(crate) mod context;
pub(crate) mod protocol_error;
pub(crate) mod request;
pub(crate) mod result;

pub use context::ToolCallContext;
pub use protocol_error::ProtocolError;
pub use request::CallToolRequest;
pub use result::{CallToolResult, IntoCallToolResult};
