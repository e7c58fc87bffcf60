//! Who is calling: the validated claims of the access token a request
//! carried, when the server checks tokens (an OAuth-protected HTTP
//! endpoint).
//!
//! A handler reads them from its request's scope
//! ([`RequestScope::auth`](crate::RequestScope::auth): `cx.scope().auth()`
//! for a tool call, the same for resource and prompt requests), to act on
//! behalf of its caller or to log who called what.
//!
//! ```
//! use mcp_core::auth::AuthInfo;
//! use serde_json::json;
//!
//! let claims = json!({"iss": "https://login.example.com", "sub": "alice",
//!     "client_id": "cli", "scope": "files:read files:write"});
//! let info = AuthInfo::from_claims(claims.as_object().unwrap().clone());
//! assert_eq!(info.subject(), Some("alice"));
//! assert_eq!(info.client_id(), Some("cli"));
//! assert!(info.has_scope("files:write"));
//! ```

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::json::JsonObject;

/// The validated claims of a request's access token.
///
/// Scopes come from the `scope` claim (space-separated, RFC 9068) or `scp`
/// (a list or a string); the client from `client_id` (RFC 9068), else
/// `azp`.
#[derive(Clone, PartialEq)]
pub struct AuthInfo {
    claims: JsonObject,
    scopes: Vec<String>,
    token: Option<Arc<str>>,
}

impl AuthInfo {
    /// The caller described by a token's (already validated) claims.
    pub fn from_claims(claims: JsonObject) -> Self {
        let scopes = match claims.get("scope").or_else(|| claims.get("scp")) {
            Some(Value::String(text)) => text.split_whitespace().map(str::to_owned).collect(),
            Some(Value::Array(items)) => items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
            _ => Vec::new(),
        };
        Self {
            claims,
            scopes,
            token: None,
        }
    }

    /// Keeps the access token the claims came from, so the server can
    /// exchange it for an upstream token (RFC 8693).
    pub fn with_access_token(mut self, token: impl Into<Arc<str>>) -> Self {
        self.token = Some(token.into());
        self
    }

    /// The access token the claims came from, for a token exchange. It was
    /// issued for this server: never send it to another one.
    pub fn access_token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    /// The subject (`sub`): the user, or the client acting for itself.
    pub fn subject(&self) -> Option<&str> {
        self.string_claim("sub")
    }

    /// The OAuth client the token was issued to (`client_id`, else `azp`).
    pub fn client_id(&self) -> Option<&str> {
        self.string_claim("client_id")
            .or_else(|| self.string_claim("azp"))
    }

    /// The issuer (`iss`).
    pub fn issuer(&self) -> Option<&str> {
        self.string_claim("iss")
    }

    /// The token's scopes.
    pub fn scopes(&self) -> &[String] {
        &self.scopes
    }

    /// Whether the token grants `scope`.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.iter().any(|granted| granted == scope)
    }

    /// When the token expires (`exp`, seconds since the Unix epoch).
    pub fn expires_at(&self) -> Option<u64> {
        self.claims.get("exp").and_then(Value::as_u64)
    }

    /// Every claim, for those the accessors do not cover.
    pub fn claims(&self) -> &JsonObject {
        &self.claims
    }

    fn string_claim(&self, name: &str) -> Option<&str> {
        self.claims.get(name).and_then(Value::as_str)
    }
}

impl fmt::Debug for AuthInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AuthInfo")
            .field("claims", &self.claims)
            .field("access_token", &self.token.as_ref().map(|_| ".."))
            .finish()
    }
}
