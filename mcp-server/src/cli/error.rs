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
    /// An OpenAPI document (or route map) cannot be loaded.
    #[error("{path}: {source}")]
    Spec {
        /// The file.
        path: String,
        /// The cause.
        source: mcp_openapi::SpecError,
    },
    /// The API client cannot be configured (base URL, header, credentials).
    #[error("{0}")]
    Client(mcp_openapi::call::CallError),
    /// A file to watch for changes cannot be watched.
    #[error("cannot watch `{path}`: {reason}")]
    Watch {
        /// The file (or what was being watched).
        path: String,
        /// Why not.
        reason: String,
    },
    /// SIGHUP cannot be listened for.
    #[cfg(unix)]
    #[error("cannot listen for SIGHUP: {0}")]
    Hangup(std::io::Error),
    /// Writing to stdout failed.
    #[error("cannot write the output: {0}")]
    Output(std::io::Error),
    /// A hand-written demo tool is malformed.
    #[error("demo tool: {0}")]
    DemoTool(#[from] mcp_core::ToolError),
    /// A hand-written demo resource is malformed.
    #[error("demo resource: {0}")]
    DemoResource(#[from] mcp_core::resource::ResourceError),
}
