//! The settings of an OAuth 2.1 protected resource.

use std::collections::BTreeMap;
use std::time::Duration;

use jsonwebtoken::Algorithm;
use url::Url;

use super::error::AuthError;
use super::introspect::Introspection;
use super::url_rule::trusted_url;

/// The signature algorithms accepted by default: every asymmetric one
/// (never `none`, never the HMAC family, whose "key" would be public).
const DEFAULT_ALGORITHMS: [Algorithm; 9] = [
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
    Algorithm::ES256,
    Algorithm::ES384,
    Algorithm::EdDSA,
];

/// How an OAuth 2.1 protected resource checks access tokens: which
/// authorization servers it trusts, who it is (its public URL, the RFC 8707
/// resource indicator tokens must be issued for) and which scopes requests
/// need.
///
/// Tokens are JWTs (RFC 9068) signed with a key of the issuer's JWKS,
/// found through its RFC 8414 or OpenID metadata. Defaults: the audience is
/// the public URL; every asymmetric algorithm is allowed; 60 s of clock
/// leeway on `exp` and `nbf`; the key set is fetched again on an unknown
/// `kid` at most every 30 s, and at the latest after an hour.
///
/// ```
/// use mcp_server::auth::OAuth;
///
/// let oauth = OAuth::new("https://mcp.example.com/mcp")?
///     .issuer("https://login.example.com")?
///     .scope("mcp:tools")
///     .tool_scopes("delete_pet", ["pets:write"]);
/// assert_eq!(oauth.resource(), "https://mcp.example.com/mcp");
/// # Ok::<(), mcp_server::auth::AuthError>(())
/// ```
#[derive(Clone, Debug)]
pub struct OAuth {
    pub(super) resource: Url,
    pub(super) issuers: Vec<String>,
    pub(super) audiences: Vec<String>,
    pub(super) scopes: Vec<String>,
    pub(super) tool_scopes: BTreeMap<String, Vec<String>>,
    pub(super) algorithms: Vec<Algorithm>,
    pub(super) leeway: Duration,
    pub(super) refetch_interval: Duration,
    pub(super) keys_max_age: Duration,
    pub(super) introspection: Option<Introspection>,
}

impl OAuth {
    /// A protected resource whose canonical URI is `public_url` (the URL
    /// clients reach the MCP endpoint at, for example
    /// `https://mcp.example.com/mcp`); `https` unless on a loopback host.
    pub fn new(public_url: &str) -> Result<Self, AuthError> {
        let mut resource = trusted_url("public URL", public_url)?;
        resource.set_fragment(None);
        Ok(Self {
            resource,
            issuers: Vec::new(),
            audiences: Vec::new(),
            scopes: Vec::new(),
            tool_scopes: BTreeMap::new(),
            algorithms: DEFAULT_ALGORITHMS.to_vec(),
            leeway: Duration::from_secs(60),
            refetch_interval: Duration::from_secs(30),
            keys_max_age: Duration::from_secs(3600),
            introspection: None,
        })
    }

    /// Trusts tokens issued by `issuer` (its exact `iss` value), an
    /// authorization server publishing RFC 8414 or OpenID Connect
    /// discovery metadata. Repeatable.
    pub fn issuer(mut self, issuer: &str) -> Result<Self, AuthError> {
        trusted_url("issuer", issuer)?;
        if !self.issuers.iter().any(|known| known == issuer) {
            self.issuers.push(issuer.to_owned());
        }
        Ok(self)
    }

    /// Accepts tokens whose `aud` holds `audience` (repeatable; the
    /// default, when none is given, is the public URL).
    pub fn audience(mut self, audience: impl Into<String>) -> Self {
        self.audiences.push(audience.into());
        self
    }

    /// A scope every request needs (repeatable; 403 without it).
    pub fn scope(mut self, scope: impl Into<String>) -> Self {
        self.scopes.push(scope.into());
        self
    }

    /// Scopes a `tools/call` of `tool` needs, on top of the ones every
    /// request needs (403 without them).
    pub fn tool_scopes(
        mut self,
        tool: impl Into<String>,
        scopes: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        self.tool_scopes
            .entry(tool.into())
            .or_default()
            .extend(scopes.into_iter().map(Into::into));
        self
    }

    /// The accepted signature algorithms by JOSE name (`RS256`, `ES256`,
    /// `EdDSA`, ...); `none` and the HMAC family are refused.
    pub fn algorithms<'a>(
        mut self,
        names: impl IntoIterator<Item = &'a str>,
    ) -> Result<Self, AuthError> {
        let mut algorithms = Vec::new();
        for name in names {
            let algorithm = DEFAULT_ALGORITHMS
                .into_iter()
                .find(|known| format!("{known:?}") == name)
                .ok_or_else(|| AuthError::Algorithm {
                    name: name.to_owned(),
                })?;
            algorithms.push(algorithm);
        }
        if algorithms.is_empty() {
            return Err(AuthError::NoAlgorithm);
        }
        self.algorithms = algorithms;
        Ok(self)
    }

    /// The clock skew tolerated on `exp` and `nbf` (default 60 s).
    pub fn leeway(mut self, leeway: Duration) -> Self {
        self.leeway = leeway;
        self
    }

    /// The shortest time between two fetches of an issuer's key set caused
    /// by tokens naming an unknown `kid` (default 30 s), so forged `kid`s
    /// cannot make the server hammer the authorization server.
    pub fn jwks_refetch_interval(mut self, interval: Duration) -> Self {
        self.refetch_interval = interval;
        self
    }

    /// Also accepts opaque (non-JWT) tokens, asking the authorization
    /// server's RFC 7662 introspection endpoint about them; the answer must
    /// say `active` and name this resource in `aud`.
    pub fn introspection(mut self, introspection: Introspection) -> Self {
        self.introspection = Some(introspection);
        self
    }

    /// The resource identifier (the public URL).
    pub fn resource(&self) -> &str {
        self.resource.as_str()
    }

    /// The trusted issuers.
    pub fn issuers(&self) -> &[String] {
        &self.issuers
    }

    /// The audiences a token may carry (the public URL unless set).
    pub fn audiences(&self) -> Vec<String> {
        if self.audiences.is_empty() {
            vec![self.resource.as_str().to_owned()]
        } else {
            self.audiences.clone()
        }
    }

    /// The scopes every request needs.
    pub fn required_scopes(&self) -> &[String] {
        &self.scopes
    }

    /// Every scope the server asks for, for the metadata document.
    pub(super) fn scopes_supported(&self) -> Vec<String> {
        let mut all = self.scopes.clone();
        add_scopes(&mut all, self.tool_scopes.values().flatten().cloned());
        all
    }
}

/// Appends to `all` the `scopes` it does not hold yet, in order.
pub(super) fn add_scopes(all: &mut Vec<String>, scopes: impl IntoIterator<Item = String>) {
    for scope in scopes {
        if !all.contains(&scope) {
            all.push(scope);
        }
    }
}
