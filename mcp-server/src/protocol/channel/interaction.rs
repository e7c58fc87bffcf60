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

use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::sync::Arc;

use mcp_core::{
    BoxFuture,
    client::{
        CallChannel, ChannelError, CreateMessageRequest, CreateMessageResult, ElicitRequest,
        ElicitResult, LogMessage, LoggingLevel, Progress, Root,
    },
};
use rmcp::ErrorData;
use rmcp::model::{ClientCapabilities, ServerRequest};
use rmcp::service::{Peer, RequestContext, RoleServer};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::input_round::{InputRound, Seal, input_round};
use super::peer::{PeerChannel, ask_peer, channel_error};
use crate::protocol::convert::request_params;
use crate::protocol::session_state::{SessionState, log_param};
use crate::protocol::sse_stream::RequestStream;

/// The channel of one call: progress and cancellation through the
/// transport's [`PeerChannel`], plus logging and client requests.
pub(crate) struct InteractionChannel {
    progress: PeerChannel,
    peer: Peer<RoleServer>,
    session: Arc<SessionState>,
    capabilities: ClientCapabilities,
    round: Option<Arc<InputRound>>,
    /// The request's `_meta` log level (2026-07-28 has no `logging/setLevel`).
    request_level: Option<LoggingLevel>,
    /// The request's SSE stream (Streamable HTTP with sessions).
    stream: Option<RequestStream>,
}

/// Where a 2026-07-28 request asks for log messages.
const LOG_LEVEL_META_KEY: &str = "io.modelcontextprotocol/logLevel";

impl InteractionChannel {
    /// The channel of the request `context` and its input round: opened
    /// from the request's `inputResponses` and `requestState` for a
    /// 2026-07-28 client (see [`input_round`]), `None` otherwise.
    pub(crate) async fn for_request(
        context: &RequestContext<RoleServer>,
        session: Arc<SessionState>,
        input_responses: Option<&BTreeMap<String, Value>>,
        request_state: Option<&str>,
        seal: impl Future<Output = Result<Seal, ErrorData>>,
    ) -> Result<(Self, Option<Arc<InputRound>>), ErrorData> {
        let round = input_round(context, input_responses, request_state, seal).await?;
        let progress = PeerChannel::new(context.peer.clone(), context.ct.clone());
        Ok((Self::new(progress, context, session, round.clone()), round))
    }

    /// The channel of the request `context`; `round` is set for 2026-07-28
    /// clients (see [`input_round`](super::input_round::input_round)).
    pub(crate) fn new(
        progress: PeerChannel,
        context: &RequestContext<RoleServer>,
        session: Arc<SessionState>,
        round: Option<Arc<InputRound>>,
    ) -> Self {
        session.attach(&context.peer);
        Self {
            progress,
            peer: context.peer.clone(),
            session,
            capabilities: context.client_capabilities().unwrap_or_default(),
            round,
            stream: RequestStream::of(context),
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
            if let Some(round) = &self.round {
                round.note_missing(capability);
            }
            return Err(ChannelError::Unsupported { capability });
        }
        let request = json!({"method": method, "params": params});
        if let Some(round) = &self.round {
            return round.ask(key, capability, request).await;
        }
        let request: ServerRequest = serde_json::from_value(request)
            .map_err(|error| ChannelError::Transport(format!("cannot encode {method}: {error}")))?;
        let answer = ask_peer(&self.peer, request).await?;
        serde_json::from_value(answer).map_err(|error| {
            ChannelError::Transport(format!("unexpected answer to {method}: {error}"))
        })
    }
}

impl CallChannel for InteractionChannel {
    fn close_sse_stream(
        &self,
        retry: std::time::Duration,
    ) -> BoxFuture<'_, Result<(), ChannelError>> {
        Box::pin(async move {
            match &self.stream {
                Some(stream) => stream.close(retry).await.map_err(ChannelError::Transport),
                None => Err(ChannelError::Unsupported {
                    capability: "SSE stream",
                }),
            }
        })
    }

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
            let wanted = match (&self.round, self.request_level) {
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
            sent.map_err(channel_error)
        })
    }

    fn create_message(
        &self,
        request: CreateMessageRequest,
    ) -> BoxFuture<'_, Result<CreateMessageResult, ChannelError>> {
        Box::pin(async move {
            let params = request_params(&request)?;
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
            let params = request_params(&request)?;
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
            .field("gathering", &self.round.is_some())
            .finish_non_exhaustive()
    }
}
