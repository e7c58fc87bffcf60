//! Checking a JWT access token (RFC 9068): shape, algorithm, issuer,
//! signature, audience, expiry and not-before; the scopes are checked by
//! the caller, which knows what the request needs.

use std::str::FromStr;

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, Validation};
use mcp_core::JsonObject;
use mcp_core::auth::AuthInfo;
use serde_json::Value;

use super::introspect::{Introspector, unix_now};
use super::jwks::{KeyError, KeySets};
use super::oauth::OAuth;
use super::refusal::Refusal;
use super::token::{JwtShapeError, read_jwt};

/// Checks tokens against the trusted issuers' keys.
#[derive(Debug)]
pub(crate) struct Verifier {
    settings: OAuth,
    keys: KeySets,
    introspector: Option<Introspector>,
}

impl Verifier {
    pub(crate) fn new(settings: OAuth, client: reqwest::Client) -> Self {
        let keys = KeySets::new(
            client.clone(),
            &settings.issuers,
            settings.refetch_interval,
            settings.keys_max_age,
        );
        let introspector = settings
            .introspection
            .clone()
            .map(|introspection| Introspector::new(introspection, client));
        Self {
            settings,
            keys,
            introspector,
        }
    }

    pub(crate) fn settings(&self) -> &OAuth {
        &self.settings
    }

    /// The caller a valid token describes.
    pub(crate) async fn verify(&self, token: &str) -> Result<AuthInfo, Refusal> {
        let jwt = match (read_jwt(token), &self.introspector) {
            (Ok(jwt), _) => jwt,
            (Err(JwtShapeError::Parts), Some(introspector)) => {
                let claims = introspector.claims(token).await?;
                self.check_introspected(&claims)?;
                return Ok(AuthInfo::from_claims(claims));
            }
            (Err(error), _) => return Err(Refusal::Invalid(error.to_string())),
        };
        let alg = self.allowed_algorithm(&jwt.alg)?;
        let issuer = trusted_issuer(&self.settings, &jwt.claims)?;
        let key = self
            .keys
            .key(issuer, jwt.kid.as_deref(), alg)
            .await
            .map_err(|error| match error {
                KeyError::Unknown { .. } => Refusal::Invalid(error.to_string()),
                KeyError::Unavailable { .. } => Refusal::Unavailable(error.to_string()),
            })?;
        let mut validation = Validation::new(alg);
        validation.set_issuer(&[issuer]);
        validation.set_audience(&self.settings.audiences());
        validation.set_required_spec_claims(&["exp", "iss", "aud"]);
        validation.leeway = self.settings.leeway.as_secs();
        validation.validate_nbf = true;
        let data = jsonwebtoken::decode::<JsonObject>(token, &key, &validation)
            .map_err(|error| Refusal::Invalid(describe(error.kind())))?;
        Ok(AuthInfo::from_claims(data.claims))
    }

    /// The checks a JWT's signature validation makes, on an introspection
    /// answer: a trusted issuer (when named), this resource in `aud`, and
    /// `exp`/`nbf` (when given) with the leeway.
    fn check_introspected(&self, claims: &JsonObject) -> Result<(), Refusal> {
        if claims.contains_key("iss") {
            trusted_issuer(&self.settings, claims)?;
        }
        let audiences = self.settings.audiences();
        let for_us = match claims.get("aud") {
            Some(Value::String(aud)) => audiences.contains(aud),
            Some(Value::Array(auds)) => auds
                .iter()
                .filter_map(Value::as_str)
                .any(|aud| audiences.iter().any(|ours| ours == aud)),
            _ => false,
        };
        if !for_us {
            return Err(Refusal::Invalid(describe(&ErrorKind::InvalidAudience)));
        }
        let now = unix_now();
        let leeway = self.settings.leeway.as_secs();
        if claims
            .get("exp")
            .and_then(Value::as_u64)
            .is_some_and(|exp| exp.saturating_add(leeway) <= now)
        {
            return Err(Refusal::Invalid(describe(&ErrorKind::ExpiredSignature)));
        }
        if claims
            .get("nbf")
            .and_then(Value::as_u64)
            .is_some_and(|nbf| nbf > now.saturating_add(leeway))
        {
            return Err(Refusal::Invalid(describe(&ErrorKind::ImmatureSignature)));
        }
        Ok(())
    }

    fn allowed_algorithm(&self, name: &str) -> Result<Algorithm, Refusal> {
        Algorithm::from_str(name)
            .ok()
            .filter(|alg| self.settings.algorithms.contains(alg))
            .ok_or_else(|| {
                Refusal::Invalid(format!("signature algorithm `{name}` is not accepted"))
            })
    }
}

/// The token's issuer, when it is one of the trusted ones.
fn trusted_issuer<'a>(settings: &'a OAuth, claims: &JsonObject) -> Result<&'a str, Refusal> {
    let Some(Value::String(iss)) = claims.get("iss") else {
        return Err(Refusal::Invalid("the token has no `iss`".to_owned()));
    };
    settings
        .issuers
        .iter()
        .find(|trusted| *trusted == iss)
        .map(String::as_str)
        .ok_or_else(|| Refusal::Invalid(format!("issuer `{iss}` is not trusted")))
}

fn describe(kind: &ErrorKind) -> String {
    match kind {
        ErrorKind::InvalidSignature => "the signature does not verify".to_owned(),
        ErrorKind::ExpiredSignature => "the token has expired".to_owned(),
        ErrorKind::ImmatureSignature => "the token is not valid yet (`nbf`)".to_owned(),
        ErrorKind::InvalidAudience => {
            "the token was not issued for this resource (`aud`)".to_owned()
        }
        ErrorKind::InvalidIssuer => "the token's issuer is not trusted".to_owned(),
        ErrorKind::MissingRequiredClaim(claim) => format!("the token has no `{claim}`"),
        ErrorKind::InvalidClaimFormat(claim) => format!("the token's `{claim}` is malformed"),
        ErrorKind::InvalidAlgorithm => "the token's algorithm does not match its key".to_owned(),
        other => format!("the token is invalid ({other:?})"),
    }
}
