//! The connection back to the client during one request: progress,
//! cancellation, logs, and the requests a server sends to the client.

use std::fmt;
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::client::elicitation::{ElicitRequest, ElicitResult};
use crate::client::logging::LogMessage;
use crate::client::roots::Root;
use crate::client::sampling::{CreateMessageRequest, CreateMessageResult};
use crate::future::BoxFuture;

/// One progress update of a running call.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Progress {
    /// The token the client sent with the request.
    pub progress_token: Value,
    /// How far the call is; increases with every update.
    pub progress: f64,
    /// The total, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<f64>,
    /// A human-readable message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// The connection back to the client during one call: the server
/// implements it on top of its transport.
pub trait CallChannel: Send + Sync + fmt::Debug {
    /// Sends `notifications/progress`.
    fn notify_progress(&self, progress: Progress) -> BoxFuture<'_, Result<(), ChannelError>>;

    /// Whether the client cancelled the call.
    fn is_cancelled(&self) -> bool;

    /// Completes when the client cancels the call.
    fn cancelled(&self) -> BoxFuture<'_, ()>;

    /// Sends `notifications/message` when the session's logging level (set
    /// by `logging/setLevel`) lets `message` through. The default drops it.
    fn log(&self, message: LogMessage) -> BoxFuture<'_, Result<(), ChannelError>> {
        let _ = message;
        Box::pin(std::future::ready(Ok(())))
    }

    /// Asks the client's model for a completion (`sampling/createMessage`).
    /// The default reports that the channel cannot.
    fn create_message(
        &self,
        request: CreateMessageRequest,
    ) -> BoxFuture<'_, Result<CreateMessageResult, ChannelError>> {
        let _ = request;
        Box::pin(std::future::ready(Err(ChannelError::Unsupported {
            capability: "sampling",
        })))
    }

    /// Lists the client's roots (`roots/list`). The default reports that the
    /// channel cannot.
    fn list_roots(&self) -> BoxFuture<'_, Result<Vec<Root>, ChannelError>> {
        Box::pin(std::future::ready(Err(ChannelError::Unsupported {
            capability: "roots",
        })))
    }

    /// Asks the user for input through the client (`elicitation/create`).
    /// The default reports that the channel cannot.
    fn elicit(&self, request: ElicitRequest) -> BoxFuture<'_, Result<ElicitResult, ChannelError>> {
        let _ = request;
        Box::pin(std::future::ready(Err(ChannelError::Unsupported {
            capability: "elicitation",
        })))
    }

    /// Closes the SSE stream this call answers on (Streamable HTTP polling):
    /// the client reconnects with `Last-Event-ID` after `retry` and gets
    /// what the call sent meanwhile, its result included. The default
    /// reports that the channel has no such stream.
    fn close_sse_stream(&self, retry: Duration) -> BoxFuture<'_, Result<(), ChannelError>> {
        let _ = retry;
        Box::pin(std::future::ready(Err(ChannelError::Unsupported {
            capability: "SSE stream",
        })))
    }
}

/// The channel of a call made outside a server (tests, direct
/// invocation): progress and logs are dropped, the call is never
/// cancelled, and requests to the client report that it cannot answer
/// (the trait's defaults).
#[derive(Debug)]
struct Detached;

impl CallChannel for Detached {
    fn notify_progress(&self, progress: Progress) -> BoxFuture<'_, Result<(), ChannelError>> {
        let _ = progress;
        Box::pin(std::future::ready(Ok(())))
    }

    fn is_cancelled(&self) -> bool {
        false
    }

    fn cancelled(&self) -> BoxFuture<'_, ()> {
        Box::pin(std::future::pending())
    }
}

/// The shared [`Detached`] channel every context starts with.
pub(crate) fn detached() -> Arc<dyn CallChannel> {
    static DETACHED: LazyLock<Arc<dyn CallChannel>> = LazyLock::new(|| Arc::new(Detached));
    DETACHED.clone()
}

/// Why a message could not reach the client.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ChannelError {
    /// The connection is gone.
    #[error("the client connection is closed")]
    Closed,
    /// The transport failed.
    #[error("sending to the client failed: {0}")]
    Transport(String),
    /// The client did not declare the capability a request needs (or the
    /// server cannot reach it).
    #[error("the client does not support {capability}")]
    Unsupported {
        /// `sampling`, `elicitation` or `roots`.
        capability: &'static str,
    },
    /// The client answered the request with an error.
    #[error("the client rejected the request: {0}")]
    Rejected(String),
}
