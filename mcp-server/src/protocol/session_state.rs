//! What one session remembers beyond its context: the client's peer (for
//! notifications outside a request), its logging level and its resource
//! subscriptions. With a shared store (HTTP sessions served by several
//! replicas) the level and subscriptions live in the store: a level set
//! through one replica applies on all, and resource updates reach
//! subscribers through the store instead of this session's peer.

use std::collections::BTreeSet;
use std::sync::{Mutex, OnceLock, PoisonError};

use mcp_core::client::{LogMessage, LoggingLevel};
use rmcp::ErrorData;
#[cfg(feature = "redis")]
use rmcp::model::ErrorCode;
#[allow(deprecated)] // logging is deprecated by 2026-07-28, current in 2025-11-25
use rmcp::model::{LoggingMessageNotificationParam, ResourceUpdatedNotificationParam};
use rmcp::service::{Peer, RequestContext, RoleServer};
use tokio::runtime::Handle;

use crate::server::notifications::{Change, ChangeListener};

/// One session's state.
#[derive(Debug)]
pub(crate) struct SessionState {
    peer: OnceLock<Peer<RoleServer>>,
    runtime: Option<Handle>,
    level: Mutex<Option<LoggingLevel>>,
    subscriptions: Mutex<BTreeSet<String>>,
    /// Where the level and subscriptions are shared with other replicas.
    #[cfg(feature = "redis")]
    shared: Option<crate::store::RedisStore>,
}

/// The failure of a shared store, as a JSON-RPC error.
#[cfg(feature = "redis")]
pub(crate) fn store_error(error: &crate::store::StoreError) -> ErrorData {
    tracing::warn!(%error, "a session request failed on the session store");
    ErrorData::new(
        ErrorCode(-32001),
        format!("Session store unavailable: {error}"),
        None,
    )
}

impl SessionState {
    pub(crate) fn new() -> Self {
        Self {
            peer: OnceLock::new(),
            runtime: Handle::try_current().ok(),
            level: Mutex::new(None),
            subscriptions: Mutex::new(BTreeSet::new()),
            #[cfg(feature = "redis")]
            shared: None,
        }
    }

    /// A session whose level and subscriptions live in `store`.
    #[cfg(feature = "redis")]
    pub(crate) fn shared(store: crate::store::RedisStore) -> Self {
        Self {
            shared: Some(store),
            ..Self::new()
        }
    }

    /// The store and key of the session `id`, when it is shared.
    #[cfg(feature = "redis")]
    fn shared_as<'a>(
        &'a self,
        id: Option<&'a str>,
    ) -> Option<(&'a crate::store::RedisStore, &'a str)> {
        self.shared.as_ref().zip(id)
    }

    /// Sets the level `logging/setLevel` asked for in session `id`.
    pub(crate) async fn set_shared_level(
        &self,
        level: LoggingLevel,
        id: Option<&str>,
    ) -> Result<(), ErrorData> {
        #[cfg(feature = "redis")]
        if let Some((store, id)) = self.shared_as(id) {
            store
                .set_level(id, &wire_name(level))
                .await
                .map_err(|error| store_error(&error))?;
        }
        #[cfg(not(feature = "redis"))]
        let _ = id;
        self.set_level(level);
        Ok(())
    }

    /// Takes the level the shared store had for the session of the
    /// request `context` (another replica may have set it); the HTTP
    /// transport reads it while renewing the session.
    pub(crate) fn refresh(&self, context: &RequestContext<RoleServer>) {
        #[cfg(feature = "redis")]
        if self.shared.is_some()
            && let Some(crate::store::SessionLevel(stored)) = context
                .extensions
                .get::<http::request::Parts>()
                .and_then(|parts| parts.extensions.get())
        {
            let level = stored.as_ref().and_then(|name| {
                serde_json::from_value::<LoggingLevel>(serde_json::Value::String(name.clone())).ok()
            });
            *self.level.lock().unwrap_or_else(PoisonError::into_inner) = level;
        }
        #[cfg(not(feature = "redis"))]
        let _ = context;
    }

    /// `resources/subscribe` in session `id`.
    pub(crate) async fn subscribe_shared(
        &self,
        uri: String,
        id: Option<&str>,
    ) -> Result<(), ErrorData> {
        #[cfg(feature = "redis")]
        if let Some((store, id)) = self.shared_as(id) {
            store
                .subscribe(id, &uri, store.idle_ttl())
                .await
                .map_err(|error| store_error(&error))?;
        }
        #[cfg(not(feature = "redis"))]
        let _ = id;
        self.subscribe(uri);
        Ok(())
    }

    /// `resources/unsubscribe` in session `id`.
    pub(crate) async fn unsubscribe_shared(
        &self,
        uri: &str,
        id: Option<&str>,
    ) -> Result<(), ErrorData> {
        #[cfg(feature = "redis")]
        if let Some((store, id)) = self.shared_as(id) {
            store
                .unsubscribe(id, uri)
                .await
                .map_err(|error| store_error(&error))?;
        }
        #[cfg(not(feature = "redis"))]
        let _ = id;
        self.unsubscribe(uri);
        Ok(())
    }

    /// Whether resource updates reach this session through the shared
    /// store rather than its peer.
    fn updates_through_store(&self) -> bool {
        #[cfg(feature = "redis")]
        return self.shared.is_some();
        #[cfg(not(feature = "redis"))]
        return false;
    }

    /// Remembers the client's peer (the first request's).
    pub(crate) fn attach(&self, peer: &Peer<RoleServer>) {
        let _ = self.peer.set(peer.clone());
    }

    /// Sets the level `logging/setLevel` asked for.
    pub(crate) fn set_level(&self, level: LoggingLevel) {
        *self.level.lock().unwrap_or_else(PoisonError::into_inner) = Some(level);
    }

    /// Whether a message at `level` reaches the client: everything until
    /// the client sets a level, then that level and above.
    pub(crate) fn lets_through(&self, level: LoggingLevel) -> bool {
        self.level
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_none_or(|minimum| level >= minimum)
    }

    pub(crate) fn subscribe(&self, uri: String) {
        self.subscriptions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(uri);
    }

    pub(crate) fn unsubscribe(&self, uri: &str) {
        self.subscriptions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(uri);
    }

    fn is_subscribed(&self, uri: &str) -> bool {
        self.subscriptions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains(uri)
    }
}

