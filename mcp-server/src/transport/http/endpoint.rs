//! The MCP endpoint's one middleware, in front of rmcp's service: every
//! check and rewrite a request and its response go through, in one pass.
//!
//! A request whose `Host` or `Origin` is not allowed is refused first
//! ([`rebinding`](super::rebinding)). For a `POST` of JSON, the body is
//! read once (413 over the size limit), a
//! 2025-11-25 `params.task` parked for rmcp's parser, and the request
//! admitted by the [limits](super::limits). Its JSON-RPC envelope is read
//! only where it decides something (an `initialize` without a session, a
//! refusal's id, the shared sessions' gate); a body rmcp refuses is
//! answered "Parse error" when it is not JSON, "Invalid Request" when it
//! is (HTTP 400 both). A `POST` of a session gets the means to close its
//! SSE stream ([`streams`](super::streams)).
//! On the way back, one adapter over the response body restores parked
//! executions in its events, names the stream from its first event, and
//! holds the request's place in the limits until the body is sent. A
//! `DELETE` that ends a session is answered `204 No Content` (rmcp says
//! `202 Accepted`, which clients such as the Python SDK report as a
//! failure).
//!
//! It is a hand-written [`tower::Layer`] rather than a stack of
//! `axum::middleware::from_fn` layers: each of those boxes the rest of the
//! stack per request, which a call over loopback HTTP measurably pays.

mod body;

use std::borrow::Cow;
use std::convert::Infallible;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::body::Body;
use axum::extract::Request;
use axum::response::{IntoResponse, Response};
use http::StatusCode;
use mcp_core::BoxFuture;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;

use self::body::Tap;
use super::jsonrpc::{Envelope, JsonRpcRequest, invalid_request, is_json, parse_error};
use super::limits::{Held, Limits, Ticket};
use super::rebinding::Rebinding;
use super::streams::{self, StreamNamer};
use crate::protocol::v2025::park_in::park_in_bytes;
use crate::protocol::v2025::park_out::restore_in_json;

/// What the endpoint's middleware needs, shared by every request.
pub(super) struct Endpoint {
    /// The `Host` and `Origin` a request must carry.
    pub(super) rebinding: Rebinding,
    pub(super) limits: Arc<Limits>,
    /// rmcp's sessions, whose SSE streams a handler may close.
    pub(super) sessions: Arc<LocalSessionManager>,
    /// Whether sessions are shared through a store (their streams are then
    /// closed in the response body).
    pub(super) shared: bool,
    pub(super) max_body_bytes: usize,
}

/// The [`tower::Layer`] of the endpoint's middleware.
#[derive(Clone)]
pub(super) struct EndpointLayer(pub(super) Arc<Endpoint>);

impl<S> tower::Layer<S> for EndpointLayer {
    type Service = EndpointService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        EndpointService {
            inner,
            endpoint: self.0.clone(),
        }
    }
}

/// The endpoint's middleware around `S` (rmcp's service).
#[derive(Clone)]
pub(super) struct EndpointService<S> {
    inner: S,
    endpoint: Arc<Endpoint>,
}

impl<S> tower::Service<Request> for EndpointService<S>
where
    S: tower::Service<Request, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<Response, Infallible>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        // The service polled ready is the one that serves; a clone waits
        // for the next request.
        let waiting = self.inner.clone();
        let ready = std::mem::replace(&mut self.inner, waiting);
        let endpoint = self.endpoint.clone();
        Box::pin(async move { Ok(endpoint.serve(ready, request).await) })
    }
}

impl Endpoint {
    /// Serves `request` through `inner`, with the checks and rewrites of the
    /// module docs.
    async fn serve<S>(&self, inner: S, request: Request) -> Response
    where
        S: tower::Service<Request, Response = Response, Error = Infallible>,
    {
        if let Some(refused) = self.rebinding.refusal(request.uri(), request.headers()) {
            return refused;
        }
        let session = super::session_id(request.headers()).map(Arc::<str>::from);
        if request.method() == http::Method::POST && is_json(request.headers()) {
            return self.serve_message(inner, session, request).await;
        }
        let method = request.method().clone();
        let ticket = self.limits.admit_other(session, &method);
        let mut response = call(inner, request).await;
        let (status, named) = outcome(&ticket, &response);
        let held = self.limits.settle(ticket, status, named).await;
        if method == http::Method::DELETE && response.status() == StatusCode::ACCEPTED {
            *response.status_mut() = StatusCode::NO_CONTENT;
        }
        respond(response, None, held).await
    }

