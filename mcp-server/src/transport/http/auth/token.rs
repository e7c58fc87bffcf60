//! Reading a bearer token before any key is involved: the `Authorization`
//! header, and the header and claims of a JWT (RFC 7519), untrusted until
//! [`super::verify`] checks the signature.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::Value;

use mcp_core::JsonObject;

/// The longest token accepted (larger ones are refused unread).
pub(crate) const MAX_TOKEN_BYTES: usize = 16 * 1024;

/// What the `Authorization` header of a request holds.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Presented<'a> {
    /// No header, or another scheme than `Bearer`.
    Nothing,
    /// A bearer token (not yet checked).
    Bearer(&'a str),
    /// A `Bearer` header whose value cannot be a token.
    Malformed(&'static str),
}

/// Reads a bearer token from an `Authorization` header value (RFC 6750:
/// the scheme is case-insensitive, the token is `b64token` characters).
pub(crate) fn bearer(header: Option<&[u8]>) -> Presented<'_> {
    let Some(header) = header else {
        return Presented::Nothing;
    };
    let Ok(text) = std::str::from_utf8(header) else {
        return Presented::Malformed("the Authorization header is not text");
    };
    let Some((scheme, rest)) = text.split_once(' ') else {
        return if text.eq_ignore_ascii_case("bearer") {
            Presented::Malformed("the bearer token is empty")
        } else {
            Presented::Nothing
        };
    };
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Presented::Nothing;
    }
    let token = rest.trim_matches(' ');
    if token.is_empty() {
        return Presented::Malformed("the bearer token is empty");
    }
    if token.len() > MAX_TOKEN_BYTES {
        return Presented::Malformed("the bearer token is too long");
    }
    let b64token = |c: char| c.is_ascii_alphanumeric() || "-._~+/=".contains(c);
    if !token.chars().all(b64token) {
        return Presented::Malformed("the bearer token has characters a token cannot have");
    }
    Presented::Bearer(token)
}

/// A JWT's header and claims, read but not verified.
#[derive(Debug)]
pub(crate) struct UnverifiedJwt {
    /// The header's `alg`.
    pub(crate) alg: String,
    /// The header's `kid`, if any.
    pub(crate) kid: Option<String>,
    /// The claims.
    pub(crate) claims: JsonObject,
}

/// Why a token is not a readable JWT.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum JwtShapeError {
    /// Not three dot-separated parts.
    #[error("the token is not a JWS in compact form (three dot-separated parts)")]
    Parts,
    /// A part is not unpadded base64url.
    #[error("the token's {0} is not base64url")]
    Base64(&'static str),
    /// A part is not a JSON object.
    #[error("the token's {0} is not a JSON object")]
    Json(&'static str),
    /// The header has no `alg` string.
    #[error("the token's header has no `alg`")]
    NoAlg,
    /// The header names a `kid` that is not a string.
    #[error("the token's `kid` is not a string")]
    Kid,
    /// The token is encrypted or carries `crit` extensions.
    #[error("the token uses header parameter `{0}`, which is not supported")]
    Unsupported(&'static str),
}

/// Reads a compact JWS's header and claims.
pub(crate) fn read_jwt(token: &str) -> Result<UnverifiedJwt, JwtShapeError> {
    let mut parts = token.split('.');
    let (Some(header), Some(payload), Some(signature), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(JwtShapeError::Parts);
    };
    let header = json_object(header, "header")?;
    let claims = json_object(payload, "payload")?;
    URL_SAFE_NO_PAD
        .decode(signature)
        .map_err(|_| JwtShapeError::Base64("signature"))?;
    for unsupported in ["crit", "enc", "zip"] {
        if header.contains_key(unsupported) {
            return Err(JwtShapeError::Unsupported(unsupported));
        }
    }
    let alg = match header.get("alg") {
        Some(Value::String(alg)) => alg.clone(),
        _ => return Err(JwtShapeError::NoAlg),
    };
    let kid = match header.get("kid") {
        None | Some(Value::Null) => None,
        Some(Value::String(kid)) => Some(kid.clone()),
        Some(_) => return Err(JwtShapeError::Kid),
    };
    Ok(UnverifiedJwt { alg, kid, claims })
}

fn json_object(part: &str, what: &'static str) -> Result<JsonObject, JwtShapeError> {
    let bytes = URL_SAFE_NO_PAD
        .decode(part)
        .map_err(|_| JwtShapeError::Base64(what))?;
    match serde_json::from_slice(&bytes) {
        Ok(Value::Object(object)) => Ok(object),
        _ => Err(JwtShapeError::Json(what)),
    }
}

#[cfg(test)]
mod tests {
    use super::{JwtShapeError, Presented, bearer, read_jwt};

    #[test]
    fn reads_the_bearer_scheme_only() {
        assert_eq!(bearer(None), Presented::Nothing);
        assert_eq!(bearer(Some(b"Basic abc")), Presented::Nothing);
        assert_eq!(bearer(Some(b"bearer a.b.c")), Presented::Bearer("a.b.c"));
        assert!(matches!(bearer(Some(b"Bearer ")), Presented::Malformed(_)));
        assert!(matches!(
            bearer(Some(b"Bearer a b")),
            Presented::Malformed(_)
        ));
    }

    #[test]
    fn reads_header_and_claims() {
        // {"alg":"RS256","kid":"k1"} . {"iss":"x"} . "sig"
        let jwt = read_jwt("eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0.eyJpc3MiOiJ4In0.c2ln").unwrap();
        assert_eq!(jwt.alg, "RS256");
        assert_eq!(jwt.kid.as_deref(), Some("k1"));
        assert_eq!(jwt.claims["iss"], "x");
        assert_eq!(read_jwt("a.b").unwrap_err(), JwtShapeError::Parts);
        assert_eq!(
            read_jwt("e30.e30.!!").unwrap_err(),
            JwtShapeError::Base64("signature")
        );
    }
}
