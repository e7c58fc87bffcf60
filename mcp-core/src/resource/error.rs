//! Why a resource could not be defined or read.

use crate::error::ToolError;
use crate::resource::uri_template::UriTemplateError;

/// Why a resource could not be defined or read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ResourceError {
    /// No resource has this URI (JSON-RPC error -32002 on the wire).
    #[error("resource `{uri}` not found")]
    NotFound {
        /// The requested URI.
        uri: String,
    },
    /// The handler failed.
    #[error("reading resource `{uri}` failed: {message}")]
    Read {
        /// The requested URI.
        uri: String,
        /// What went wrong.
        message: String,
    },
    /// The URI template does not parse.
    #[error(transparent)]
    InvalidTemplate(#[from] UriTemplateError),
    /// The metadata is invalid (for example a reserved `_meta` key).
    #[error(transparent)]
    Metadata(#[from] ToolError),
}

impl ResourceError {
    /// A not-found error for `uri`, for handlers of templates whose
    /// variables name nothing.
    pub fn not_found(uri: impl Into<String>) -> Self {
        Self::NotFound { uri: uri.into() }
    }
}
