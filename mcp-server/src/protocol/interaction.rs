//! Server-to-client interaction from inside a handler: log messages,
//! sampling, elicitation and roots.
//!
//! A handler writes `cx.elicit(..)` once. For a 2025-11-25 client the
//! channel sends `elicitation/create` (or `sampling/createMessage`,
//! `roots/list`) on the session and waits for the answer. A 2026-07-28
//! client forbids server-to-client requests: the call instead ends with an
//! input-required result (MRTR) listing what the handler asked for, and the
//! client retries with `inputResponses`; the handler then runs again from
//! the start and gets the answers in the same order. Answers from earlier
//! rounds travel in a `requestState` sealed with a per-process key, so a
//! tampered state is rejected.

use std::fmt;
use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::Poll;

use ::rmcp::ErrorData;
use ::rmcp::model::{ClientCapabilities, InputRequiredResult, ProtocolVersion, ServerRequest};
use ::rmcp::service::{Peer, RequestContext, RoleServer, ServiceError};
use mcp_core::{
    BoxFuture, CallChannel, ChannelError, CreateMessageRequest, CreateMessageResult, ElicitRequest,
    ElicitResult, LogMessage, LoggingLevel, Progress, Root,
};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::channel::PeerChannel;
use super::input_round::InputGate;
use super::session_state::{SessionState, log_param};

/// The channel of one call: progress and cancellation through the
/// transport's [`PeerChannel`], plus logging and client requests.
pub(crate) struct InteractionChannel {
    progress: PeerChannel,
    peer: Peer<RoleServer>,
    session: Arc<SessionState>,
    capabilities: ClientCapabilities,
    gate: Option<Arc<InputGate>>,
    /// The request's `_meta` log level (2026-07-28 has no `logging/setLevel`).
    request_level: Option<LoggingLevel>,
}

/// Where a 2026-07-28 request asks for log messages.
const LOG_LEVEL_META_KEY: &str = "io.modelcontextprotocol/logLevel";

impl InteractionChannel {
    /// The channel of the request `context`; `gate` is set for 2026-07-28
    /// clients (see [`gate_for`]).
    pub(crate) fn new(
        progress: PeerChannel,
        context: &RequestContext<RoleServer>,
        session: Arc<SessionState>,
        gate: Option<Arc<InputGate>>,
    ) -> Self {
        session.attach(&context.peer);
        Self {
            progress,
            peer: context.peer.clone(),
            session,
            capabilities: context.client_capabilities().unwrap_or_default(),
            gate,
            request_level: context
                .meta
                .0
                .0
                .get(LOG_LEVEL_META_KEY)
                .and_then(|level| serde_json::from_value(level.clone()).ok()),
        }
    }

    /// Sends `method` with `params` to the client, or gathers it as an
    /// input request for a 2026-07-28 client.
    async fn ask<T: DeserializeOwned>(
        &self,
        capability: &'static str,
        declared: bool,
        key: Option<String>,
        method: &'static str,
        params: Value,
    ) -> Result<T, ChannelError> {
        if !declared {
            if let Some(gate) = &self.gate {
                gate.note_missing(capability);
            }
            return Err(ChannelError::Unsupported { capability });
        }
        let request = json!({"method": method, "params": params});
        if let Some(gate) = &self.gate {
            return gate.ask(key, capability, request).await;
        }
        let request: ServerRequest = serde_json::from_value(request)
            .map_err(|error| ChannelError::Transport(format!("cannot encode {method}: {error}")))?;
        let answer = self
            .peer
            .send_request(request)
            .await
            .map_err(|error| match error {
                ServiceError::TransportClosed => ChannelError::Closed,
                ServiceError::McpError(error) => ChannelError::Rejected(error.message.into_owned()),
                other => ChannelError::Transport(other.to_string()),
            })?;
        serde_json::to_value(answer)
            .and_then(serde_json::from_value)
            .map_err(|error| {
                ChannelError::Transport(format!("unexpected answer to {method}: {error}"))
            })
    }
}

fn to_params<T: serde::Serialize>(value: &T) -> Result<Value, ChannelError> {
    serde_json::to_value(value).map_err(|error| ChannelError::Transport(error.to_string()))
}

