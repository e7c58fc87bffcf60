//! The errors of loading and generation ([`SpecError`], what failed and where
//! in the document) and the warnings about what was skipped ([`Warning`]).

use std::path::{Path, PathBuf};

/// Why a document (or part of one) could not be turned into routes or tools.
///
/// Messages are lowercase and name the JSON pointer of the offending node
/// (`#/paths/~1pets/get/parameters/2: missing "in"`).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SpecError {
    /// A file could not be read.
    #[error("cannot read `{}`: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error (shown in the message, so not a `source()`).
        error: std::io::Error,
    },
    /// The bytes are neither valid JSON nor valid YAML.
    #[error("cannot parse {format}: {message}")]
    Syntax {
        /// `JSON` or `YAML`.
        format: &'static str,
        /// The parser's message (with line and column).
        message: String,
    },
    /// The document is not an OpenAPI 3.x or Swagger 2.0 document.
    #[error("not an openapi document: {0}")]
    NotOpenApi(String),
    /// The document declares a version this crate does not read.
    #[error("unsupported openapi version `{0}` (supported: swagger 2.0, openapi 3.0, 3.1, 3.2)")]
    UnsupportedVersion(String),
    /// A required field is missing.
    #[error("{pointer}: missing \"{field}\"")]
    Missing {
        /// Where.
        pointer: String,
        /// The missing field.
        field: &'static str,
    },
    /// A field has the wrong shape or value.
    #[error("{pointer}: {message}")]
    Invalid {
        /// Where.
        pointer: String,
        /// What is wrong.
        message: String,
    },
    /// A `$ref` cannot be resolved.
    #[error("{pointer}: cannot resolve $ref `{reference}`: {reason}")]
    Ref {
        /// Where the reference is written.
        pointer: String,
        /// The reference.
        reference: String,
        /// Why it failed.
        reason: String,
    },
    /// A remote (`http(s)`) `$ref` was met and remote references are not allowed.
    #[error("{pointer}: remote $ref `{reference}` refused (allow remote references to follow it)")]
    RemoteRef {
        /// Where the reference is written.
        pointer: String,
        /// The reference.
        reference: String,
    },
    /// Strict mode: an operation would have been skipped.
    #[error("strict mode: {0}")]
    Strict(Box<SpecError>),
    /// A generated tool was refused by `mcp_core` (bad name, bad `_meta` key).
    #[error("{pointer}: {error}")]
    Tool {
        /// The operation.
        pointer: String,
        /// The builder's error (shown in the message, so not a `source()`).
        error: mcp_core::ToolError,
    },
    /// A generated resource was refused by `mcp_core` (bad URI template, bad `_meta` key).
    #[error("{pointer}: {error}")]
    Resource {
        /// The operation.
        pointer: String,
        /// The builder's error (boxed: it is large and rare; shown in the
        /// message, so not a `source()`).
        error: Box<mcp_core::resource::ResourceError>,
    },
    /// A route map file or value is malformed.
    #[error("route map: {0}")]
    RouteMap(String),
    /// An overlay is malformed or cannot be applied to the document
    /// (`overlay `fix.yaml` at /actions/2/target: ...`).
    #[error("{}: {message}", overlay_place(.file.as_deref(), .pointer))]
    Overlay {
        /// The overlay's file, when it was read from one.
        file: Option<PathBuf>,
        /// The JSON pointer of the offending part of the overlay
        /// (`/actions/2/target`); empty for the overlay as a whole.
        pointer: String,
        /// What is wrong.
        message: String,
    },
}

impl SpecError {
    pub(crate) fn invalid(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Self::Invalid {
            pointer: pointer.into(),
            message: message.into(),
        }
    }
}

/// `overlay `fix.yaml` at /actions/2`, without the parts that are unknown.
fn overlay_place(file: Option<&Path>, pointer: &str) -> String {
    let mut place = "overlay".to_owned();
    if let Some(file) = file {
        place.push_str(&format!(" `{}`", file.display()));
    }
    if !pointer.is_empty() {
        place.push_str(" at ");
        place.push_str(pointer);
    }
    place
}

/// Something skipped or approximated while loading or generating; the rest still loads.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct Warning {
    /// The JSON pointer of the node concerned (`#/paths/~1pets/get`); for an
    /// overlay action, the action in its overlay (`fix.yaml#/actions/3`).
    pub pointer: String,
    /// What happened, lowercase (`skipped: missing "in"`).
    pub message: String,
}

impl Warning {
    pub(crate) fn new(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            pointer: pointer.into(),
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.pointer, self.message)
    }
}
