//! Tools: the protocol value ([`Tool`] with its annotations, execution
//! support and name rule), the fluent [`tool`](fn@tool) builder, the handler a tool
//! runs and the traits its arguments and return value meet ([`ToolInput`],
//! [`ToolOutput`]), the [`ToolDef`] a server hosts, one call of it (the
//! request as the client sent it, [`CallToolRequest`]; what a handler and
//! middleware see while serving it, [`ToolCallContext`]; the result,
//! [`CallToolResult`]) and the [`middleware`] that wraps calls; the
//! [`unvalidated`] envelope of results that do not match their documented
//! output schema. The crate root re-exports what a first program needs.
//!
//! Most programs never name the handler traits:
//! [`ToolBuilder::run`] takes any `async` function whose arguments are a
//! [`ToolInput`] (optionally followed by a [`ToolCallContext`]) and whose
//! output is a [`ToolOutput`].
//!
//! ```
//! use std::sync::Arc;
//!
//! use mcp_core::tool::{CallToolRequest, CallToolResult, ToolCallContext, ToolInput, ToolOutput};
//! use mcp_core::{tool, ToolDef};
//!
//! fn takes<I: ToolInput>() {}
//! fn gives<O: ToolOutput>() {}
//! takes::<serde_json::Map<String, serde_json::Value>>();
//! gives::<String>();
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

pub(crate) mod annotations;
pub(crate) mod builder;
pub(crate) mod context;
pub(crate) mod context_free;
pub(crate) mod def;
pub(crate) mod execution;
pub(crate) mod handler;
pub(crate) mod input;
pub(crate) mod lazy_check;
pub mod middleware;
pub(crate) mod output;
pub(crate) mod protocol_error;
pub(crate) mod request;
pub(crate) mod result;
pub(crate) mod schema;
pub mod unvalidated;
pub(crate) mod value;

pub use annotations::{Hint, ToolAnnotations};
pub use builder::{ToolBuilder, tool};
pub use context::ToolCallContext;
pub use context_free::ContextFreeToolDef;
pub use def::ToolDef;
pub use execution::{TaskSupport, ToolExecution};
pub use handler::{ToolFn, ToolHandler};
pub use input::ToolInput;
pub use lazy_check::{KEPT_CHECKS_SCHEMA_BYTES, LazyArgumentCheck};
pub use output::{IntoToolResult, ToolOutput, Unstructured};
pub use protocol_error::ProtocolError;
pub use request::CallToolRequest;
pub use result::{CallToolResult, IntoCallToolResult};
pub use schema::{SharedDef, ToolSchema};
pub use value::Tool;
