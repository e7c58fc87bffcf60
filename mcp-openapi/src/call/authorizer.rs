//! Applying credentials to a prepared request, with the OAuth2
//! client-credentials token cache.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use http::header::{AUTHORIZATION, CONTENT_TYPE, COOKIE};
use http::{HeaderName, HeaderValue};
use serde_json::Value;
use url::Url;

use crate::call::error::CallError;
use crate::call::request::PreparedRequest;
use crate::call::security::{
    ApiKeyLocation, Credential, Credentials, Secret, SecurityScheme, SecuritySchemes,
};
use crate::call::style::encode_component;
use crate::ir::SecurityRequirement;

/// A token is fetched again this long before it expires.
const EARLY_REFRESH: Duration = Duration::from_secs(30);
/// How long a token without `expires_in` is kept.
const DEFAULT_TOKEN_LIFETIME: Duration = Duration::from_secs(300);

#[derive(Debug)]
struct CachedToken {
    token: Secret,
    expires: Instant,
}

/// Applies credentials; shared by every tool of a document.
#[derive(Debug, Default)]
pub(crate) struct Authorizer {
    schemes: SecuritySchemes,
    credentials: Credentials,
    tokens: tokio::sync::Mutex<BTreeMap<String, CachedToken>>,
}

/// What applying credentials did.
#[derive(Debug, Default)]
pub(crate) struct Applied {
    /// The OAuth2 schemes whose token was used (invalidated on a 401).
    pub(crate) oauth_schemes: Vec<String>,
}

impl Authorizer {
    pub(crate) fn new(schemes: SecuritySchemes, credentials: Credentials) -> Self {
        Self {
            schemes,
            credentials,
            tokens: tokio::sync::Mutex::new(BTreeMap::new()),
        }
    }

    /// Every secret text that could appear in a request, for redaction.
    pub(crate) async fn secrets(&self) -> Vec<String> {
        let mut secrets = Vec::new();
        for (_, credential) in self.credentials_iter() {
            match credential {
                Credential::ApiKey(secret) | Credential::Bearer(secret) => {
                    secrets.push(secret.expose().to_owned());
                    secrets.push(encode_component(secret.expose()));
                }
                Credential::Basic { username, password } => {
                    secrets.push(password.expose().to_owned());
                    secrets.push(STANDARD.encode(format!("{username}:{}", password.expose())));
                }
                Credential::ClientCredentials {
                    client_id,
                    client_secret,
                    ..
                } => {
                    secrets.push(client_secret.expose().to_owned());
                    secrets
                        .push(STANDARD.encode(format!("{client_id}:{}", client_secret.expose())));
                }
            }
        }
        secrets.extend(
            self.tokens
                .lock()
                .await
                .values()
                .map(|t| t.token.expose().to_owned()),
        );
        secrets.retain(|s| !s.is_empty());
        secrets
    }

    fn credentials_iter(&self) -> impl Iterator<Item = (&str, &Credential)> {
        self.schemes
            .iter()
            .filter_map(|(name, _)| Some((name, self.credentials.get(name)?)))
    }

    /// Applies the first requirement whose schemes all have credentials; with
    /// none, the request goes out as it is (the API decides).
    pub(crate) async fn apply(
        &self,
        client: &reqwest::Client,
        base: &Url,
        requirements: &[SecurityRequirement],
        request: &mut PreparedRequest,
    ) -> Result<Applied, CallError> {
        let usable = |requirement: &&SecurityRequirement| {
            requirement.schemes.keys().all(|name| {
                matches!(
                    (self.schemes.get(name), self.credentials.get(name)),
                    (Some(scheme), Some(_)) if !matches!(scheme, SecurityScheme::Unsupported(_))
                )
            })
        };
        let mut applied = Applied::default();
        let Some(requirement) = requirements.iter().find(usable) else {
            return Ok(applied);
        };
        for (name, scopes) in &requirement.schemes {
            let (Some(scheme), Some(credential)) =
                (self.schemes.get(name), self.credentials.get(name))
            else {
                continue;
            };
            let fail = |reason: &str| CallError::Auth {
                scheme: name.clone(),
                reason: reason.to_owned(),
            };
            match (scheme, credential) {
                (
                    SecurityScheme::ApiKey {
                        name: key,
                        location,
                    },
                    Credential::ApiKey(secret),
                ) => {
                    api_key(request, key, *location, secret)
                        .map_err(|()| fail("the key is not a valid header value"))?;
                }
                (
                    SecurityScheme::Bearer
                    | SecurityScheme::OAuth2 { .. }
                    | SecurityScheme::OpenIdConnect,
                    Credential::Bearer(token),
                ) => bearer(request, token.expose())
                    .map_err(|()| fail("the token is not a valid header value"))?,
                (SecurityScheme::Basic, Credential::Basic { username, password }) => {
                    let encoded = STANDARD.encode(format!("{username}:{}", password.expose()));
                    authorization(request, &format!("Basic {encoded}"))
                        .map_err(|()| fail("invalid basic credentials"))?;
                }
                (
                    SecurityScheme::OAuth2 {
                        token_url: Some(token_url),
                    },
                    Credential::ClientCredentials { .. },
                ) => {
                    let token = self
                        .token(client, base, name, token_url, credential, scopes)
                        .await?;
                    bearer(request, token.expose())
                        .map_err(|()| fail("the token is not a valid header value"))?;
                    applied.oauth_schemes.push(name.clone());
                }
                _ => {
                    return Err(fail(
                        "the configured credential does not fit the scheme's type",
                    ));
                }
            }
        }
        Ok(applied)
    }

