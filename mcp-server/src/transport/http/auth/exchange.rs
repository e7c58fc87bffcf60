//! RFC 8693 token exchange: the caller's access token (issued for this
//! server) traded at the authorization server for a token meant for an
//! upstream API, instead of passing the caller's token through. Exchanged
//! tokens are cached per caller until shortly before they expire.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use mcp_core::auth::AuthInfo;
use serde::Deserialize;
use tokio::sync::Mutex;
use url::Url;

use super::client::{authorization_client, post_form};
use super::error::AuthError;
use super::url_rule::trusted_url;

const GRANT: &str = "urn:ietf:params:oauth:grant-type:token-exchange";
const ACCESS_TOKEN_TYPE: &str = "urn:ietf:params:oauth:token-type:access_token";
/// A token is exchanged again this long before it expires.
const EARLY_REFRESH: Duration = Duration::from_secs(30);
/// How long a token without `expires_in` is kept.
const DEFAULT_LIFETIME: Duration = Duration::from_secs(60);

/// Why no upstream token could be had.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExchangeError {
    /// The caller was not authenticated with an access token.
    #[error("the call carries no access token to exchange")]
    NoToken,
    /// The token endpoint could not be reached or answered garbage.
    #[error("token exchange at {endpoint}: {reason}")]
    Unavailable {
        /// The token endpoint.
        endpoint: String,
        /// Why.
        reason: String,
    },
    /// The authorization server refused the exchange.
    #[error("token exchange at {endpoint} refused ({status}): {body}")]
    Refused {
        /// The token endpoint.
        endpoint: String,
        /// The HTTP status.
        status: u16,
        /// The error response.
        body: String,
    },
}

/// Exchanges callers' tokens for tokens of one upstream API.
///
/// ```
/// use mcp_server::auth::TokenExchange;
///
/// let exchange = TokenExchange::new("https://login.example.com/token", "mcp-server", "secret")?
///     .audience("https://api.example.com")
///     .scope("orders:read");
/// // In a tool: `let token = exchange.token_for(cx.scope().auth().unwrap()).await?;`
/// # Ok::<(), mcp_server::auth::AuthError>(())
/// ```
pub struct TokenExchange {
    endpoint: Url,
    client_id: String,
    client_secret: String,
    audience: Option<String>,
    resource: Option<String>,
    scope: Option<String>,
    client: reqwest::Client,
    cache: Mutex<HashMap<String, Cached>>,
}

impl std::fmt::Debug for TokenExchange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TokenExchange")
            .field("endpoint", &self.endpoint.as_str())
            .field("client_id", &self.client_id)
            .field("audience", &self.audience)
            .field("resource", &self.resource)
            .field("scope", &self.scope)
            .finish_non_exhaustive()
    }
}

struct Cached {
    token: String,
    until: Instant,
}

#[derive(Deserialize)]
struct Answer {
    access_token: String,
    expires_in: Option<u64>,
}

impl TokenExchange {
    /// Exchanges at the token endpoint `endpoint` (https unless on
    /// loopback), authenticating as `client_id` (HTTP Basic).
    pub fn new(
        endpoint: &str,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
    ) -> Result<Self, AuthError> {
        let client = authorization_client()?;
        Ok(Self {
            endpoint: trusted_url("token endpoint", endpoint)?,
            client_id: client_id.into(),
            client_secret: client_secret.into(),
            audience: None,
            resource: None,
            scope: None,
            client,
            cache: Mutex::new(HashMap::new()),
        })
    }

    /// The upstream the token is for, by logical name (`audience`).
    pub fn audience(mut self, audience: impl Into<String>) -> Self {
        self.audience = Some(audience.into());
        self
    }

    /// The upstream the token is for, by URI (`resource`, RFC 8707).
    pub fn resource(mut self, resource: impl Into<String>) -> Self {
        self.resource = Some(resource.into());
        self
    }

