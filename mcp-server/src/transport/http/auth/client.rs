//! The HTTP client that talks to authorization servers: key sets,
//! introspection and token exchange.

use std::time::Duration;

use bytes::Bytes;
use url::Url;

use super::error::AuthError;

/// A client with a 10 s timeout that follows no redirects, speaking TLS with
/// rustls on the process's default crypto provider (ring's, installed when
/// the program has installed none).
pub(crate) fn authorization_client() -> Result<reqwest::Client, AuthError> {
    if rustls::crypto::CryptoProvider::get_default().is_none() {
        // Losing a race with another installer leaves theirs: also fine.
        let _ = rustls::crypto::ring::default_provider().install_default();
    }
    reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|error| AuthError::Client {
            reason: error.to_string(),
        })
}

/// POSTs the URL-encoded `form` to an authorization server's `endpoint` as
/// the client `client_id` (HTTP Basic) and reads the whole answer.
pub(crate) async fn post_form(
    client: &reqwest::Client,
    endpoint: &Url,
    (client_id, client_secret): (&str, &str),
    form: String,
) -> Result<(reqwest::StatusCode, Bytes), reqwest::Error> {
    let response = client
        .post(endpoint.clone())
        .basic_auth(client_id, Some(client_secret))
        .header(
            http::header::CONTENT_TYPE,
            "application/x-www-form-urlencoded",
        )
        .header(http::header::ACCEPT, "application/json")
        .body(form)
        .send()
        .await?;
    let status = response.status();
    Ok((status, response.bytes().await?))
}
