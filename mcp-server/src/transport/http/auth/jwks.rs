//! The issuers' signing keys: discovered from their metadata (RFC 8414,
//! else OpenID Connect Discovery), cached, fetched again when a token names
//! an unknown `kid` (at most once per refetch interval) or when the cached
//! set grows old.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::{Jwk, JwkSet, KeyAlgorithm, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey};
use serde::Deserialize;
use tokio::sync::Mutex;
use url::Url;

use super::url_rule::is_allowed;

/// Why no key could be found for a token.
#[derive(Debug, thiserror::Error)]
pub(crate) enum KeyError {
    /// The issuer's key set has no key for the token.
    #[error("the issuer has no {alg:?} signing key{}", kid.as_ref().map(|k| format!(" with kid `{k}`")).unwrap_or_default())]
    Unknown {
        /// The token's `kid`.
        kid: Option<String>,
        /// The token's algorithm.
        alg: Algorithm,
    },
    /// The issuer's metadata or key set could not be fetched or read.
    #[error("cannot fetch the signing keys of `{issuer}`: {reason}")]
    Unavailable {
        /// The issuer.
        issuer: String,
        /// Why.
        reason: String,
    },
}

/// The cached key sets, one per trusted issuer.
#[derive(Debug)]
pub(crate) struct KeySets {
    client: reqwest::Client,
    refetch_interval: Duration,
    max_age: Duration,
    issuers: HashMap<String, Mutex<IssuerKeys>>,
}

#[derive(Debug, Default)]
struct IssuerKeys {
    jwks_uri: Option<Url>,
    set: Option<JwkSet>,
    fetched: Option<Instant>,
}

/// The fields of authorization server metadata read here.
#[derive(Deserialize)]
struct ServerMetadata {
    issuer: String,
    jwks_uri: Option<String>,
}

impl KeySets {
    pub(crate) fn new(
        client: reqwest::Client,
        issuers: &[String],
        refetch_interval: Duration,
        max_age: Duration,
    ) -> Self {
        Self {
            client,
            refetch_interval,
            max_age,
            issuers: issuers
                .iter()
                .map(|issuer| (issuer.clone(), Mutex::new(IssuerKeys::default())))
                .collect(),
        }
    }

    /// The key of `issuer` (a trusted one) that verifies a token with
    /// `kid` and `alg`.
    pub(crate) async fn key(
        &self,
        issuer: &str,
        kid: Option<&str>,
        alg: Algorithm,
    ) -> Result<DecodingKey, KeyError> {
        let Some(entry) = self.issuers.get(issuer) else {
            return Err(unavailable(issuer, "not a trusted issuer"));
        };
        let mut keys = entry.lock().await;
        let stale = keys
            .fetched
            .is_none_or(|fetched| fetched.elapsed() >= self.max_age);
        if stale {
            if let Err(error) = self.refresh(issuer, &mut keys).await {
                // Old keys still verify until the issuer can be asked again.
                if keys.set.is_none() {
                    return Err(error);
                }
                tracing::warn!(%error, "keeping the previous signing keys");
            }
        } else if find(keys.set.as_ref(), kid, alg).is_none()
            && keys
                .fetched
                .is_none_or(|fetched| fetched.elapsed() >= self.refetch_interval)
        {
            // Perhaps the issuer rotated its keys.
            self.refresh(issuer, &mut keys).await?;
        }
        let jwk = find(keys.set.as_ref(), kid, alg).ok_or_else(|| KeyError::Unknown {
            kid: kid.map(str::to_owned),
            alg,
        })?;
        DecodingKey::from_jwk(jwk)
            .map_err(|error| unavailable(issuer, &format!("its key {kid:?} is unusable: {error}")))
    }

    async fn refresh(&self, issuer: &str, keys: &mut IssuerKeys) -> Result<(), KeyError> {
        // Failed attempts count too, so an unreachable issuer is not
        // asked again on every request.
        keys.fetched = Some(Instant::now());
        let jwks_uri = match &keys.jwks_uri {
            Some(uri) => uri.clone(),
            None => {
                let uri = self.discover(issuer).await?;
                keys.jwks_uri = Some(uri.clone());
                uri
            }
        };
        let set: JwkSet = self
            .get_json(jwks_uri.as_str())
            .await
            .map_err(|reason| unavailable(issuer, &format!("key set {jwks_uri}: {reason}")))?;
        keys.set = Some(set);
        Ok(())
    }