    /// The scopes to ask for.
    pub fn scope(mut self, scope: impl Into<String>) -> Self {
        self.scope = Some(scope.into());
        self
    }

    /// An upstream token acting for `caller`, from the cache while it is
    /// fresh.
    pub async fn token_for(&self, caller: &AuthInfo) -> Result<String, ExchangeError> {
        let subject_token = caller.access_token().ok_or(ExchangeError::NoToken)?;
        let key = format!(
            "{}\u{0}{}\u{0}{}",
            caller.issuer().unwrap_or_default(),
            caller.subject().unwrap_or_default(),
            caller.client_id().unwrap_or_default()
        );
        let mut cache = self.cache.lock().await;
        if let Some(cached) = cache.get(&key)
            && cached.until > Instant::now()
        {
            return Ok(cached.token.clone());
        }
        let answer = self.exchange(subject_token).await?;
        let lifetime = answer.expires_in.map_or(DEFAULT_LIFETIME, |seconds| {
            Duration::from_secs(seconds).saturating_sub(EARLY_REFRESH)
        });
        cache.retain(|_, cached| cached.until > Instant::now());
        cache.insert(
            key,
            Cached {
                token: answer.access_token.clone(),
                until: Instant::now() + lifetime,
            },
        );
        Ok(answer.access_token)
    }

    async fn exchange(&self, subject_token: &str) -> Result<Answer, ExchangeError> {
        let unavailable = |reason: String| ExchangeError::Unavailable {
            endpoint: self.endpoint.to_string(),
            reason,
        };
        let credentials = (self.client_id.as_str(), self.client_secret.as_str());
        let (status, bytes) = post_form(
            &self.client,
            &self.endpoint,
            credentials,
            self.form(subject_token),
        )
        .await
        .map_err(|error| unavailable(error.to_string()))?;
        if !status.is_success() {
            return Err(ExchangeError::Refused {
                endpoint: self.endpoint.to_string(),
                status: status.as_u16(),
                body: String::from_utf8_lossy(&bytes).into_owned(),
            });
        }
        serde_json::from_slice(&bytes)
            .map_err(|error| unavailable(format!("not a token response: {error}")))
    }

    /// The form of the exchange request.
    fn form(&self, subject_token: &str) -> String {
        let mut form = url::form_urlencoded::Serializer::new(String::new());
        form.append_pair("grant_type", GRANT)
            .append_pair("subject_token", subject_token)
            .append_pair("subject_token_type", ACCESS_TOKEN_TYPE)
            .append_pair("requested_token_type", ACCESS_TOKEN_TYPE);
        for (name, value) in [
            ("audience", &self.audience),
            ("resource", &self.resource),
            ("scope", &self.scope),
        ] {
            if let Some(value) = value {
                form.append_pair(name, value);
            }
        }
        form.finish()
    }
}

/// Generated OpenAPI tools call their API with a token exchanged for their
/// caller's: give the exchange to
/// [`ClientConfigBuilder::upstream_credentials`](mcp_openapi::call::ClientConfigBuilder::upstream_credentials).
///
/// ```
/// use std::sync::Arc;
/// use mcp_openapi::ClientConfig;
/// use mcp_server::auth::TokenExchange;
///
/// let exchange = TokenExchange::new("https://login.example.com/token", "mcp-server", "secret")?
///     .audience("https://api.example.com");
/// let config = ClientConfig::builder()
///     .base_url("https://api.example.com")
///     .upstream_credentials(Arc::new(exchange))
///     .build()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[cfg(feature = "openapi")]
#[cfg_attr(docsrs, doc(cfg(feature = "openapi")))]
impl mcp_openapi::call::UpstreamCredentials for TokenExchange {
    fn bearer_token<'a>(
        &'a self,
        caller: &'a AuthInfo,
    ) -> mcp_core::BoxFuture<'a, Result<String, String>> {
        Box::pin(async move { self.token_for(caller).await.map_err(|e| e.to_string()) })
    }
}
