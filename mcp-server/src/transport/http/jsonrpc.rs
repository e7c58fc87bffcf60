//! The JSON-RPC side of the endpoint: what of a `POST` body it reads, and
//! the JSON-RPC errors (with their HTTP status) it answers.

use axum::response::{IntoResponse, Response};
use http::{StatusCode, header};
use std::borrow::Cow;

use serde::Deserialize;
use serde_json::{Value, json};

/// JSON-RPC "Parse error": the body is not JSON.
const PARSE_ERROR: i64 = -32700;
/// JSON-RPC "Invalid Request": JSON, but not a JSON-RPC message.
const INVALID_REQUEST: i64 = -32600;
/// How long a refused client is asked to wait before retrying, in seconds.
const RETRY_AFTER_SECS: &str = "5";
/// The parts of a JSON-RPC message the endpoint looks at (the method
/// borrowed from the body).
#[derive(Debug, Default, Deserialize, PartialEq)]
pub(super) struct Envelope<'a> {
    /// The id (`None` for a notification: absent or `null`).
    #[serde(default)]
    pub(super) id: Option<Value>,
    #[serde(default, borrow)]
    pub(super) method: Option<Cow<'a, str>>,
}

impl<'a> Envelope<'a> {
    /// The id and method of a `POST` body, or why it is not JSON (answered
    /// with [`parse_error`]). JSON that is not one JSON-RPC message (a
    /// batch, a method that is not text) has neither.
    pub(super) fn read(body: &'a [u8]) -> Result<Self, serde_json::Error> {
        let object = body.trim_ascii_start().starts_with(b"{");
        if object && let Ok(envelope) = serde_json::from_slice::<Self>(body) {
            return Ok(envelope);
        }
        // The slow path, for bodies the direct read refuses: not JSON, or
        // JSON of another shape (duplicate keys read as the last one).
        serde_json::from_slice::<Value>(body).map(|value| Self::of_value(&value))
    }

    /// The envelope of a message read whole (nothing when its method is
    /// not text).
    fn of_value(value: &Value) -> Self {
        if !value.is_object() {
            return Self::default();
        }
        let method = value.get("method");
        if method.is_some_and(|method| !method.is_string()) {
            return Self::default();
        }
        Self {
            id: value.get("id").filter(|id| !id.is_null()).cloned(),
            method: method
                .and_then(Value::as_str)
                .map(|method| Cow::Owned(method.to_owned())),
        }
    }
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

/// The answer to a body that is not JSON: "Parse error", HTTP 400.
pub(super) fn parse_error(error: &serde_json::Error) -> Response {
    jsonrpc_error(
        StatusCode::BAD_REQUEST,
        Value::Null,
        PARSE_ERROR,
        &format!("Parse error: the request body is not JSON ({error})"),
    )
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_json_as_rmcp_does() {
        let mut headers = http::HeaderMap::new();
        headers.insert(
            header::CONTENT_TYPE,
            http::HeaderValue::from_static("Application/JSON; charset=utf-8"),
        );
        assert!(is_json(&headers));
        headers.insert(
            header::CONTENT_TYPE,
            http::HeaderValue::from_static("text/plain"),
        );
        assert!(!is_json(&headers));
    }

    #[test]
    fn reads_the_id_and_method_of_a_message_and_nothing_of_other_json() {
        let call = br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"t"}}"#;
        assert_eq!(
            Envelope::read(call).unwrap(),
            Envelope {
                id: Some(json!(7)),
                method: Some(Cow::Borrowed("tools/call"))
            }
        );
        let duplicate = br#"{"id":1,"method":"a","method":"ping"}"#;
        assert_eq!(
            Envelope::read(duplicate).unwrap().method.as_deref(),
            Some("ping")
        );
        for other in [
            &br#"[{"id":1,"method":"ping"}]"#[..],
            br#"{"id":1,"method":5}"#,
            b"3",
        ] {
            assert_eq!(Envelope::read(other).unwrap(), Envelope::default());
        }
    }

    #[test]
    fn a_body_that_is_not_json_is_a_parse_error() {
        let error = Envelope::read(b"{\"id\": 1,").unwrap_err();
        assert_eq!(parse_error(&error).status(), StatusCode::BAD_REQUEST);
    }
}