    /// The `jwks_uri` of `issuer`'s metadata.
    async fn discover(&self, issuer: &str) -> Result<Url, KeyError> {
        let mut tried = Vec::new();
        for url in metadata_urls(issuer) {
            match self.get_json::<ServerMetadata>(&url).await {
                Ok(metadata) if metadata.issuer == issuer => {
                    let Some(jwks_uri) = metadata.jwks_uri else {
                        return Err(unavailable(issuer, &format!("{url} has no `jwks_uri`")));
                    };
                    return match Url::parse(&jwks_uri) {
                        Ok(parsed) if is_allowed(&parsed) => Ok(parsed),
                        _ => Err(unavailable(
                            issuer,
                            &format!("its `jwks_uri` `{jwks_uri}` is not an https URL"),
                        )),
                    };
                }
                Ok(metadata) => {
                    tried.push(format!("{url} names issuer `{}` instead", metadata.issuer))
                }
                Err(reason) => tried.push(format!("{url}: {reason}")),
            }
        }
        Err(unavailable(
            issuer,
            &format!("no authorization server metadata ({})", tried.join("; ")),
        ))
    }

    async fn get_json<T: serde::de::DeserializeOwned>(&self, url: &str) -> Result<T, String> {
        let response = self
            .client
            .get(url)
            .header(http::header::ACCEPT, "application/json")
            .send()
            .await
            .map_err(|error| error.to_string())?;
        if !response.status().is_success() {
            return Err(format!("HTTP {}", response.status()));
        }
        let bytes = response.bytes().await.map_err(|error| error.to_string())?;
        serde_json::from_slice(&bytes).map_err(|error| format!("not the expected JSON: {error}"))
    }
}

/// Where `issuer`'s metadata may be: RFC 8414 (the well-known segment
/// before the issuer's path), then OpenID Connect Discovery (after it).
fn metadata_urls(issuer: &str) -> Vec<String> {
    let Ok(url) = Url::parse(issuer) else {
        return Vec::new();
    };
    let origin = url.origin().ascii_serialization();
    let path = url.path().trim_end_matches('/');
    let mut urls = vec![
        format!("{origin}/.well-known/oauth-authorization-server{path}"),
        format!(
            "{}/.well-known/openid-configuration",
            issuer.trim_end_matches('/')
        ),
    ];
    if !path.is_empty() {
        urls.push(format!("{origin}/.well-known/openid-configuration{path}"));
    }
    urls
}

/// The key of `set` for a token with `kid` and `alg`: the one with that
/// `kid`, or without a `kid` the only signing key of the algorithm's
/// family. A key naming another algorithm, or meant for encryption, never
/// matches.
fn find<'a>(set: Option<&'a JwkSet>, kid: Option<&str>, alg: Algorithm) -> Option<&'a Jwk> {
    let usable = |jwk: &&Jwk| {
        let for_signing = !matches!(jwk.common.public_key_use, Some(PublicKeyUse::Encryption));
        let same_alg = jwk
            .common
            .key_algorithm
            .is_none_or(|declared| key_algorithm_is(declared, alg));
        let same_family = DecodingKey::from_jwk(jwk).is_ok_and(|key| key.family() == alg.family());
        for_signing && same_alg && same_family
    };
    let mut candidates = set?.keys.iter().filter(usable);
    match kid {
        Some(kid) => candidates.find(|jwk| jwk.common.key_id.as_deref() == Some(kid)),
        None => {
            let first = candidates.next()?;
            candidates.next().is_none().then_some(first)
        }
    }
}

fn key_algorithm_is(declared: KeyAlgorithm, alg: Algorithm) -> bool {
    // The JOSE names of both enums are their variant names.
    format!("{declared:?}") == format!("{alg:?}")
}

fn unavailable(issuer: &str, reason: &str) -> KeyError {
    KeyError::Unavailable {
        issuer: issuer.to_owned(),
        reason: reason.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::metadata_urls;

    #[test]
    fn metadata_locations() {
        assert_eq!(
            metadata_urls("https://as.example"),
            [
                "https://as.example/.well-known/oauth-authorization-server",
                "https://as.example/.well-known/openid-configuration"
            ]
        );
        assert_eq!(
            metadata_urls("https://as.example/tenant"),
            [
                "https://as.example/.well-known/oauth-authorization-server/tenant",
                "https://as.example/tenant/.well-known/openid-configuration",
                "https://as.example/.well-known/openid-configuration/tenant"
            ]
        );
    }
}
