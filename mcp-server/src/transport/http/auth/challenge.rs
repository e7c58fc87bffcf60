//! The refusals of a protected resource (RFC 6750 §3 with RFC 9728's
//! `resource_metadata`): 401 without a token or with an invalid one, 403
//! without a needed scope, 503 when the issuer's keys cannot be fetched.

use axum::response::{IntoResponse, Response};
use http::{HeaderValue, StatusCode, header};
use serde_json::json;

/// A refused request, as its response.
#[derive(Debug)]
pub(crate) enum Challenge<'a> {
    /// No token: 401 naming the metadata and the scopes to ask for.
    Missing { scopes: &'a [String] },
    /// A malformed or invalid token: 401 `invalid_token`.
    InvalidToken { description: &'a str },
    /// A valid token without a needed scope: 403 `insufficient_scope`.
    InsufficientScope { scopes: &'a [String] },
    /// The token cannot be checked now: 503.
    Unavailable { description: &'a str },
}

impl Challenge<'_> {
    /// The response, pointing at the metadata document `metadata_url`.
    pub(crate) fn response(&self, metadata_url: &str) -> Response {
        let metadata = format!("resource_metadata=\"{}\"", quoted(metadata_url));
        let (status, params, error, description) = match self {
            Self::Missing { scopes } => {
                let mut params = vec![metadata];
                if !scopes.is_empty() {
                    params.push(format!("scope=\"{}\"", quoted(&scopes.join(" "))));
                }
                let description = "an access token is required".to_owned();
                (
                    StatusCode::UNAUTHORIZED,
                    params,
                    "unauthorized",
                    description,
                )
            }
            Self::InvalidToken { description } => (
                StatusCode::UNAUTHORIZED,
                vec![
                    "error=\"invalid_token\"".to_owned(),
                    format!("error_description=\"{}\"", quoted(description)),
                    metadata,
                ],
                "invalid_token",
                (*description).to_owned(),
            ),
            Self::InsufficientScope { scopes } => {
                let needed = scopes.join(" ");
                (
                    StatusCode::FORBIDDEN,
                    vec![
                        "error=\"insufficient_scope\"".to_owned(),
                        format!("scope=\"{}\"", quoted(&needed)),
                        metadata,
                    ],
                    "insufficient_scope",
                    format!("the token lacks scope `{needed}`"),
                )
            }
            Self::Unavailable { description } => {
                let body =
                    json!({"error": "temporarily_unavailable", "error_description": description});
                return (StatusCode::SERVICE_UNAVAILABLE, axum::Json(body)).into_response();
            }
        };
        let challenge = format!("Bearer {}", params.join(", "));
        let mut response = (
            status,
            axum::Json(json!({"error": error, "error_description": description})),
        )
            .into_response();
        if let Ok(value) = HeaderValue::from_str(&challenge) {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, value);
        }
        response
    }
}

/// `text` made safe inside a quoted-string: no quote, backslash or
/// control character.
fn quoted(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '"' | '\\' => '\'',
            c if c.is_control() || !c.is_ascii() => '?',
            c => c,
        })
        .collect()
}
