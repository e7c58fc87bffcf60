//! The configuration shared by every generated tool of a document: one
//! pooled `reqwest::Client`, base URL, static headers, limits, retries,
//! credentials.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use http::{HeaderMap, HeaderName, HeaderValue};
use url::Url;

use crate::call::authorizer::Authorizer;
use crate::call::error::CallError;
use crate::call::retry::RetryPolicy;
use crate::call::security::{Credentials, SecuritySchemes};
use crate::call::upstream_credentials::{CredentialHook, UpstreamCredentials};

/// The default per-call timeout.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// The default cap on a response body (10 MiB).
pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 10 * 1024 * 1024;
/// The `User-Agent` of every request.
pub const USER_AGENT: &str = concat!("mcp-openapi/", env!("CARGO_PKG_VERSION"));

/// How generated tools call their API; share one (`Arc`) per document.
#[derive(Debug)]
pub struct ClientConfig {
    pub(crate) client: reqwest::Client,
    pub(crate) base_url: Option<Url>,
    pub(crate) server_variables: BTreeMap<String, String>,
    pub(crate) headers: HeaderMap,
    pub(crate) timeout: Duration,
    pub(crate) max_response_bytes: usize,
    pub(crate) retry: RetryPolicy,
    pub(crate) authorizer: Authorizer,
    pub(crate) passthrough_authorization: bool,
    pub(crate) upstream_credentials: Option<CredentialHook>,
}

impl ClientConfig {
    /// A builder with the defaults: the document's servers, 30 s timeout,
    /// 10 MiB response cap, 2 retries of idempotent calls, no credentials.
    ///
    /// ```
    /// use std::time::Duration;
    /// use mcp_openapi::ClientConfig;
    ///
    /// let config = ClientConfig::builder()
    ///     .base_url("http://127.0.0.1:8080")
    ///     .timeout(Duration::from_secs(5))
    ///     .max_response_bytes(1024 * 1024)
    ///     .build()?;
    /// assert_eq!(config.max_response_bytes(), 1024 * 1024);
    /// # Ok::<(), mcp_openapi::call::CallError>(())
    /// ```
    pub fn builder() -> ClientConfigBuilder {
        ClientConfigBuilder::default()
    }

    /// The cap on a response body, in bytes.
    pub fn max_response_bytes(&self) -> usize {
        self.max_response_bytes
    }

    /// The default timeout of a whole call.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }
}

/// Builds a [`ClientConfig`].
#[derive(Debug, Default)]
pub struct ClientConfigBuilder {
    base_url: Option<String>,
    server_variables: BTreeMap<String, String>,
    headers: Vec<(String, String)>,
    timeout: Option<Duration>,
    max_response_bytes: Option<usize>,
    retry: Option<RetryPolicy>,
    schemes: SecuritySchemes,
    credentials: Option<Credentials>,
    passthrough_authorization: bool,
    upstream_credentials: Option<CredentialHook>,
}

impl ClientConfigBuilder {
    /// Sends every request to `url` instead of the document's servers.
    pub fn base_url(mut self, url: impl Into<String>) -> Self {
        self.base_url = Some(url.into());
        self
    }

    /// Sets a server variable (overrides its default).
    pub fn server_variable(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.server_variables.insert(name.into(), value.into());
        self
    }

    /// Adds a header sent with every request (checked when building).
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// The default timeout of a whole call: token fetch, retries and reading
    /// the body included (tools may set their own with
    /// [`HttpToolHandler::timeout`](crate::call::HttpToolHandler::timeout)).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// The cap on a response body (10 MiB by default): a successful
    /// response that is longer is an error result, read no further than
    /// the cap (a failed one is quoted from its first bytes).
    pub fn max_response_bytes(mut self, bytes: usize) -> Self {
        self.max_response_bytes = Some(bytes);
        self
    }

    /// The retry policy of idempotent calls.
    pub fn retry(mut self, policy: RetryPolicy) -> Self {
        self.retry = Some(policy);
        self
    }

    /// The document's security schemes.
    pub fn security_schemes(mut self, schemes: SecuritySchemes) -> Self {
        self.schemes = schemes;
        self
    }

