//! The optional bearer-token check.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::{StatusCode, header};

/// The token every request must present.
#[derive(Clone)]
pub(crate) struct BearerToken(Arc<str>);

impl std::fmt::Debug for BearerToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BearerToken(..)")
    }
}

impl BearerToken {
    pub(crate) fn new(token: &str) -> Self {
        Self(Arc::from(token))
    }

    fn accepts(&self, request: &Request) -> bool {
        let presented = request
            .headers()
            .get(header::AUTHORIZATION)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.strip_prefix("Bearer "));
        presented.is_some_and(|presented| {
            equal_in_constant_time(presented.as_bytes(), self.0.as_bytes())
        })
    }
}

/// Lets the request through when it carries the token; 401 otherwise.
pub(crate) async fn require_bearer(
    State(token): State<BearerToken>,
    request: Request,
    next: Next,
) -> Response {
    if token.accepts(&request) {
        next.run(request).await
    } else {
        (
            StatusCode::UNAUTHORIZED,
            [(header::WWW_AUTHENTICATE, "Bearer")],
            "Unauthorized: missing or invalid bearer token",
        )
            .into_response()
    }
}

/// Compares without an early exit, so timing does not reveal the prefix.
fn equal_in_constant_time(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::equal_in_constant_time;

    #[test]
    fn compares_exactly() {
        assert!(equal_in_constant_time(b"secret", b"secret"));
        assert!(!equal_in_constant_time(b"secret", b"secreT"));
        assert!(!equal_in_constant_time(b"secret", b"secret2"));
        assert!(!equal_in_constant_time(b"", b"x"));
    }
}
