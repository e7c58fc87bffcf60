//! The gate in front of a replica sharing its sessions: every request of a
//! session renews the session's expiry in Redis; a session that expired or
//! was ended on another replica is ended here too (so rmcp answers 404); a
//! new session is refused while Redis is away. Requests that need Redis get
//! a JSON-RPC error (HTTP 503) naming the problem, and a log line; requests
//! without a session (stateless, `server/discover`) pass untouched.
//!
//! A client's message about a server request or a running call (its answer
//! to an elicitation or a sampling request, `notifications/cancelled`) may
//! reach another replica than the one whose session worker it concerns:
//! the gate also publishes such messages to the other replicas, which hand
//! them to their worker of that session, if they have one (a worker with
//! no such request ignores it).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;
use http::StatusCode;
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::streamable_http_server::session::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::super::jsonrpc::{JsonRpcRequest, jsonrpc_error};
use super::RedisStore;
use crate::store::{SessionLevel, StoreError};

/// The implementation-defined server error of "the shared store is away".
const STORE_UNAVAILABLE: i64 = -32001;
/// The pub/sub channel of clients' messages for other replicas.
const FORWARDED: &str = "forwarded";

/// What the gate needs.
#[derive(Debug)]
pub(in crate::transport::http) struct Gate {
    pub(in crate::transport::http) store: RedisStore,
    pub(in crate::transport::http) local: Arc<LocalSessionManager>,
    /// Set while Redis is away, so the outage is logged once and its end
    /// too.
    failing: AtomicBool,
    /// This replica's name on the forwarding channel.
    replica: String,
}

/// A client's message as published to the other replicas.
#[derive(Serialize, Deserialize)]
struct Forwarded {
    from: String,
    session: String,
    message: Value,
}

/// Applies the gate (see the module docs).
pub(in crate::transport::http) async fn check(
    gate: Arc<Gate>,
    mut request: Request,
    next: Next,
) -> Response {
    let session = crate::transport::http::session_id(request.headers()).map(str::to_owned);
    let rpc = request.extensions().get::<JsonRpcRequest>().cloned();
    let id = rpc.as_ref().map_or(Value::Null, |rpc| rpc.id.clone());
    let initialize = request.method() == http::Method::POST
        && rpc
            .as_ref()
            .is_some_and(|rpc| rpc.method.as_deref() == Some("initialize"));
    if session.is_none() && !initialize {
        return next.run(request).await;
    }
    let check = || async {
        match &session {
            Some(session) => gate.renew(session).await,
            None => gate.store.ping().await.map(|()| None),
        }
    };
    // The first command after Redis comes back finds the old connection
    // broken and has it re-established: one more try is served by the new
    // one.
    let checked = match check().await {
        Err(error) if error.is_unreachable() => check().await,
        checked => checked,
    };
    match checked {
        Ok(level) => {
            if let Some(level) = level {
                request.extensions_mut().insert(level);
            }
            if gate.failing.swap(false, Ordering::SeqCst) {
                tracing::info!(redis = gate.store.url(), "the session store answers again");
            }
            let forwarded = rpc.as_ref().is_some_and(|rpc| match &rpc.method {
                // A response: the answer to a server request.
                None => rpc.id != Value::Null,
                Some(method) => method == "notifications/cancelled",
            });
            match session {
                Some(session) if forwarded && request.method() == http::Method::POST => {
                    let request = gate.forward(session, request).await;
                    next.run(request).await
                }
                _ => next.run(request).await,
            }
        }
        Err(error) => {
            if !gate.failing.swap(true, Ordering::SeqCst) {
                tracing::error!(%error, "the session store is unreachable: requests of sessions are refused until it answers");
            } else {
                tracing::debug!(%error, "refused a request: the session store is unreachable");
            }
            jsonrpc_error(
                StatusCode::SERVICE_UNAVAILABLE,
                id,
                STORE_UNAVAILABLE,
                &format!("Session store unavailable: {error}; retry later"),
            )
        }
    }
}

impl Gate {
    /// The gate of a replica whose sessions live in `local`; it hands the
    /// messages other replicas forward to this replica's workers.
    pub(in crate::transport::http) fn new(
        store: RedisStore,
        local: Arc<LocalSessionManager>,
        stopped: CancellationToken,
    ) -> Arc<Self> {
        let replica = crate::store::instance_name();
        if tokio::runtime::Handle::try_current().is_ok() {
            let delivering = deliver_forwarded(
                store.listen(FORWARDED),
                Arc::downgrade(&local),
                replica.clone(),
            );
            tokio::spawn(async move {
                tokio::select! {
                    () = delivering => {}
                    () = stopped.cancelled() => {}
                }
            });
        } else {
            tracing::warn!(
                "no Tokio runtime: clients' answers reach only the replica they are sent to"
            );
        }
        Arc::new(Gate {
            store,
            local,
            failing: AtomicBool::new(false),
            replica,
        })
    }

    /// Publishes the message `request` carries for the other replicas, and
    /// gives the request back for this one.
    async fn forward(&self, session: String, request: Request) -> Request {
        let (parts, body) = request.into_parts();
        // The limits layer has already read the body into memory.
        let bytes = axum::body::to_bytes(body, usize::MAX)
            .await
            .unwrap_or_default();
        if let Ok(message) = serde_json::from_slice::<Value>(&bytes) {
            let forwarded = Forwarded {
                from: self.replica.clone(),
                session,
                message,
            };
            let published = match serde_json::to_string(&forwarded) {
                Ok(payload) => self.store.publish(FORWARDED, &payload).await,
                Err(error) => Err(StoreError::Corrupt {
                    key: FORWARDED.to_owned(),
                    reason: error.to_string(),
                }),
            };
            if let Err(error) = published {
                tracing::warn!(%error, "a client's message was not passed to the other replicas");
            }
        }
        Request::from_parts(parts, axum::body::Body::from(bytes))
    }

    /// Renews `session`'s expiry and reads its logging level; a session
    /// Redis no longer has is ended here as well.
    async fn renew(&self, session: &str) -> Result<Option<SessionLevel>, StoreError> {
        let renewed = self
            .store
            .touch_session(session, self.store.idle_ttl())
            .await?;
        if renewed.is_some() {
            return Ok(renewed);
        }
        let id = session.to_owned().into();
        if self.local.has_session(&id).await.unwrap_or(false) {
            tracing::debug!(
                session,
                "ending a session that expired or ended on another replica"
            );
            let _ = self.local.close_session(&id).await;
        }
        Ok(None)
    }
}

/// Hands the messages published by other replicas to this replica's
/// worker of their session, until the replica's sessions are gone (or the
/// endpoint stops).
async fn deliver_forwarded(
    mut published: tokio::sync::mpsc::Receiver<String>,
    local: Weak<LocalSessionManager>,
    replica: String,
) {
    while let Some(payload) = published.recv().await {
        let Some(local) = local.upgrade() else { return };
        let Ok(forwarded) = serde_json::from_str::<Forwarded>(&payload) else {
            tracing::warn!("skipped a forwarded message that is not one");
            continue;
        };
        if forwarded.from == replica {
            continue;
        }
        let id = forwarded.session.into();
        if !local.has_session(&id).await.unwrap_or(false) {
            continue;
        }
        match serde_json::from_value::<ClientJsonRpcMessage>(forwarded.message) {
            Ok(message) => {
                if let Err(error) = local.accept_message(&id, message).await {
                    tracing::debug!(%error, "a forwarded message found no worker to take it");
                }
            }
            Err(error) => {
                tracing::warn!(%error, "skipped a forwarded message that is not a JSON-RPC message")
            }
        }
    }
}
