//! The session manager of a replica sharing its sessions: rmcp's local
//! manager (the session's worker runs where its requests arrive), except
//! that the standalone `GET` stream follows the session's event log in
//! Redis, so it carries what any replica's worker of the session sends.

use std::sync::Arc;

use futures_util::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError, SessionError,
};
use rmcp::transport::streamable_http_server::session::{
    EventStore, RestoreOutcome, ServerSseMessage, SessionId, SessionManager,
};

use super::event_store::sse_messages;
use super::{RedisStore, common_stream};
use crate::store::Lifetime;

/// rmcp's [`LocalSessionManager`] with standalone streams from Redis.
#[derive(Debug)]
pub(in crate::transport::http) struct SharedSessions {
    pub(in crate::transport::http) local: Arc<LocalSessionManager>,
    pub(in crate::transport::http) store: RedisStore,
}

impl SessionManager for SharedSessions {
    type Error = LocalSessionManagerError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        self.local.create_session().await
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        self.local.initialize_session(id, message).await
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        self.local.has_session(id).await
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        self.local.close_session(id).await
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.local.create_stream(id, message).await
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.local.accept_message(id, message).await
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let stream = common_stream(id);
        let unreachable =
            |error: crate::store::StoreError| SessionError::EventStore(Box::new(error));
        let latest = self
            .store
            .latest_entry(&stream)
            .await
            .map_err(unreachable)?;
        let events = self
            .store
            .follow(&stream, &latest, Lifetime::Session(id.to_string()))
            .await
            .map_err(unreachable)?;
        Ok(sse_messages(events))
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.local.resume(id, last_event_id).await
    }

    async fn restore_session(
        &self,
        id: SessionId,
    ) -> Result<RestoreOutcome<Self::Transport>, Self::Error> {
        self.local.restore_session(id).await
    }

    fn event_store(&self) -> Option<Arc<dyn EventStore>> {
        self.local.event_store()
    }
}
