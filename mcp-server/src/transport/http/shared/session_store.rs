//! rmcp's session store on Redis: the `initialize` parameters of each
//! session, which another replica replays to restore it.

use rmcp::transport::streamable_http_server::session::{
    SessionState, SessionStore, SessionStoreError,
};

use super::RedisStore;

/// Sessions' `initialize` parameters in Redis, expiring with the session.
#[derive(Debug, Clone)]
pub(in crate::transport::http) struct RedisSessionStore(pub(in crate::transport::http) RedisStore);

#[async_trait::async_trait]
impl SessionStore for RedisSessionStore {
    async fn load(&self, session_id: &str) -> Result<Option<SessionState>, SessionStoreError> {
        let Some(json) = self.0.load_session(session_id).await? else {
            return Ok(None);
        };
        let state = serde_json::from_str(&json).map_err(|error| {
            format!(
                "the stored initialize parameters of session {session_id} are not valid: {error}"
            )
        })?;
        Ok(Some(state))
    }

    async fn store(&self, session_id: &str, state: &SessionState) -> Result<(), SessionStoreError> {
        let json = serde_json::to_string(state)?;
        self.0
            .save_session(session_id, &json, self.0.idle_ttl())
            .await?;
        Ok(())
    }

    async fn delete(&self, session_id: &str) -> Result<(), SessionStoreError> {
        self.0.delete_session(session_id).await?;
        Ok(())
    }
}