    /// Forgets the cached token of `scheme` (after the API refused it).
    pub(crate) async fn invalidate(&self, scheme: &str) {
        self.tokens.lock().await.remove(scheme);
    }

    async fn token(
        &self,
        client: &reqwest::Client,
        base: &Url,
        name: &str,
        token_url: &str,
        credential: &Credential,
        required_scopes: &[String],
    ) -> Result<Secret, CallError> {
        let Credential::ClientCredentials {
            client_id,
            client_secret,
            scopes,
        } = credential
        else {
            return Err(CallError::Auth {
                scheme: name.to_owned(),
                reason: "client credentials are needed".to_owned(),
            });
        };
        let mut tokens = self.tokens.lock().await;
        if let Some(cached) = tokens.get(name).filter(|t| t.expires > Instant::now()) {
            return Ok(cached.token.clone());
        }
        let fail = |reason: String| CallError::Auth {
            scheme: name.to_owned(),
            reason,
        };
        let url = base
            .join(token_url)
            .map_err(|e| fail(format!("token url: {e}")))?;
        let scope = if scopes.is_empty() {
            required_scopes
        } else {
            scopes
        };
        let mut form = String::from("grant_type=client_credentials");
        if !scope.is_empty() {
            form.push_str("&scope=");
            form.push_str(&encode_component(&scope.join(" ")));
        }
        let response = client
            .post(url)
            .basic_auth(client_id, Some(client_secret.expose()))
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(form)
            .send()
            .await
            .map_err(|e| fail(format!("token request: {}", CallError::transport(&e))))?;
        let status = response.status();
        if !status.is_success() {
            return Err(fail(format!("the token endpoint answered {status}")));
        }
        let body = response
            .bytes()
            .await
            .map_err(|e| fail(format!("token response: {}", CallError::transport(&e))))?;
        let json: Value = serde_json::from_slice(&body)
            .map_err(|_| fail("the token response is not JSON".to_owned()))?;
        let token = json
            .get("access_token")
            .and_then(Value::as_str)
            .ok_or_else(|| fail("the token response has no `access_token`".to_owned()))?;
        let lifetime = json
            .get("expires_in")
            .and_then(Value::as_u64)
            .map_or(DEFAULT_TOKEN_LIFETIME, Duration::from_secs)
            .saturating_sub(EARLY_REFRESH);
        let token = Secret::new(token);
        tokens.insert(
            name.to_owned(),
            CachedToken {
                token: token.clone(),
                expires: Instant::now() + lifetime,
            },
        );
        Ok(token)
    }
}

fn sensitive(text: &str) -> Result<HeaderValue, ()> {
    let mut value = HeaderValue::from_str(text).map_err(|_| ())?;
    value.set_sensitive(true);
    Ok(value)
}

fn authorization(request: &mut PreparedRequest, text: &str) -> Result<(), ()> {
    request.headers.insert(AUTHORIZATION, sensitive(text)?);
    Ok(())
}

/// Sets `request`'s `Authorization: Bearer` header to `token`, marked
/// sensitive; `Err` when the token cannot be a header value.
pub(crate) fn bearer(request: &mut PreparedRequest, token: &str) -> Result<(), ()> {
    authorization(request, &format!("Bearer {token}"))
}

fn api_key(
    request: &mut PreparedRequest,
    key: &str,
    location: ApiKeyLocation,
    secret: &Secret,
) -> Result<(), ()> {
    match location {
        ApiKeyLocation::Header => {
            let name = HeaderName::from_bytes(key.as_bytes()).map_err(|_| ())?;
            request.headers.insert(name, sensitive(secret.expose())?);
        }
        ApiKeyLocation::Query => {
            let pair = format!(
                "{}={}",
                encode_component(key),
                encode_component(secret.expose())
            );
            let query = match request.url.query() {
                Some(existing) if !existing.is_empty() => format!("{existing}&{pair}"),
                _ => pair,
            };
            request.url.set_query(Some(&query));
        }
        ApiKeyLocation::Cookie => {
            let pair = format!(
                "{}={}",
                encode_component(key),
                encode_component(secret.expose())
            );
            let cookie = match request.headers.get(COOKIE).and_then(|v| v.to_str().ok()) {
                Some(existing) => format!("{existing}; {pair}"),
                None => pair,
            };
            request.headers.insert(COOKIE, sensitive(&cookie)?);
        }
    }
    Ok(())
}
