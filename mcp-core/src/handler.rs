//! How a function becomes a tool's handler: the traits its arguments and
//! return value meet, and the handler types behind a [`ToolDef`](crate::ToolDef).
//!
//! Most programs never name these: [`ToolBuilder::run`](crate::ToolBuilder::run)
//! takes any `async` function whose arguments are a [`ToolInput`] (optionally
//! followed by a [`ToolCallContext`](crate::ToolCallContext)) and whose output
//! is a [`ToolOutput`].
//!
//! ```
//! use mcp_core::handler::{ToolInput, ToolOutput};
//!
//! fn takes<I: ToolInput>() {}
//! fn gives<O: ToolOutput>() {}
//! takes::<serde_json::Map<String, serde_json::Value>>();
//! gives::<String>();
//! ```

pub use crate::future::BoxFuture;
pub use crate::tool::{IntoToolResult, ToolFn, ToolHandler, ToolInput, ToolOutput, Unstructured};
