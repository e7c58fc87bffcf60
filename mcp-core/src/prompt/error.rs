//! Why a prompt could not be defined or rendered.

use crate::error::{SchemaError, ToolError};

/// Why a prompt could not be defined or rendered.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PromptError {
    /// No prompt has this name (JSON-RPC -32602 on the wire).
    #[error("unknown prompt `{name}`")]
    NotFound {
        /// The requested name.
        name: String,
    },
    /// A required argument is missing (JSON-RPC -32602).
    #[error("prompt `{prompt}`: missing required argument `{argument}`")]
    MissingArgument {
        /// The prompt.
        prompt: String,
        /// The missing argument.
        argument: String,
    },
    /// The arguments do not deserialize into the prompt's type (JSON-RPC -32602).
    #[error("prompt `{prompt}`: invalid arguments: {message}")]
    InvalidArguments {
        /// The prompt.
        prompt: String,
        /// What is wrong, naming the argument.
        message: String,
    },
    /// The handler failed (JSON-RPC -32603).
    #[error("prompt `{prompt}` failed: {message}")]
    Failed {
        /// The prompt.
        prompt: String,
        /// What went wrong.
        message: String,
    },
    /// The arguments type has no object schema.
    #[error("prompt `{prompt}`: {error}")]
    Schema {
        /// The prompt.
        prompt: String,
        /// What failed (shown in the message, so not a `source()`).
        error: SchemaError,
    },
    /// A completer names an argument the prompt does not have.
    #[error(
        "prompt `{prompt}`: a completer is given for `{argument}`, which is not an argument of the prompt"
    )]
    UnknownArgument {
        /// The prompt.
        prompt: String,
        /// The argument.
        argument: String,
    },
    /// The metadata is invalid (for example a reserved `_meta` key).
    #[error(transparent)]
    Metadata(#[from] ToolError),
}