    /// The credentials; without this call, they are read from the
    /// documented environment variables of each scheme.
    pub fn credentials(mut self, credentials: Credentials) -> Self {
        self.credentials = Some(credentials);
        self
    }

    /// Forwards the incoming MCP request's `Authorization` header to the
    /// API (see [`with_incoming_authorization`](crate::call::with_incoming_authorization));
    /// off by default.
    pub fn passthrough_authorization(mut self, on: bool) -> Self {
        self.passthrough_authorization = on;
        self
    }

    /// Sends, as the upstream `Authorization: Bearer` header, a token
    /// `credentials` derives from each call's caller (the
    /// [`RequestScope::auth`](mcp_core::RequestScope::auth) claims),
    /// instead of the document's configured credentials for that header. A
    /// call without a caller fails. Cannot be combined with
    /// [`passthrough_authorization`](Self::passthrough_authorization).
    pub fn upstream_credentials(mut self, credentials: Arc<dyn UpstreamCredentials>) -> Self {
        self.upstream_credentials = Some(CredentialHook(credentials));
        self
    }

    /// Builds the configuration and its HTTP client.
    ///
    /// The client speaks TLS with rustls on the process's default crypto
    /// provider; when the program has installed none, this installs ring's
    /// (`rustls::crypto::ring::default_provider().install_default()`).
    pub fn build(self) -> Result<ClientConfig, CallError> {
        if self.passthrough_authorization && self.upstream_credentials.is_some() {
            return Err(CallError::UpstreamCredentials(
                "the configuration both passes the caller's Authorization header through and \
                 derives upstream credentials from the caller; choose one"
                    .to_owned(),
            ));
        }
        let base_url = self
            .base_url
            .map(|url| Url::parse(&url).map_err(|e| CallError::BaseUrl(format!("`{url}`: {e}"))))
            .transpose()?;
        let mut headers = HeaderMap::new();
        for (name, value) in &self.headers {
            let header = HeaderName::from_bytes(name.as_bytes())
                .map_err(|_| CallError::InvalidHeader(name.clone()))?;
            let value =
                HeaderValue::from_str(value).map_err(|_| CallError::InvalidHeader(name.clone()))?;
            headers.append(header, value);
        }
        if rustls::crypto::CryptoProvider::get_default().is_none() {
            // Losing a race with another installer leaves theirs: also fine.
            let _ = rustls::crypto::ring::default_provider().install_default();
        }
        let client = reqwest::Client::builder()
            .user_agent(USER_AGENT)
            .redirect(same_origin_redirects())
            .build()
            .map_err(|e| CallError::Client(CallError::transport(&e).to_string()))?;
        let credentials = self
            .credentials
            .unwrap_or_else(|| Credentials::from_env(&self.schemes));
        Ok(ClientConfig {
            client,
            base_url,
            server_variables: self.server_variables,
            headers,
            timeout: self.timeout.unwrap_or(DEFAULT_TIMEOUT),
            max_response_bytes: self
                .max_response_bytes
                .unwrap_or(DEFAULT_MAX_RESPONSE_BYTES),
            retry: self.retry.unwrap_or_default(),
            authorizer: Authorizer::new(self.schemes, credentials),
            passthrough_authorization: self.passthrough_authorization,
            upstream_credentials: self.upstream_credentials,
        })
    }
}

/// The most redirects one request follows.
const MAX_REDIRECTS: usize = 10;

/// Why a chain of redirects was given up.
#[derive(Debug, thiserror::Error)]
#[error("more than {MAX_REDIRECTS} redirects (a redirect loop?)")]
struct TooManyRedirects;

/// Redirects are followed (up to [`MAX_REDIRECTS`]) only while they stay on
/// the origin of the first request: credentials never travel to another
/// host. A redirect elsewhere is answered as it came (an error result);
/// a longer chain is an error.
fn same_origin_redirects() -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(|attempt| {
        let same_origin = attempt
            .previous()
            .first()
            .is_some_and(|first| first.origin() == attempt.url().origin());
        if !same_origin {
            attempt.stop()
        } else if attempt.previous().len() > MAX_REDIRECTS {
            attempt.error(TooManyRedirects)
        } else {
            attempt.follow()
        }
    })
}