/// The wire name of `level` (`"warning"`).
#[cfg(feature = "redis")]
fn wire_name(level: LoggingLevel) -> String {
    match serde_json::to_value(level) {
        Ok(serde_json::Value::String(name)) => name,
        _ => format!("{level:?}").to_lowercase(),
    }
}

/// `notifications/message` as rmcp's value.
#[allow(deprecated)] // logging is deprecated by 2026-07-28, current in 2025-11-25
pub(crate) fn log_param(message: LogMessage) -> Option<LoggingMessageNotificationParam> {
    serde_json::to_value(message)
        .and_then(serde_json::from_value)
        .map_err(|error| tracing::error!(%error, "a log message has no rmcp equivalent"))
        .ok()
}

impl ChangeListener for SessionState {
    fn notify(&self, change: &Change) {
        let (Some(peer), Some(runtime)) = (self.peer.get(), &self.runtime) else {
            return;
        };
        if let Change::ResourceUpdated(uri) = change
            && (self.updates_through_store() || !self.is_subscribed(uri))
        {
            return;
        }
        let peer = peer.clone();
        let change = change.clone();
        runtime.spawn(async move {
            let sent = match change {
                Change::PromptsChanged => peer.notify_prompt_list_changed().await,
                Change::ToolsChanged => peer.notify_tool_list_changed().await,
                Change::ResourcesChanged => peer.notify_resource_list_changed().await,
                Change::ResourceUpdated(uri) => {
                    peer.notify_resource_updated(ResourceUpdatedNotificationParam::new(uri))
                        .await
                }
            };
            if let Err(error) = sent {
                tracing::debug!(%error, "a change notification did not reach the client");
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn everything_passes_until_a_level_is_set() {
        let session = SessionState::new();
        assert!(
            LoggingLevel::ALL
                .iter()
                .all(|level| session.lets_through(*level))
        );
        session.set_level(LoggingLevel::Warning);
        assert!(!session.lets_through(LoggingLevel::Info));
        assert!(session.lets_through(LoggingLevel::Warning));
        assert!(session.lets_through(LoggingLevel::Emergency));
    }

    #[test]
    fn updates_reach_only_subscribed_uris() {
        let session = SessionState::new();
        session.subscribe("test://a".to_owned());
        assert!(session.is_subscribed("test://a") && !session.is_subscribed("test://b"));
        session.unsubscribe("test://a");
        assert!(!session.is_subscribed("test://a"));
    }
}
