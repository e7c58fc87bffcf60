//! The JSON-RPC side of the endpoint's limits: what of a `POST` body they
//! read, and the JSON-RPC errors (with their HTTP status) they answer.

use axum::response::{IntoResponse, Response};
use http::{StatusCode, header};
use serde::Deserialize;
use serde_json::{Value, json};

/// JSON-RPC "Parse error": the body is not JSON.
pub(super) const PARSE_ERROR: i64 = -32700;
/// JSON-RPC "Invalid Request": JSON, but not a JSON-RPC message.
const INVALID_REQUEST: i64 = -32600;
/// How long a refused client is asked to wait before retrying, in seconds.
const RETRY_AFTER_SECS: &str = "5";
/// The parts of a JSON-RPC message the limits look at.
#[derive(Deserialize)]
pub(super) struct Envelope {
    #[serde(default)]
    pub(super) id: Option<Value>,
    #[serde(default)]
    pub(crate) method: Option<String>,
}

/// The id and method of a JSON-RPC `POST`, put in the request's extensions
/// for the layers inside this one.
#[derive(Debug, Clone)]
#[cfg_attr(not(feature = "redis"), allow(dead_code))]
pub(crate) struct JsonRpcRequest {
    /// The request's id (`null` for a notification or a batch).
    pub(crate) id: Value,
    /// The method, if the body names one.
    pub(crate) method: Option<String>,
}

/// rmcp answers a JSON body it cannot read as a JSON-RPC message with 415
/// and its deserializer's text; the specification names -32600 and 400.
pub(super) async fn invalid_request(id: Value, response: Response) -> Response {
    let detail = axum::body::to_bytes(response.into_body(), 64 * 1024)
        .await
        .ok()
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .unwrap_or_default();
    let detail = detail
        .strip_prefix("fail to deserialize request body ")
        .unwrap_or(&detail);
    jsonrpc_error(
        StatusCode::BAD_REQUEST,
        id,
        INVALID_REQUEST,
        &format!("Invalid Request: the body is not a valid JSON-RPC message ({detail})"),
    )
}

/// Whether the request says its body is JSON (as rmcp checks it).
pub(super) fn is_json(headers: &http::HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| {
            let essence = value.split_once(';').map_or(value, |(essence, _)| essence);
            essence.trim().eq_ignore_ascii_case("application/json")
        })
}

/// A JSON-RPC error response with `status`.
pub(crate) fn jsonrpc_error(status: StatusCode, id: Value, code: i64, message: &str) -> Response {
    let body = json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}});
    let mut response = (status, axum::Json(body)).into_response();
    if matches!(
        status,
        StatusCode::SERVICE_UNAVAILABLE | StatusCode::TOO_MANY_REQUESTS
    ) {
        response.headers_mut().insert(
            header::RETRY_AFTER,
            http::HeaderValue::from_static(RETRY_AFTER_SECS),
        );
    }
    response
}
