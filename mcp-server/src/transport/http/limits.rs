//! Keeps the endpoint bounded under abuse: a cap on live sessions, a cap on
//! the requests in flight per session, and JSON-RPC errors (HTTP 400) for
//! bodies that are not JSON or not a JSON-RPC message.
//!
//! Idle sessions are ended by rmcp's session worker (its keep-alive), which
//! removes them from the session manager, so their id then answers 404.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use axum::body::Body;
use axum::extract::Request;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use http::{StatusCode, header};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use serde::Deserialize;
use serde_json::{Value, json};

/// JSON-RPC "Parse error": the body is not JSON.
const PARSE_ERROR: i64 = -32700;
/// JSON-RPC "Invalid Request": JSON, but not a JSON-RPC message.
const INVALID_REQUEST: i64 = -32600;
/// The implementation-defined server error used for "over a limit".
const SERVER_BUSY: i64 = -32000;
/// How long a refused client is asked to wait before retrying, in seconds.
const RETRY_AFTER_SECS: &str = "5";

/// The limits of one endpoint and what they count.
pub(super) struct Limits {
    sessions: Arc<LocalSessionManager>,
    stateless: bool,
    max_sessions: usize,
    max_pending: usize,
    max_body_bytes: usize,
    /// `initialize` requests between the cap check and their session's
    /// creation, counted against the cap so concurrent ones cannot overshoot.
    initializing: AtomicUsize,
    /// Set while new sessions are refused, so the refusal is logged once.
    refusing: AtomicBool,
    /// Requests in flight per session id (absent when none).
    pending: Mutex<HashMap<Arc<str>, usize>>,
}

impl Limits {
    pub(super) fn new(
        sessions: Arc<LocalSessionManager>,
        stateless: bool,
        max_sessions: usize,
        max_pending: usize,
        max_body_bytes: usize,
    ) -> Self {
        Self {
            sessions,
            stateless,
            max_sessions,
            max_pending,
            max_body_bytes,
            initializing: AtomicUsize::new(0),
            refusing: AtomicBool::new(false),
            pending: Mutex::new(HashMap::new()),
        }
    }

    /// Reserves room for one more session, or `None` at the cap.
    async fn reserve_session(self: &Arc<Self>) -> Option<SessionReservation> {
        let initializing = self.initializing.fetch_add(1, Ordering::SeqCst) + 1;
        let reservation = SessionReservation(self.clone());
        let live = self.sessions.sessions.read().await.len();
        if live + initializing > self.max_sessions {
            if !self.refusing.swap(true, Ordering::SeqCst) {
                tracing::warn!(
                    limit = self.max_sessions,
                    live,
                    "refusing new sessions: the live-session limit is reached \
                     (idle sessions expire, DELETE ends one)"
                );
            }
            return None;
        }
        if self.refusing.swap(false, Ordering::SeqCst) {
            tracing::info!(live, "accepting new sessions again");
        }
        Some(reservation)
    }

    /// Counts one more request in flight for `session`, or `None` at the cap.
    fn begin_request(self: &Arc<Self>, session: Arc<str>) -> Option<PendingRequest> {
        let mut pending = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
        let count = pending.entry(session.clone()).or_insert(0);
        if *count >= self.max_pending {
            // Debug, not warn: a misbehaving client could flood the log.
            tracing::debug!(
                session = %session,
                limit = self.max_pending,
                "refused a request: the session has too many requests in flight"
            );
            return None;
        }
        *count += 1;
        Some(PendingRequest {
            limits: self.clone(),
            session,
        })
    }
}

/// Room for one session while its `initialize` request is served.
struct SessionReservation(Arc<Limits>);

impl Drop for SessionReservation {
    fn drop(&mut self) {
        self.0.initializing.fetch_sub(1, Ordering::SeqCst);
    }
}

/// One request in flight; released when its response body is dropped.
struct PendingRequest {
    limits: Arc<Limits>,
    session: Arc<str>,
}

impl Drop for PendingRequest {
    fn drop(&mut self) {
        let mut pending = self
            .limits
            .pending
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = pending.get_mut(&self.session) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                pending.remove(&self.session);
            }
        }
    }
}

/// The parts of a JSON-RPC message the limits look at.
#[derive(Deserialize)]
struct Envelope {
    #[serde(default)]
    id: Option<Value>,
    #[serde(default)]
    method: Option<String>,
}

/// The id and method of a JSON-RPC `POST`, put in the request's extensions
/// for the layers inside this one.
#[derive(Debug, Clone)]
#[cfg_attr(not(feature = "redis"), allow(dead_code))]
pub(super) struct JsonRpcRequest {
    /// The request's id (`null` for a notification or a batch).
    pub(super) id: Value,
    /// The method, if the body names one.
    pub(super) method: Option<String>,
}

