//! Why a tool transformation cannot be applied.

use crate::error::ToolError;

/// Why a transformation (from Rust or from a file) cannot be applied. Each
/// message names the tool and, where there is one, the argument or key.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum TransformError {
    /// A transformation names an argument the tool does not have.
    #[error("tool `{tool}` has no argument `{argument}` (its arguments: {known})")]
    UnknownArgument {
        /// The original tool's name.
        tool: String,
        /// The argument as the transformation names it.
        argument: String,
        /// The tool's arguments, for the message.
        known: String,
    },
    /// An argument's changes contradict each other or do not fit its schema.
    #[error("tool `{tool}`, argument `{argument}`: {reason}")]
    Argument {
        /// The original tool's name.
        tool: String,
        /// The argument's original name.
        argument: String,
        /// What is wrong.
        reason: String,
    },
    /// An argument is transformed twice, or two arguments end up with one name.
    #[error("tool `{tool}`: {reason}")]
    ArgumentNames {
        /// The original tool's name.
        tool: String,
        /// Which names clash.
        reason: String,
    },
    /// The tool's input or output schema cannot be rewritten.
    #[error("tool `{tool}`: {reason}")]
    Schema {
        /// The original tool's name.
        tool: String,
        /// What prevents it.
        reason: String,
    },
    /// A new name, `_meta` key or schema breaks the rules every tool follows.
    #[error("tool `{tool}`: {error}")]
    Tool {
        /// The original tool's name.
        tool: String,
        /// What the tool rules say.
        error: ToolError,
    },
    /// A result rule is malformed.
    #[error("tool `{tool}`: {reason}")]
    Result {
        /// The original tool's name.
        tool: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A transformation file names a tool that no source provides.
    #[error("no tool is named `{tool}`{hint}")]
    UnknownTool {
        /// The name as the file gives it.
        tool: String,
        /// A suggestion (`"; did you mean ..."`), or nothing.
        hint: String,
    },
    /// Two tools would have the same name after the transformations.
    #[error("tools `{first}` and `{second}` would both be named `{name}`")]
    DuplicateTool {
        /// The name they share.
        name: String,
        /// The first tool's original name.
        first: String,
        /// The second tool's original name.
        second: String,
    },
    /// A transformation file does not have the expected shape.
    #[error("{at}: {reason}")]
    Format {
        /// Where in the file: a dotted key path (`tools.NAME.arguments.ARG`).
        at: String,
        /// What is wrong there.
        reason: String,
    },
}
