//! The Protected Resource Metadata document (RFC 9728) and where it is
//! served.

use serde_json::{Value, json};

use super::oauth::{OAuth, add_scopes};

/// The well-known prefix of RFC 9728.
pub(crate) const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// The document for `settings`, whose tools also declare `tool_scopes`
/// (each listed once).
pub(crate) fn document(settings: &OAuth, tool_scopes: Vec<String>) -> Value {
    let mut scopes = settings.scopes_supported();
    add_scopes(&mut scopes, tool_scopes);
    json!({
        "resource": settings.resource(),
        "authorization_servers": settings.issuers(),
        "scopes_supported": scopes,
        "bearer_methods_supported": ["header"],
    })
}

/// The path of the document for the resource's own path (RFC 9728 §3.1:
/// the well-known segment goes between the host and the path).
pub(crate) fn path(settings: &OAuth) -> String {
    format!(
        "{WELL_KNOWN}{}",
        settings.resource.path().trim_end_matches('/')
    )
}

/// The document's absolute URL, for `WWW-Authenticate`.
pub(crate) fn url(settings: &OAuth) -> String {
    format!(
        "{}{}",
        settings.resource.origin().ascii_serialization(),
        path(settings)
    )
}