/// Applies the limits to a `POST` of JSON (a body over the size limit is
/// answered 413); other requests pass through.
pub(super) async fn enforce(limits: Arc<Limits>, request: Request, next: Next) -> Response {
    if request.method() != http::Method::POST || !is_json(request.headers()) {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, limits.max_body_bytes).await else {
        return (
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the request body is larger than {} bytes",
                limits.max_body_bytes
            ),
        )
            .into_response();
    };
    let value: Value = match serde_json::from_slice(&bytes) {
        Ok(value) => value,
        Err(error) => {
            return jsonrpc_error(
                StatusCode::BAD_REQUEST,
                Value::Null,
                PARSE_ERROR,
                &format!("Parse error: the request body is not JSON ({error})"),
            );
        }
    };
    let envelope = serde_json::from_value::<Envelope>(value).ok();
    let id = envelope
        .as_ref()
        .and_then(|envelope| envelope.id.clone())
        .unwrap_or(Value::Null);
    let method = envelope.and_then(|envelope| envelope.method);
    let session = super::session_id(&parts.headers).map(Arc::<str>::from);
    let mut request = Request::from_parts(parts, Body::from(bytes));
    request.extensions_mut().insert(JsonRpcRequest {
        id: id.clone(),
        method: method.clone(),
    });

    let mut reservation = None;
    let mut pending = None;
    match (&session, method.as_deref()) {
        (None, Some("initialize")) if !limits.stateless => {
            reservation = limits.reserve_session().await;
            if reservation.is_none() {
                return jsonrpc_error(
                    StatusCode::SERVICE_UNAVAILABLE,
                    id,
                    SERVER_BUSY,
                    &format!(
                        "Server busy: {} live sessions is this server's limit; \
                         close unused sessions or retry later",
                        limits.max_sessions
                    ),
                );
            }
        }
        (Some(session), Some(_)) if id != Value::Null => {
            pending = limits.begin_request(session.clone());
            if pending.is_none() {
                return jsonrpc_error(
                    StatusCode::TOO_MANY_REQUESTS,
                    id,
                    SERVER_BUSY,
                    &format!(
                        "Too many requests: {} requests in flight is this \
                         server's limit per session; retry when one completes",
                        limits.max_pending
                    ),
                );
            }
        }
        _ => {}
    }
    let response = next.run(request).await;
    drop(reservation);
    if response.status() == StatusCode::UNSUPPORTED_MEDIA_TYPE {
        return invalid_request(id, response).await;
    }
    match pending {
        None => response,
        Some(pending) => {
            let (parts, body) = response.into_parts();
            let body = body.into_data_stream().map(move |chunk| {
                let _held = &pending;
                chunk
            });
            Response::from_parts(parts, Body::from_stream(body))
        }
    }
}

/// rmcp answers a JSON body it cannot read as a JSON-RPC message with 415
/// and its deserializer's text; the specification names -32600 and 400.
async fn invalid_request(id: Value, response: Response) -> Response {
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
fn is_json(headers: &http::HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| {
            let essence = value.split_once(';').map_or(value, |(essence, _)| essence);
            essence.trim().eq_ignore_ascii_case("application/json")
        })
}

/// A JSON-RPC error response with `status`.
pub(super) fn jsonrpc_error(status: StatusCode, id: Value, code: i64, message: &str) -> Response {
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

    #[tokio::test]
    async fn the_pending_count_is_released_with_the_request() {
        let limits = Arc::new(Limits::new(
            Arc::new(LocalSessionManager::default()),
            false,
            1,
            2,
            1024,
        ));
        let session: Arc<str> = Arc::from("s");
        let first = limits.begin_request(session.clone());
        let second = limits.begin_request(session.clone());
        assert!(first.is_some() && second.is_some());
        assert!(limits.begin_request(session.clone()).is_none());
        drop(first);
        assert!(limits.begin_request(session.clone()).is_some());
        drop(second);
        assert!(limits.pending.lock().unwrap().is_empty());
    }

    #[tokio::test]
    async fn concurrent_initializations_count_against_the_session_cap() {
        let limits = Arc::new(Limits::new(
            Arc::new(LocalSessionManager::default()),
            false,
            1,
            1,
            1024,
        ));
        let first = limits.reserve_session().await;
        assert!(first.is_some());
        assert!(limits.reserve_session().await.is_none());
        drop(first);
        assert!(limits.reserve_session().await.is_some());
    }
}
