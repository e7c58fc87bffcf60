//! Why a command failed: one line for the user, each variant's cause shown
//! in its message (so no variant returns it from `source()` as well).

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
    /// The authorization settings are refused.
    #[error(transparent)]
    Auth(#[from] mcp_server::auth::AuthError),
    /// An OpenAPI document (or route map) cannot be loaded.
    #[error("{path}: {error}")]
    Spec {
        /// The file.
        path: String,
        /// The cause.
        error: mcp_openapi::SpecError,
    },
    /// The API client cannot be configured (base URL, header, credentials).
    #[error("{0}")]
    Client(mcp_openapi::call::CallError),
    /// A document's prefix makes one of its tool names invalid.
    #[error("{document}: prefix `{prefix}` gives an invalid tool name for `{tool}`: {reason}")]
    Prefix {
        /// The document's label.
        document: String,
        /// The prefix.
        prefix: String,
        /// The tool's generated name.
        tool: String,
        /// Why the prefixed name is invalid.
        reason: String,
    },
    /// A transformation file cannot be read or parsed.
    #[error("{path}: {reason}")]
    TransformFile {
        /// The file.
        path: String,
        /// Why.
        reason: String,
    },
    /// A transformation file does not fit the tools.
    #[error("{path}: {error}")]
    Transform {
        /// The file.
        path: String,
        /// What does not fit.
        error: Box<mcp_core::transform::TransformError>,
    },
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
    /// `--state` without `--transport http`.
    #[error("--state shares HTTP sessions between replicas: it needs --transport http")]
    StateNeedsHttp,
    /// The shared store given by `--state` cannot be used.
    #[error("--state: {0}")]
    State(mcp_server::store::StoreError),
    /// Writing to stdout failed.
    #[error("cannot write the output: {0}")]
    Output(std::io::Error),
    /// A hand-written demo tool is malformed.
    #[error("demo tool: {0}")]
    DemoTool(mcp_core::ToolError),
    /// Telemetry cannot be installed as the `OTEL_*` variables ask.
    #[error("telemetry: {0}")]
    Telemetry(mcp_server::telemetry::TelemetryError),
    /// The metrics endpoint cannot listen.
    #[error("--metrics-bind {addr}: {error}")]
    MetricsBind {
        /// The address.
        addr: std::net::SocketAddr,
        /// Why.
        error: std::io::Error,
    },
    /// A hand-written demo resource is malformed.
    #[error("demo resource: {0}")]
    DemoResource(mcp_core::resource::ResourceError),
}

/// `?` on the causes some variants wrap, as `#[from]` would give it
/// (`#[from]` would also make the cause a `source()`).
macro_rules! from_cause {
    ($($cause:ty => $variant:ident),* $(,)?) => {
        $(impl From<$cause> for CliError {
            fn from(cause: $cause) -> Self {
                CliError::$variant(cause)
            }
        })*
    };
}

from_cause! {
    mcp_server::store::StoreError => State,
    mcp_core::ToolError => DemoTool,
    mcp_server::telemetry::TelemetryError => Telemetry,
    mcp_core::resource::ResourceError => DemoResource,
}
