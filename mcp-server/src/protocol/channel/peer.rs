//! [`CallChannel`] on rmcp's peer and the request's cancellation token.

use std::fmt;

use mcp_core::{
    BoxFuture,
    client::{CallChannel, ChannelError, Progress},
};
use rmcp::model::{ProgressNotificationParam, ProgressToken, ServerRequest};
use rmcp::service::{Peer, RoleServer, ServiceError};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

/// The way back to the client during one `tools/call`.
pub(crate) struct PeerChannel {
    peer: Peer<RoleServer>,
    cancellation: CancellationToken,
}

impl PeerChannel {
    pub(crate) fn new(peer: Peer<RoleServer>, cancellation: CancellationToken) -> Self {
        Self { peer, cancellation }
    }
}

impl CallChannel for PeerChannel {
    fn notify_progress(&self, progress: Progress) -> BoxFuture<'_, Result<(), ChannelError>> {
        Box::pin(async move {
            let token: ProgressToken =
                serde_json::from_value(progress.progress_token).map_err(|error| {
                    ChannelError::Transport(format!("invalid progress token: {error}"))
                })?;
            let mut param = ProgressNotificationParam::new(token, progress.progress);
            param.total = progress.total;
            param.message = progress.message;
            self.peer
                .notify_progress(param)
                .await
                .map_err(channel_error)
        })
    }

    fn is_cancelled(&self) -> bool {
        self.cancellation.is_cancelled()
    }

    fn cancelled(&self) -> BoxFuture<'_, ()> {
        Box::pin(self.cancellation.cancelled())
    }
}

impl fmt::Debug for PeerChannel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PeerChannel")
            .field("cancelled", &self.cancellation.is_cancelled())
            .finish_non_exhaustive()
    }
}

/// What a failed exchange with the client means to a handler: the
/// connection is gone, the client refused, or the transport failed.
pub(crate) fn channel_error(error: ServiceError) -> ChannelError {
    match error {
        ServiceError::TransportClosed => ChannelError::Closed,
        ServiceError::McpError(error) => ChannelError::Rejected(error.message.into_owned()),
        other => ChannelError::Transport(other.to_string()),
    }
}

/// Sends `request` to the client and returns its answer as JSON.
pub(crate) async fn ask_peer(
    peer: &Peer<RoleServer>,
    request: ServerRequest,
) -> Result<Value, ChannelError> {
    let answer = peer.send_request(request).await.map_err(channel_error)?;
    serde_json::to_value(answer)
        .map_err(|error| ChannelError::Transport(format!("cannot read an answer: {error}")))
}
