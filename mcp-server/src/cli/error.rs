//! Why a command failed: one line for the user.

use mcp_server::{BuildError, ServeError};

/// A command failed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CliError {
    /// The tools do not form a server.
    #[error(transparent)]
    Build(#[from] BuildError),
    /// Serving failed.
    #[error(transparent)]
    Serve(#[from] ServeError),
    /// A spec file cannot be read.
    #[error("cannot read `{path}`: {source}")]
    Read {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// OpenAPI generation is not part of this build yet.
    #[error(
        "--openapi `{spec}`: OpenAPI tool generation is not available yet (crate mcp-openapi has no generator in this build)"
    )]
    OpenApiUnavailable {
        /// The spec that was asked for.
        spec: String,
    },
    /// Writing to stdout failed.
    #[error("cannot write the output: {0}")]
    Output(std::io::Error),
    /// A hand-written demo tool is malformed.
    #[error("demo tool: {0}")]
    DemoTool(#[from] mcp_core::ToolError),
    /// A hand-written demo resource is malformed.
    #[error("demo resource: {0}")]
    DemoResource(#[from] mcp_core::ResourceError),
}
