//! Upstream credentials derived from the caller: a hook that turns the
//! validated claims of the MCP request (its [`AuthInfo`]) into the bearer
//! token a generated tool sends to its API, for example by exchanging the
//! caller's token for one issued for that API (RFC 8693).
//!
//! The caller's own token is never sent: it was issued for the MCP server.

use std::fmt;

use mcp_core::BoxFuture;
use mcp_core::auth::AuthInfo;

/// Gives the bearer token a generated tool sends upstream on behalf of its
/// caller; set it with
/// [`ClientConfigBuilder::upstream_credentials`](crate::call::ClientConfigBuilder::upstream_credentials).
///
/// ```
/// use std::sync::Arc;
/// use mcp_core::auth::AuthInfo;
/// use mcp_core::BoxFuture;
/// use mcp_openapi::call::{ClientConfig, UpstreamCredentials};
///
/// /// One upstream token per subject, from a table kept elsewhere.
/// struct PerUser;
///
/// impl UpstreamCredentials for PerUser {
///     fn bearer_token<'a>(&'a self, caller: &'a AuthInfo) -> BoxFuture<'a, Result<String, String>> {
///         let subject = caller.subject().map(str::to_owned);
///         Box::pin(async move {
///             let subject = subject.ok_or("the caller has no subject")?;
///             Ok(format!("token-of-{subject}"))
///         })
///     }
/// }
///
/// let config = ClientConfig::builder()
///     .base_url("https://api.example.com")
///     .upstream_credentials(Arc::new(PerUser))
///     .build()?;
/// # Ok::<(), mcp_openapi::call::CallError>(())
/// ```
pub trait UpstreamCredentials: Send + Sync + 'static {
    /// The bearer token to send upstream for `caller`, or why there is none
    /// (the call then fails with that reason).
    fn bearer_token<'a>(&'a self, caller: &'a AuthInfo) -> BoxFuture<'a, Result<String, String>>;
}

/// A shared hook, shown by name only in `Debug` output.
#[derive(Clone)]
pub(crate) struct CredentialHook(pub(crate) std::sync::Arc<dyn UpstreamCredentials>);

impl fmt::Debug for CredentialHook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("UpstreamCredentials")
    }
}