impl CallChannel for InteractionChannel {
    fn notify_progress(&self, progress: Progress) -> BoxFuture<'_, Result<(), ChannelError>> {
        self.progress.notify_progress(progress)
    }

    fn is_cancelled(&self) -> bool {
        self.progress.is_cancelled()
    }

    fn cancelled(&self) -> BoxFuture<'_, ()> {
        self.progress.cancelled()
    }

    fn log(&self, message: LogMessage) -> BoxFuture<'_, Result<(), ChannelError>> {
        Box::pin(async move {
            // A 2026-07-28 request gets log messages only when its `_meta`
            // asks for them; older sessions follow `logging/setLevel`.
            let wanted = match (&self.gate, self.request_level) {
                (Some(_), Some(minimum)) => message.level >= minimum,
                (Some(_), None) => false,
                (None, _) => self.session.lets_through(message.level),
            };
            if !wanted {
                return Ok(());
            }
            let Some(param) = log_param(message) else {
                return Ok(());
            };
            // Logging is deprecated by the 2026-07-28 revision, still part of 2025-11-25.
            #[allow(deprecated)]
            let sent = self.peer.notify_logging_message(param).await;
            sent.map_err(|error| match error {
                ServiceError::TransportClosed => ChannelError::Closed,
                other => ChannelError::Transport(other.to_string()),
            })
        })
    }

    fn create_message(
        &self,
        request: CreateMessageRequest,
    ) -> BoxFuture<'_, Result<CreateMessageResult, ChannelError>> {
        Box::pin(async move {
            let params = to_params(&request)?;
            let declared = self.capabilities.sampling.is_some();
            self.ask(
                "sampling",
                declared,
                request.input_key,
                "sampling/createMessage",
                params,
            )
            .await
        })
    }

    fn elicit(&self, request: ElicitRequest) -> BoxFuture<'_, Result<ElicitResult, ChannelError>> {
        Box::pin(async move {
            let params = to_params(&request)?;
            let declared = self.capabilities.elicitation.is_some();
            self.ask(
                "elicitation",
                declared,
                request.input_key,
                "elicitation/create",
                params,
            )
            .await
        })
    }

    fn list_roots(&self) -> BoxFuture<'_, Result<Vec<Root>, ChannelError>> {
        Box::pin(async move {
            #[derive(serde::Deserialize)]
            struct Roots {
                roots: Vec<Root>,
            }
            let declared = self.capabilities.roots.is_some();
            let roots: Roots = self
                .ask("roots", declared, None, "roots/list", json!({}))
                .await?;
            Ok(roots.roots)
        })
    }
}

impl fmt::Debug for InteractionChannel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InteractionChannel")
            .field("progress", &self.progress)
            .field("gathering", &self.gate.is_some())
            .finish_non_exhaustive()
    }
}

/// The input gate of a request from a 2026-07-28 client (none for older
/// ones): the answers it carries (`inputResponses` plus those sealed in
/// `requestState`). A `requestState` that fails its integrity check is
/// JSON-RPC error -32602.
pub(crate) fn gate_for(
    context: &RequestContext<RoleServer>,
    input_responses: Option<&std::collections::BTreeMap<String, Value>>,
    request_state: Option<&str>,
) -> Result<Option<Arc<InputGate>>, ErrorData> {
    let modern = context
        .protocol_version()
        .is_some_and(|version| version.as_str() >= ProtocolVersion::V_2026_07_28.as_str());
    if !modern {
        return Ok(None);
    }
    InputGate::open(input_responses, request_state)
        .map(|gate| Some(Arc::new(gate)))
        .map_err(|error| ErrorData::invalid_params(error.to_string(), None))
}

/// Runs `handler` until it completes, or (with a gate) until it waits only
/// for answers the client has not given: then the input-required result
/// listing the questions, and the handler is dropped.
pub(crate) async fn guard<T>(
    gate: Option<Arc<InputGate>>,
    handler: impl Future<Output = T>,
) -> Result<T, InputRequiredResult> {
    let mut handler = pin!(handler);
    std::future::poll_fn(|cx| match handler.as_mut().poll(cx) {
        Poll::Ready(value) => Poll::Ready(Ok(value)),
        Poll::Pending => match gate.as_ref().and_then(|gate| gate.input_required()) {
            Some(required) => Poll::Ready(Err(required)),
            None => Poll::Pending,
        },
    })
    .await
}

/// Asks the client through a running task (SEP-2663): the question is
/// listed by `tasks/get` under `key` (or a process-unique `{kind}-{n}`)
/// until `tasks/update` answers it. The tasks extension is 2026-07-28 only,
/// so the task's channel uses this for sampling, elicitation and roots.
pub(crate) async fn ask_task<T: DeserializeOwned>(
    task: &::rmcp::task_manager::TaskContext,
    key: Option<String>,
    kind: &'static str,
    method: &'static str,
    params: Value,
) -> Result<T, ChannelError> {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let key = key.unwrap_or_else(|| {
        let number = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        format!("{kind}-{number}")
    });
    let request = serde_json::from_value(json!({"method": method, "params": params}))
        .map_err(|error| ChannelError::Transport(format!("cannot encode {method}: {error}")))?;
    let answer = task
        .request_input(key, request)
        .await
        .map_err(|exit| match exit {
            ::rmcp::task_manager::TaskExit::Cancelled => ChannelError::Closed,
            other => ChannelError::Transport(format!("{other:?}")),
        })?;
    serde_json::from_value(answer)
        .map_err(|error| ChannelError::Rejected(format!("unexpected answer to {method}: {error}")))
}

/// The JSON parameters of a client request.
pub(crate) fn params<T: serde::Serialize>(value: &T) -> Result<Value, ChannelError> {
    to_params(value)
}
