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

    mod properties {
        use base64::Engine;
        use base64::engine::general_purpose::URL_SAFE_NO_PAD;
        use proptest::prelude::*;
        use serde_json::Value;

        use super::super::{MAX_TOKEN_BYTES, Presented, bearer, read_jwt};

        fn json_value() -> impl Strategy<Value = Value> {
            let leaf = prop_oneof![
                Just(Value::Null),
                any::<bool>().prop_map(Value::from),
                any::<i64>().prop_map(Value::from),
                ".{0,12}".prop_map(Value::from),
            ];
            leaf.prop_recursive(3, 24, 4, |inner| {
                prop_oneof![
                    prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
                    prop::collection::btree_map("alg|kid|iss|crit|[a-z]{1,4}", inner, 0..4)
                        .prop_map(|map| Value::Object(map.into_iter().collect())),
                ]
            })
        }

        proptest! {
            #[test]
            fn any_header_bytes_are_read_without_panicking(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
                let _ = bearer(Some(&bytes));
            }

            #[test]
            fn any_text_is_read_without_panicking(text in ".{0,300}") {
                let _ = read_jwt(&text);
            }

            #[test]
            fn dot_separated_garbage_is_refused(parts in prop::collection::vec("[A-Za-z0-9_=+/-]{0,40}", 0..6)) {
                let token = parts.join(".");
                if let Ok(jwt) = read_jwt(&token) {
                    // Only three decodable parts with JSON objects get through.
                    prop_assert_eq!(parts.len(), 3);
                    let header: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(&parts[0]).unwrap()).unwrap();
                    prop_assert_eq!(header.get("alg"), Some(&Value::String(jwt.alg)));
                }
            }

            #[test]
            fn wrong_json_is_refused_not_trusted(header in json_value(), claims in json_value()) {
                let token = format!(
                    "{}.{}.",
                    URL_SAFE_NO_PAD.encode(header.to_string()),
                    URL_SAFE_NO_PAD.encode(claims.to_string())
                );
                match read_jwt(&token) {
                    Ok(jwt) => {
                        prop_assert_eq!(Some(&Value::String(jwt.alg.clone())), header.get("alg"));
                        prop_assert!(claims.is_object());
                    }
                    Err(_) => prop_assert!(
                        !header.is_object()
                            || !claims.is_object()
                            || !header.get("alg").is_some_and(Value::is_string)
                            || header.get("kid").is_some_and(|k| !k.is_string() && !k.is_null())
                            || ["crit", "enc", "zip"].iter().any(|key| header.get(key).is_some())
                    ),
                }
            }

            #[test]
            fn huge_tokens_are_refused_unread(extra in 1usize..50_000) {
                let header = format!("Bearer {}", "a".repeat(MAX_TOKEN_BYTES + extra));
                prop_assert!(matches!(bearer(Some(header.as_bytes())), Presented::Malformed(_)));
            }
        }
    }
}
