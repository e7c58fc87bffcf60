//! Model Context Protocol tools as Rust values.
//!
//! `mcp-core` holds the protocol values of a tool ([`Tool`],
//! [`ToolAnnotations`] with its lawful [`combine`](ToolAnnotations::combine),
//! [`Hint`], [`Icon`], [`ToolExecution`], [`Meta`], [`Metadata`]), the fluent
//! [`tool`](fn@tool) builder that gives a [`ToolDef`] (the value plus its handler), the
//! [`ToolCallContext`] a handler sees, and [`middleware`](tool::middleware).
//!
//! The `#[tool]` macro (crate `mcp-toolkit-macros`) and OpenAPI generation (crate
//! `mcp-openapi`) both build their tools with this builder, so a tool is the
//! same value however it was made; `mcp-server` hosts any mix of them.
//!
//! ```
//! use mcp_core::{tool, Hint, ToolDef};
//! use schemars::JsonSchema;
//! use serde::Deserialize;
//!
//! #[derive(Deserialize, JsonSchema)]
//! struct Add {
//!     a: i64,
//!     b: i64,
//! }
//!
//! let add: ToolDef = tool("add")
//!     .description("Adds two numbers.")
//!     .annotations([Hint::Read, Hint::Idempotent, Hint::ClosedWorld])
//!     .input::<Add>()
//!     .output::<i64>()
//!     .run(|args: Add| async move { args.a + args.b })?;
//!
//! let result = futures_executor::block_on(add.call_detached(serde_json::json!({"a": 1, "b": 2})));
//! assert_eq!(result.structured_content, Some(serde_json::json!({"result": 3})));
//!
//! let bad = futures_executor::block_on(add.call_detached(serde_json::json!({"a": 1, "b": "two"})));
//! assert!(bad.is_error());
//! assert_eq!(
//!     bad.text_content(),
//!     "invalid arguments for tool `add`:\n/b: \"two\" is not of type \"integer\""
//! );
//! # Ok::<(), mcp_core::ToolError>(())
//! ```
//!
//! # Hints, handlers and the call context
//!
//! - **Hints combine.** [`annotations`](ToolBuilder::annotations) takes one
//!   [`Hint`], an array of them (`[Hint; N]` is a [`ToolAnnotations`]
//!   through `From<[Hint; N]>`), a `Vec`/iterator collected into
//!   [`ToolAnnotations`], or a whole [`ToolAnnotations`]; repeated calls
//!   [`combine`](ToolAnnotations::combine), and so does `+`.
//! - **A handler** is `async fn()`, `async fn(In)` or
//!   `async fn(In, ToolCallContext<C>)`; `ToolCallContext` without a type
//!   parameter is `ToolCallContext<()>`, the context of a server without a
//!   per-session value (`#[tool]` functions take `&ToolCallContext` too).
//! - **Progress**: [`ToolCallContext::progress`]`(progress: f64, total:
//!   Option<f64>, message: Option<String>)` sends `notifications/progress`
//!   when the client asked for it and does nothing otherwise.
//! - **Arguments** are checked against the input schema before the handler
//!   runs, the same way for every kind of tool: see [`arguments`].
//!
//! ```
//! use mcp_core::{tool, Hint, ToolAnnotations, ToolCallContext, ToolDef};
//!
//! let read_only: ToolAnnotations = [Hint::Read, Hint::Idempotent].into();
//! let slow: ToolDef = tool("slow_count")
//!     .annotations(read_only)
//!     .annotations(Hint::ClosedWorld)
//!     .run(|_: mcp_core::JsonObject, cx: ToolCallContext| async move {
//!         for step in 1..=3 {
//!             // A no-op unless the client sent a progress token.
//!             let _ = cx.progress(step as f64, Some(3.0), Some(format!("step {step}"))).await;
//!         }
//!         "counted to 3"
//!     })?;
//! let hints = slow.tool().annotations.clone().unwrap_or_default();
//! assert_eq!(hints.read_only_hint, Some(true));
//! assert_eq!(hints.open_world_hint, Some(false));
//! let result = futures_executor::block_on(slow.call_detached(serde_json::json!({})));
//! assert_eq!(result.text_content(), "counted to 3");
//! # Ok::<(), mcp_core::ToolError>(())
//! ```
//!
//! # Modules
//!
//! The root holds what a first program needs, re-exported from the modules,
//! and [`RequestScope`]: the session, the caller and the `_meta` that every
//! request a handler serves carries (a tool call, a prompt request, a
//! resource read). The primitives and the values around them have their own
//! modules:
//!
//! - [`tool`](mod@tool): tools, their builder and handler, one call (its
//!   request, context and result) and the middleware that wraps calls;
//! - [`content`]: the content blocks results and messages carry;
//! - [`prompt`](mod@prompt): prompts, their builder and handler;
//! - [`resource`](mod@resource): resources and resource templates, their builders and
//!   handler;
//! - [`completion`]: argument completion for prompts and templates;
//! - [`client`]: what a server asks of or tells the client during a
//!   request (sampling, elicitation, roots, logs, progress);
//! - [`arguments`]: the check every tool runs on a call's arguments and
//!   the one error format it reports;
//! - [`meta`]: the `_meta` object and its key rule, and the [`Metadata`]
//!   bundle builders share; [`icon`]: icons; [`name`]: the tool-name rule;
//! - [`schema`]: the JSON Schemas of arguments and outputs, and the
//!   [`Validator`](schema::Validator) that checks a value against one;
//! - [`transform`]: new tools derived from existing ones (renamed, with
//!   arguments renamed, hidden or restricted, calls wrapped, results
//!   trimmed), from Rust or from a file.
//!
//! The values serialize to the MCP wire JSON with serde; `mcp-core` knows no
//! transport and no protocol library (`mcp-server` adapts them to rmcp).

#![cfg_attr(docsrs, feature(doc_cfg))]

mod annotations;
mod base64;
mod error;
mod future;
mod json;
mod role;
mod scope;

pub mod arguments;
pub mod auth;
pub mod client;
pub mod completion;
pub mod content;
pub mod icon;
pub mod meta;
pub mod name;
pub mod prompt;
pub mod resource;
pub mod schema;
pub mod tool;
pub mod transform;

#[doc(hidden)]
pub mod __private;

#[cfg(feature = "macros")]
#[cfg_attr(docsrs, doc(cfg(feature = "macros")))]
pub use mcp_macros::{prompt, resource, tool, toolbox};

pub use error::{SchemaError, ToolError};
pub use future::BoxFuture;
pub use icon::Icon;
pub use json::JsonObject;
pub use meta::Meta;
pub use meta::Metadata;
pub use scope::RequestScope;
pub use tool::{
    CallToolResult, ContextFreeToolDef, Hint, ProtocolError, SharedDef, TaskSupport, Tool,
    ToolAnnotations, ToolBuilder, ToolCallContext, ToolDef, ToolExecution, ToolSchema, tool,
};

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
mod readme {}
