//! Model Context Protocol tools as Rust values.
//!
//! `mcp-core` holds the protocol values of a tool ([`Tool`],
//! [`ToolAnnotations`] with its lawful [`combine`](ToolAnnotations::combine),
//! [`Hint`], [`Icon`], [`ToolExecution`], [`Meta`], [`Metadata`]), the fluent
//! [`tool`](fn@tool) builder that gives a [`ToolDef`] (the value plus its handler), the
//! [`ToolCallContext`] a handler sees, and [`middleware`].
//!
//! The `#[tool]` macro (crate `mcp-macros`) and OpenAPI generation (crate
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
//! let result = futures_executor::block_on(add.invoke(serde_json::json!({"a": 1, "b": 2})));
//! assert_eq!(result.structured_content, Some(serde_json::json!({"result": 3})));
//!
//! let bad = futures_executor::block_on(add.invoke(serde_json::json!({"a": 1, "b": "two"})));
//! assert!(bad.is_error());
//! assert!(bad.text_content().contains("`b`"));
//! # Ok::<(), mcp_core::ToolError>(())
//! ```
//!
//! With the `rmcp` feature, [`Tool`] converts to and from `rmcp::model::Tool`.

mod annotations;
mod builder;
mod content;
mod context;
mod error;
mod execution;
mod handler;
mod icon;
mod meta;
mod metadata;
pub mod middleware;
mod name;
mod result;
pub mod schema;
mod tool;
mod tool_def;
// issue 7: resources, prompts, completion, logging, sampling, elicitation
mod completion;
mod elicitation;
mod logging;
mod prompt;
mod prompt_builder;
mod prompt_def;
mod resource;
mod resource_builder;
mod resource_def;
mod sampling;
mod uri_template;

#[cfg(feature = "rmcp")]
mod rmcp_conversions;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

#[cfg(feature = "macros")]
pub use mcp_macros::{prompt, resource, tool, toolbox};

pub use annotations::{Hint, ToolAnnotations};
pub use builder::{ToolBuilder, WRAPPED_OUTPUT_META_KEY, tool};
pub use content::{
    Annotations, Content, EmbeddedResource, MediaContent, ResourceContents, Role, TextContent,
};
pub use context::{
    BoxFuture, CallChannel, CallToolRequest, ChannelError, Progress, ToolCallContext,
};
pub use error::{SchemaError, ToolError};
pub use execution::{TaskSupport, ToolExecution};
pub use handler::{Handler, IntoToolResult, ToolHandler, ToolInput, ToolOutput, Unstructured};
pub use icon::{Icon, IconTheme};
pub use meta::{Meta, MetaKeyProblem, MetaKeyProblemKind, meta_key_problem, validate_meta_key};
pub use metadata::Metadata;
pub use middleware::ToolMiddleware;
pub use name::{MAX_TOOL_NAME_LEN, is_valid_tool_name, validate_tool_name};
pub use result::{CallToolResult, IntoCallToolResult};
pub use tool::Tool;
pub use tool_def::ToolDef;
// issue 7: resources, prompts, completion, logging, sampling, elicitation
pub use completion::{
    CompleteRequest, CompleteResult, Completer, Completion, CompletionArgument,
    CompletionReference, MAX_COMPLETION_VALUES,
};
pub use elicitation::{ElicitAction, ElicitRequest, ElicitResult};
pub use logging::{InvalidLoggingLevel, LogMessage, LoggingLevel};
pub use prompt::{GetPromptResult, Prompt, PromptArgument, PromptMessage};
pub use prompt_builder::{PromptBuilder, prompt};
pub use prompt_def::{
    IntoGetPromptResult, PromptDef, PromptError, PromptFn, PromptHandler, PromptRequest,
};
pub use resource::{ReadResourceResult, Resource, ResourceTemplate};
pub use resource_builder::{ResourceBuilder, resource, resource_template};
pub use resource_def::{
    IntoReadResourceResult, ResourceDef, ResourceError, ResourceFn, ResourceHandler, ResourceKind,
    ResourceRequest,
};
pub use sampling::{CreateMessageRequest, CreateMessageResult, Root, SamplingMessage};
pub use uri_template::{UriTemplate, UriTemplateError};

/// A JSON object: the type of schemas, arguments and `_meta`.
pub type JsonObject = serde_json::Map<String, serde_json::Value>;
