//! [`CallChannel`] on rmcp's peer and the request's cancellation token.

use std::fmt;

use mcp_core::{
    client::{CallChannel, ChannelError, Progress},
    handler::BoxFuture,
};
use rmcp::model::{ProgressNotificationParam, ProgressToken};
use rmcp::service::{Peer, RoleServer, ServiceError};
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
                .map_err(|error| match error {
                    ServiceError::TransportClosed => ChannelError::Closed,
                    other => ChannelError::Transport(other.to_string()),
                })
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