    /// Serves a `POST` of JSON.
    async fn serve_message<S>(
        &self,
        inner: S,
        session: Option<Arc<str>>,
        request: Request,
    ) -> Response
    where
        S: tower::Service<Request, Response = Response, Error = Infallible>,
    {
        let (mut parts, body) = request.into_parts();
        let Ok(bytes) = axum::body::to_bytes(body, self.max_body_bytes).await else {
            return (
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "the request body is larger than {} bytes",
                    self.max_body_bytes
                ),
            )
                .into_response();
        };
        // The envelope is read only where it decides something: whether a
        // request without a session is an `initialize`, and what the shared
        // sessions' gate is told; elsewhere rmcp's own parse is the only one.
        let needs_envelope = (session.is_none() && self.limits.keeps_sessions()) || self.shared;
        let envelope = match needs_envelope.then(|| Envelope::read(&bytes)) {
            None => None,
            Some(Ok(envelope)) => Some(envelope),
            Some(Err(error)) => return parse_error(&error),
        };
        let method = envelope
            .as_ref()
            .and_then(|envelope| envelope.method.as_deref());
        let admitted = self
            .limits
            .admit_message(session.clone(), method == Some("initialize"), || {
                Envelope::read(&bytes).is_ok_and(|envelope| envelope.id.is_some())
            })
            .await;
        let ticket = match admitted {
            Ok(ticket) => ticket,
            Err(refusal) => return self.limits.refusal_answer(refusal, request_id(&bytes)),
        };
        parts.headers.remove(http::header::CONTENT_LENGTH);
        if let Some(envelope) = envelope.filter(|_| self.shared) {
            // For the shared sessions' gate, inside this layer.
            parts.extensions.insert(JsonRpcRequest {
                id: envelope.id.unwrap_or_default(),
                method: envelope.method.map(Cow::into_owned),
            });
        }
        // Kept for the answer to a body rmcp refuses (a cheap clone).
        let kept = bytes.clone();
        let mut request = Request::from_parts(parts, Body::from(park_in_bytes(bytes)));
        let mut namer = None;
        let mut end_in_body = None;
        if let Some(session) = session {
            if self.shared {
                end_in_body = Some(streams::end_in_body(&mut request));
            } else {
                namer = Some(StreamNamer::attach(
                    &mut request,
                    self.sessions.clone(),
                    session,
                ));
            }
        }
        let response = call(inner, request).await;
        let (status, named) = outcome(&ticket, &response);
        let held = self.limits.settle(ticket, status, named).await;
        if response.status() == StatusCode::UNSUPPORTED_MEDIA_TYPE {
            return match Envelope::read(&kept) {
                Ok(envelope) => invalid_request(envelope.id.unwrap_or_default(), response).await,
                Err(error) => parse_error(&error),
            };
        }
        let response = respond(response, namer, held).await;
        match end_in_body {
            Some(end_in_body) => end_in_body(response),
            None => response,
        }
    }
}

/// The JSON-RPC id of a `POST` body (`null` when it has none or is not
/// JSON).
fn request_id(body: &[u8]) -> serde_json::Value {
    Envelope::read(body)
        .ok()
        .and_then(|envelope| envelope.id)
        .unwrap_or_default()
}

/// What the limits settle `ticket` by: the response's status and the
/// session id it names, if the request may open one.
fn outcome(ticket: &Ticket, response: &Response) -> (StatusCode, Option<Arc<str>>) {
    let named = ticket
        .opens_session()
        .then(|| super::session_id(response.headers()).map(Arc::<str>::from))
        .flatten();
    (response.status(), named)
}

/// Calls `inner`, whose `poll_ready` the router has seen through.
async fn call<S>(mut inner: S, request: Request) -> Response
where
    S: tower::Service<Request, Response = Response, Error = Infallible>,
{
    match inner.call(request).await {
        Ok(response) => response,
        Err(never) => match never {},
    }
}

/// `response` with its parked executions restored (in SSE events or a JSON
/// body), its stream named by `namer`, and `held` kept until its body is
/// sent.
async fn respond(response: Response, namer: Option<StreamNamer>, held: Option<Held>) -> Response {
    if streams::is_sse(&response) {
        return Tap::events(response, namer, held);
    }
    let json = response
        .headers()
        .get(http::header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("application/json"));
    let response = if json {
        let (mut parts, body) = response.into_parts();
        let bytes = match axum::body::to_bytes(body, usize::MAX).await {
            Ok(bytes) => restore_in_json(bytes),
            Err(error) => {
                tracing::error!(%error, "cannot read a response body");
                return Response::from_parts(parts, Body::empty());
            }
        };
        parts.headers.remove(http::header::CONTENT_LENGTH);
        Response::from_parts(parts, Body::from(bytes))
    } else {
        response
    };
    match held {
        Some(held) => Tap::hold(response, held),
        None => response,
    }
}
