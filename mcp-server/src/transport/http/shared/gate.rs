//! The gate in front of a replica sharing its sessions: every request of a
//! session renews the session's expiry in Redis; a session that expired or
//! was ended on another replica is ended here too (so rmcp answers 404); a
//! new session is refused while Redis is away. Requests that need Redis get
//! a JSON-RPC error (HTTP 503) naming the problem, and a log line; requests
//! without a session (stateless, `server/discover`) pass untouched.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;
use http::StatusCode;
use rmcp::transport::streamable_http_server::session::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use serde_json::Value;

use super::super::limits::{JsonRpcRequest, jsonrpc_error};
use super::RedisStore;
use crate::store::StoreError;

/// The implementation-defined server error of "the shared store is away".
const STORE_UNAVAILABLE: i64 = -32001;

/// What the gate needs.
#[derive(Debug)]
pub(in crate::transport::http) struct Gate {
    pub(in crate::transport::http) store: RedisStore,
    pub(in crate::transport::http) local: Arc<LocalSessionManager>,
    /// Set while Redis is away, so the outage is logged once and its end
    /// too.
    pub(in crate::transport::http) failing: AtomicBool,
}

/// Applies the gate (see the module docs).
pub(in crate::transport::http) async fn check(
    gate: Arc<Gate>,
    request: Request,
    next: Next,
) -> Response {
    let session = request
        .headers()
        .get("mcp-session-id")
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    let rpc = request.extensions().get::<JsonRpcRequest>().cloned();
    let id = rpc.as_ref().map_or(Value::Null, |rpc| rpc.id.clone());
    let initialize = request.method() == http::Method::POST
        && rpc.is_some_and(|rpc| rpc.method.as_deref() == Some("initialize"));
    if session.is_none() && !initialize {
        return next.run(request).await;
    }
    let check = || async {
        match &session {
            Some(session) => gate.renew(session).await,
            None => gate.store.ping().await,
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
        Ok(()) => {
            if gate.failing.swap(false, Ordering::SeqCst) {
                tracing::info!(redis = gate.store.url(), "the session store answers again");
            }
            next.run(request).await
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
    /// Renews `session`'s expiry; a session Redis no longer has is ended
    /// here as well.
    async fn renew(&self, session: &str) -> Result<(), StoreError> {
        if self
            .store
            .touch_session(session, self.store.idle_ttl())
            .await?
        {
            return Ok(());
        }
        let id = session.to_owned().into();
        if self.local.has_session(&id).await.unwrap_or(false) {
            tracing::debug!(
                session,
                "ending a session that expired or ended on another replica"
            );
            let _ = self.local.close_session(&id).await;
        }
        Ok(())
    }
}
