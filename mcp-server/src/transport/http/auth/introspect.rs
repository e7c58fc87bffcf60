//! Opaque access tokens, checked by the authorization server's RFC 7662
//! introspection endpoint; answers are cached until the token expires (at
//! most the cache lifetime), refusals for the cache lifetime.

use std::collections::HashMap;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use mcp_core::JsonObject;
use serde_json::Value;
use tokio::sync::Mutex;
use url::Url;

use super::client::post_form;
use super::error::AuthError;
use super::refusal::Refusal;
use super::url_rule::trusted_url;

/// The most answers kept; beyond it, expired ones are dropped, then all.
const MAX_CACHED: usize = 10_000;

/// Where and as whom the resource server introspects opaque tokens.
#[derive(Clone)]
pub struct Introspection {
    endpoint: Url,
    client_id: String,
    client_secret: String,
    cache_for: Duration,
}

impl std::fmt::Debug for Introspection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Introspection")
            .field("endpoint", &self.endpoint.as_str())
            .field("client_id", &self.client_id)
            .field("cache_for", &self.cache_for)
            .finish_non_exhaustive()
    }
}

impl Introspection {
    /// Introspects at `endpoint` (https unless on loopback), authenticating
    /// as the client `client_id` with `client_secret` (HTTP Basic); answers
    /// are cached for up to 60 s.
    pub fn new(
        endpoint: &str,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
    ) -> Result<Self, AuthError> {
        Ok(Self {
            endpoint: trusted_url("introspection endpoint", endpoint)?,
            client_id: client_id.into(),
            client_secret: client_secret.into(),
            cache_for: Duration::from_secs(60),
        })
    }

    /// How long an answer may be reused (never past the token's `exp`).
    pub fn cache_for(mut self, lifetime: Duration) -> Self {
        self.cache_for = lifetime;
        self
    }
}

/// Introspects with a cache.
pub(crate) struct Introspector {
    settings: Introspection,
    client: reqwest::Client,
    cache: Mutex<HashMap<String, Cached>>,
}

impl std::fmt::Debug for Introspector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Introspector")
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

struct Cached {
    claims: Option<JsonObject>,
    until: Instant,
}

impl Introspector {
    pub(crate) fn new(settings: Introspection, client: reqwest::Client) -> Self {
        Self {
            settings,
            client,
            cache: Mutex::new(HashMap::new()),
        }
    }

    /// The claims of an active token (not yet checked for audience and
    /// expiry); `Invalid` for an inactive one.
    pub(crate) async fn claims(&self, token: &str) -> Result<JsonObject, Refusal> {
        if let Some(cached) = self.cache.lock().await.get(token)
            && cached.until > Instant::now()
        {
            return cached.claims.clone().ok_or_else(inactive);
        }
        let answer = self.ask(token).await?;
        let active = answer.get("active") == Some(&Value::Bool(true));
        let lifetime = match answer.get("exp").and_then(Value::as_u64) {
            Some(exp) if active => self
                .settings
                .cache_for
                .min(Duration::from_secs(exp.saturating_sub(unix_now()))),
            _ => self.settings.cache_for,
        };
        let claims = active.then_some(answer);
        let mut cache = self.cache.lock().await;
        if cache.len() >= MAX_CACHED {
            let now = Instant::now();
            cache.retain(|_, cached| cached.until > now);
            if cache.len() >= MAX_CACHED {
                cache.clear();
            }
        }
        cache.insert(
            token.to_owned(),
            Cached {
                claims: claims.clone(),
                until: Instant::now() + lifetime,
            },
        );
        claims.ok_or_else(inactive)
    }

    async fn ask(&self, token: &str) -> Result<JsonObject, Refusal> {
        let unavailable = |reason: String| {
            Refusal::Unavailable(format!(
                "cannot introspect at {}: {reason}",
                self.settings.endpoint
            ))
        };
        let body = url::form_urlencoded::Serializer::new(String::new())
            .append_pair("token", token)
            .append_pair("token_type_hint", "access_token")
            .finish();
        let settings = &self.settings;
        let credentials = (settings.client_id.as_str(), settings.client_secret.as_str());
        let (status, bytes) = post_form(&self.client, &settings.endpoint, credentials, body)
            .await
            .map_err(|error| unavailable(error.to_string()))?;
        if !status.is_success() {
            return Err(unavailable(format!("HTTP {status}")));
        }
        match serde_json::from_slice(&bytes) {
            Ok(Value::Object(answer)) => Ok(answer),
            _ => Err(unavailable("the answer is not a JSON object".to_owned())),
        }
    }
}

fn inactive() -> Refusal {
    Refusal::Invalid("the token is not active".to_owned())
}

/// Seconds since the Unix epoch.
pub(crate) fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_secs())
}
