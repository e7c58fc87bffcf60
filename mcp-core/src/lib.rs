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

mod call {
    pub(crate) mod context;
    pub(crate) mod result;
}
mod client {
    pub(crate) mod elicitation;
    pub(crate) mod logging;
    pub(crate) mod sampling;
}
mod completion;
mod content {
    pub(crate) mod block;
}
mod error;
mod icon;
mod meta;
mod metadata;
pub mod middleware;
mod prompt {
    pub(crate) mod builder;
    pub(crate) mod def;
    pub(crate) mod value;
}
mod resource {
    pub(crate) mod builder;
    pub(crate) mod def;
    pub(crate) mod uri_template;
    pub(crate) mod value;
}
pub mod schema;
mod tool {
    pub(crate) mod annotations;
    pub(crate) mod builder;
    pub(crate) mod def;
    pub(crate) mod execution;
    pub(crate) mod handler;
    pub(crate) mod name;
    pub(crate) mod value;
}

#[cfg(feature = "rmcp")]
mod rmcp_conversions;

#[doc(hidden)]
pub mod __private;

#[cfg(feature = "macros")]
pub use mcp_macros::{prompt, resource, tool, toolbox};

pub use call::context::{
    BoxFuture, CallChannel, CallToolRequest, ChannelError, Progress, ToolCallContext,
};
pub use call::result::{CallToolResult, IntoCallToolResult};
pub use client::elicitation::{ElicitAction, ElicitRequest, ElicitResult};
pub use client::logging::{InvalidLoggingLevel, LogMessage, LoggingLevel};
pub use client::sampling::{CreateMessageRequest, CreateMessageResult, Root, SamplingMessage};
pub use completion::{
    CompleteRequest, CompleteResult, Completer, Completion, CompletionArgument,
    CompletionReference, MAX_COMPLETION_VALUES,
};
pub use content::block::{
    Annotations, Content, EmbeddedResource, MediaContent, ResourceContents, Role, TextContent,
};
pub use error::{SchemaError, ToolError};
pub use icon::{Icon, IconTheme};
pub use meta::{Meta, MetaKeyProblem, MetaKeyProblemKind, meta_key_problem, validate_meta_key};
pub use metadata::Metadata;
pub use middleware::ToolMiddleware;
pub use prompt::builder::{PromptBuilder, prompt};
pub use prompt::def::{
    IntoGetPromptResult, PromptDef, PromptError, PromptFn, PromptHandler, PromptRequest,
};
pub use prompt::value::{GetPromptResult, Prompt, PromptArgument, PromptMessage};
pub use resource::builder::{ResourceBuilder, resource, resource_template};
pub use resource::def::{
    IntoReadResourceResult, ResourceDef, ResourceError, ResourceFn, ResourceHandler, ResourceKind,
    ResourceRequest,
};
pub use resource::uri_template::{UriTemplate, UriTemplateError};
pub use resource::value::{ReadResourceResult, Resource, ResourceTemplate};
pub use tool::annotations::{Hint, ToolAnnotations};
pub use tool::builder::{ToolBuilder, WRAPPED_OUTPUT_META_KEY, tool};
pub use tool::def::ToolDef;
pub use tool::execution::{TaskSupport, ToolExecution};
pub use tool::handler::{
    Handler, IntoToolResult, ToolHandler, ToolInput, ToolOutput, Unstructured,
};
pub use tool::name::{MAX_TOOL_NAME_LEN, is_valid_tool_name, validate_tool_name};
pub use tool::value::Tool;

/// A JSON object: the type of schemas, arguments and `_meta`.
pub type JsonObject = serde_json::Map<String, serde_json::Value>;
