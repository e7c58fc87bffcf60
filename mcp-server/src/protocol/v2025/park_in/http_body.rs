//! The JSON body of an HTTP `POST` with `params.task` parked before rmcp
//! reads it.

use axum::body::Body;
use axum::extract::Request;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::StatusCode;

use super::park_in_bytes;

/// Parks `params.task` in a `POST` body of JSON; a body over `limit` bytes
/// is answered 413 here.
pub(crate) async fn park_in_http_request(limit: usize, request: Request, next: Next) -> Response {
    let json = request
        .headers()
        .get(http::header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("application/json"));
    if request.method() != http::Method::POST || !json {
        return next.run(request).await;
    }
    let (mut parts, body) = request.into_parts();
    let bytes = match axum::body::to_bytes(body, limit).await {
        Ok(bytes) => bytes,
        Err(_) => {
            return (
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("the request body is larger than {limit} bytes"),
            )
                .into_response();
        }
    };
    let bytes = park_in_bytes(bytes);
    parts.headers.remove(http::header::CONTENT_LENGTH);
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}
