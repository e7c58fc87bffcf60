//! What can go wrong while building or running a server.

use std::io;

/// A server could not be built from its tools and settings, or a change of
/// its tools and resources while it runs was refused (and not applied).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// Two tools would be listed under the same name.
    #[error(
        "duplicate tool `{name}`: defined by {first} and by {second} (rename one, or give one source a prefix)"
    )]
    DuplicateTool {
        /// The clashing name.
        name: String,
        /// The source that defined it first.
        first: String,
        /// The source that defined it again.
        second: String,
    },
    /// Two resources (or two templates) have the same URI.
    #[error("duplicate resource `{uri}`")]
    DuplicateResource {
        /// The URI or URI template.
        uri: String,
    },
    /// A prompt could not be added.
    #[error(transparent)]
    Prompt(#[from] AddPromptError),
    /// A source prefix makes a tool name invalid.
    #[error("{source_label}: prefix `{prefix}` gives an invalid tool name for `{tool}`: {reason}")]
    InvalidPrefix {
        /// The source's label.
        source_label: String,
        /// The prefix.
        prefix: String,
        /// The tool's original name.
        tool: String,
        /// Why the prefixed name is invalid.
        reason: String,
    },
    /// A source to replace is not one of the server's.
    #[error("no tool source is named `{name}` ({})", known_sources(known))]
    UnknownSource {
        /// The name asked for.
        name: String,
        /// The names of the server's sources.
        known: Vec<String>,
    },
    /// A tool pinned in discovery mode is not hosted.
    #[error("the pinned tool `{name}` is not hosted{}", closest_names(closest))]
    UnknownPin {
        /// The pinned name.
        name: String,
        /// The hosted names closest to it.
        closest: Vec<String>,
    },
    /// The meta-tools of discovery mode or code mode could not be made.
    #[error("the meta-tools could not be made: {reason}")]
    MetaTools {
        /// Why.
        reason: String,
    },
    /// A toolset to serve is none of the hosted tools'.
    #[error("no tool is in the toolset `{name}`; the toolsets are: {}", known.join(", "))]
    UnknownToolset {
        /// The toolset asked for.
        name: String,
        /// The toolsets of the hosted tools.
        known: Vec<String>,
    },
    /// Both discovery mode and code mode were asked for.
    #[error("discovery mode and code mode exclude each other: pick one")]
    TwoModes,
    /// The page size of `tools/list` is zero.
    #[error("the tools/list page size must be at least 1")]
    ZeroPageSize,
    /// An OpenAPI document could not be loaded or its tools generated.
    #[cfg(feature = "openapi")]
    #[error(transparent)]
    OpenApi(Box<OpenApiError>),
    /// The server's context type needs a constructor.
    #[error(
        "the session context type `{type_name}` needs `.context(|session| ..)` on the server builder"
    )]
    MissingContext {
        /// The context type.
        type_name: &'static str,
    },
}

/// The names of a server's sources, for a message.
fn known_sources(names: &[String]) -> String {
    if names.is_empty() {
        return "the server has no sources".to_owned();
    }
    let quoted: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
    format!("the sources are {}", quoted.join(", "))
}

/// The names closest to a name that is none, for a message.
fn closest_names(names: &[String]) -> String {
    if names.is_empty() {
        return String::new();
    }
    let quoted: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
    format!(" (closest: {})", quoted.join(", "))
}

/// A prompt could not be added to a server (while building it, or at
/// runtime through [`Server::add_prompt`](crate::Server::add_prompt)).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AddPromptError {
    /// Two prompts have the same name.
    #[error("duplicate prompt `{name}`: registered twice")]
    DuplicatePrompt {
        /// The name.
        name: String,
    },
}

/// A server could not serve.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServeError {
    /// Binding the listening socket failed.
    #[error("cannot listen on {addr}: {error}")]
    Bind {
        /// The address.
        addr: String,
        /// The cause (shown in the message, so not a `source()`).
        error: io::Error,
    },
    /// An I/O error while serving.
    #[error("{context}: {error}")]
    Io {
        /// What was being done.
        context: &'static str,
        /// The cause (shown in the message, so not a `source()`).
        error: io::Error,
    },
    /// The MCP session could not start (for example the peer never sent a
    /// valid opening request).
    #[error("the MCP session did not start: {0}")]
    Session(String),
    /// OAuth is on but some tools send their caller's own credentials
    /// upstream, which the MCP specification forbids.
    #[error(
        "OAuth is on, but these tools pass the caller's Authorization header through to their \
         upstream API: {}; the caller's token was issued for this server and must not be \
         forwarded: turn the passthrough off and give the tools upstream credentials of their \
         own, or exchange the caller's token for an upstream one (RFC 8693, \
         mcp_server::auth::TokenExchange)",
        .tools.join(", ")
    )]
    CredentialPassthrough {
        /// The tools that forward the caller's credentials.
        tools: Vec<String>,
    },
}

/// An OpenAPI document could not become a tool source.
#[cfg(feature = "openapi")]
#[cfg_attr(docsrs, doc(cfg(feature = "openapi")))]
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OpenApiError {
    /// Loading the document or generating its tools failed.
    #[error("OpenAPI document `{document}`: {error}")]
    Spec {
        /// The file (or the source's name).
        document: String,
        /// What went wrong (shown in the message, so not a `source()`).
        error: mcp_openapi::SpecError,
    },
    /// The HTTP client of its tools could not be made (a bad base URL,
    /// header or security scheme).
    #[error("OpenAPI document `{document}`: {error}")]
    Client {
        /// The file (or the source's name).
        document: String,
        /// What went wrong (shown in the message, so not a `source()`).
        error: mcp_openapi::call::CallError,
    },
}
