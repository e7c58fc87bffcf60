//! Errors of building a tool.

/// Why a tool could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ToolError {
    /// The name breaks the MCP tool name rule.
    #[error("invalid tool name `{name}`: {reason}")]
    InvalidName {
        /// The rejected name.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// An `_meta` key is malformed.
    #[error("invalid `_meta` key `{key}`: {reason}")]
    InvalidMetaKey {
        /// The rejected key.
        key: String,
        /// What is wrong with it.
        reason: String,
    },
    /// An `_meta` key uses a prefix reserved for the MCP specification.
    #[error(
        "`_meta` key `{key}` uses the reserved prefix `{prefix}` (labels `modelcontextprotocol` and `mcp` belong to the MCP specification)"
    )]
    ReservedMetaKey {
        /// The rejected key.
        key: String,
        /// Its prefix, with the trailing slash.
        prefix: String,
    },
    /// An execution value is not `forbidden`, `optional` or `required`.
    #[error("invalid execution `{value}`: expected `forbidden`, `optional` or `required`")]
    InvalidExecution {
        /// The rejected value.
        value: String,
    },
    /// A schema could not be used.
    #[error("tool `{tool}`: {error}")]
    Schema {
        /// The tool whose schema failed.
        tool: String,
        /// What failed (shown in the message, so not a `source()`).
        error: SchemaError,
    },
}

/// Why a JSON Schema cannot be a tool's input or output schema.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SchemaError {
    /// An input schema must describe a JSON object.
    #[error(
        "the input schema of `{type_name}` does not describe an object (its root is {found}); tool arguments are always an object, so use a struct or a map"
    )]
    InputNotObject {
        /// The Rust type the schema was derived from.
        type_name: String,
        /// What the root describes instead.
        found: String,
    },
    /// A schema is not a JSON object.
    #[error("a schema must be a JSON object, found {found}")]
    NotAnObject {
        /// What was given instead.
        found: String,
    },
    /// What a `#[tool]` function says of one of its arguments
    /// (`#[arg(..)]`) cannot hold.
    #[error("argument `{argument}`: {reason}")]
    Argument {
        /// The argument, as the function names it.
        argument: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// A schema is not a valid JSON Schema.
    #[error("the schema is not a valid JSON Schema: {reason}")]
    Invalid {
        /// What the validator found wrong.
        reason: String,
    },
}
