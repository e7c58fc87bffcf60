//! Who may call the HTTP endpoint: nobody is checked, one static bearer
//! token, or (feature `oauth`) OAuth 2.1 access tokens (the endpoint as a protected resource:
//! RFC 9728 metadata, RFC 6750 challenges, RFC 9068 JWTs checked against
//! the issuers' keys, RFC 8707 audiences, scopes).
//!
//! An OAuth-protected deployment:
//!
//! ```no_run
//! # #[cfg(feature = "oauth")]
//! # mod example {
//! use mcp_server::auth::{Auth, OAuth};
//! use mcp_server::{HttpConfig, Server};
//!
//! # async fn run(server: Server) -> Result<(), Box<dyn std::error::Error>> {
//! let oauth = OAuth::new("https://mcp.example.com/mcp")?
//!     .issuer("https://login.example.com")?
//!     .scope("mcp:tools");
//! let config = HttpConfig::new()
//!     .allow_host("mcp.example.com")
//!     .auth(Auth::oauth(oauth)?);
//! server.bind_http("0.0.0.0:8000".parse()?, config).await?.run().await?;
//! # Ok(()) }
//! # }
//! ```
//!
//! Refusals: no token, 401 with `WWW-Authenticate: Bearer
//! resource_metadata="…", scope="…"`; a malformed or invalid token (shape,
//! algorithm, issuer, signature, audience, expiry, not-before), 401 with
//! `error="invalid_token"`; a valid token without a needed scope, 403 with
//! `error="insufficient_scope", scope="…"`; the issuer's keys cannot be
//! fetched, 503. The MCP service never reads the body of a refused request.
//! Handlers see the caller's claims as
//! [`cx.scope().auth()`](mcp_core::RequestScope::auth).
//!
//! Scopes: [`OAuth::scope`] for every request; for a `tools/call` (also
//! through discovery mode's `call_tool`), those the tool declares
//! ([`ToolBuilder::scopes`](mcp_core::ToolBuilder::scopes),
//! [`ToolSource::scopes`](crate::ToolSource::scopes)) and those
//! [`OAuth::tool_scopes`] adds by name.
//!
//! Opaque tokens are accepted too with [`OAuth::introspection`] (RFC 7662,
//! cached). The caller's token is never passed through to upstream APIs: a
//! tool that calls one on the caller's behalf trades it for an upstream
//! token with [`TokenExchange`] (RFC 8693, cached per caller), which
//! generated OpenAPI tools take as their
//! [`upstream_credentials`](mcp_openapi::call::ClientConfigBuilder::upstream_credentials).
//! A tool that
//! [forwards its caller's credentials](mcp_core::ToolDef::forwards_caller_credentials)
//! is refused: [`Server::router`](crate::Server::router) fails with
//! [`ServeError::CredentialPassthrough`](crate::ServeError::CredentialPassthrough),
//! and one added while serving is answered 500 when called.

pub(super) mod bearer;
#[cfg(feature = "oauth")]
mod challenge;
#[cfg(feature = "oauth")]
mod client;
#[cfg(feature = "oauth")]
mod error;
#[cfg(feature = "oauth")]
mod exchange;
#[cfg(feature = "oauth")]
pub(crate) mod gate;
#[cfg(feature = "oauth")]
mod introspect;
#[cfg(feature = "oauth")]
mod jwks;
#[cfg(feature = "oauth")]
pub(super) mod metadata;
#[cfg(feature = "oauth")]
mod oauth;
#[cfg(feature = "oauth")]
mod refusal;
#[cfg(feature = "oauth")]
pub(crate) mod token;
#[cfg(feature = "oauth")]
mod url_rule;
#[cfg(feature = "oauth")]
pub(super) mod verify;

#[cfg(feature = "oauth")]
use std::sync::Arc;

use self::bearer::BearerToken;
#[cfg(feature = "oauth")]
use self::client::authorization_client;
#[cfg(feature = "oauth")]
#[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
pub use self::error::AuthError;
#[cfg(feature = "oauth")]
#[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
pub use self::exchange::{ExchangeError, TokenExchange};
#[cfg(feature = "oauth")]
#[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
pub use self::introspect::Introspection;
#[cfg(feature = "oauth")]
#[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
pub use self::oauth::OAuth;
#[cfg(feature = "oauth")]
use self::verify::Verifier;

/// How requests to the HTTP endpoint are authorized: one static bearer
/// token, or OAuth 2.1 access tokens (see [`OAuth`]).
#[derive(Clone, Debug)]
pub struct Auth {
    pub(super) mode: Mode,
}

#[derive(Clone, Debug)]
pub(super) enum Mode {
    Bearer(BearerToken),
    #[cfg(feature = "oauth")]
    OAuth(Arc<Verifier>),
}

impl Auth {
    /// Requires `Authorization: Bearer {token}` on every request (401
    /// without it): for simple deployments with one shared secret.
    pub fn bearer(token: impl Into<String>) -> Self {
        Self {
            mode: Mode::Bearer(BearerToken::new(&token.into())),
        }
    }

    /// Requires OAuth 2.1 access tokens as `settings` describes; refused
    /// without a trusted issuer (feature `oauth`).
    ///
    /// ```
    /// use mcp_server::auth::{Auth, AuthError, OAuth};
    ///
    /// let no_issuer = Auth::oauth(OAuth::new("https://mcp.example.com/mcp")?);
    /// assert!(matches!(no_issuer, Err(AuthError::NoIssuer)));
    /// # Ok::<(), AuthError>(())
    /// ```
    #[cfg(feature = "oauth")]
    #[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
    pub fn oauth(settings: OAuth) -> Result<Self, AuthError> {
        if settings.issuers.is_empty() {
            return Err(AuthError::NoIssuer);
        }
        let client = authorization_client()?;
        Ok(Self {
            mode: Mode::OAuth(Arc::new(Verifier::new(settings, client))),
        })
    }

    /// The OAuth settings, when tokens are OAuth access tokens.
    #[cfg(feature = "oauth")]
    #[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
    pub fn oauth_settings(&self) -> Option<&OAuth> {
        match &self.mode {
            Mode::OAuth(verifier) => Some(verifier.settings()),
            Mode::Bearer(_) => None,
        }
    }
}
