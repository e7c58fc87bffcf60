//! `subscriptions/listen` (2026-07-28): a long-lived request on which the
//! server streams the change notifications the client asked for.

use std::sync::Arc;

use rmcp::ErrorData;
use rmcp::model::{ServerNotification, SubscriptionFilter};
use rmcp::service::SubscriptionContext;
use serde_json::json;
use tokio::sync::mpsc;

use crate::server::notifications::{Change, ChangeListener};
use crate::server::state::ServerState;

/// What this server can stream: tool, resource and prompt list changes and
/// updates of subscribed resources.
pub(crate) fn accepted_filter(requested: &SubscriptionFilter) -> SubscriptionFilter {
    let mut accepted = SubscriptionFilter::default();
    accepted.prompts_list_changed = requested.prompts_list_changed;
    accepted.tools_list_changed = requested.tools_list_changed;
    accepted.resources_list_changed = requested.resources_list_changed;
    accepted.resource_subscriptions = requested.resource_subscriptions.clone();
    accepted
}

/// Forwards changes to one listen stream.
struct ListenStream(mpsc::UnboundedSender<Change>);

impl ChangeListener for ListenStream {
    fn notify(&self, change: &Change) {
        let _ = self.0.send(change.clone());
    }
}

/// Streams the accepted notifications until the client cancels the listen
/// request or the server ends it.
///
/// With a shared store, resource updates made on other replicas arrive too.
pub(crate) async fn listen<C: Send + Sync + 'static>(
    state: &ServerState<C>,
    context: SubscriptionContext,
) -> Result<(), ErrorData> {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let stream = Arc::new(ListenStream(tx));
    state.listeners().register(&stream);
    let mut elsewhere = updates_elsewhere(state);
    loop {
        let change = tokio::select! {
            () = context.cancelled() => return Ok(()),
            change = rx.recv() => match change {
                Some(change) => change,
                None => return Ok(()),
            },
            Some(uri) = next_update(&mut elsewhere) => Change::ResourceUpdated(uri),
        };
        let notification = match change {
            Change::PromptsChanged => json!({"method": "notifications/prompts/list_changed"}),
            Change::ToolsChanged => json!({"method": "notifications/tools/list_changed"}),
            Change::ResourcesChanged => {
                json!({"method": "notifications/resources/list_changed"})
            }
            Change::ResourceUpdated(uri) => {
                json!({"method": "notifications/resources/updated", "params": {"uri": uri}})
            }
        };
        let Ok(notification) = serde_json::from_value::<ServerNotification>(notification) else {
            continue;
        };
        // Notifications outside the accepted filter are refused by the sink.
        if let Err(error) = context.sink().send(notification).await {
            tracing::debug!(%error, "a change notification was not streamed");
        }
    }
}

/// Resource updates other replicas publish through the server's store.
#[cfg(feature = "redis")]
type Elsewhere = Option<tokio::sync::broadcast::Receiver<String>>;
/// Without a store no other replica publishes.
#[cfg(not(feature = "redis"))]
struct Elsewhere;

#[cfg(feature = "redis")]
fn updates_elsewhere<C: Send + Sync + 'static>(state: &ServerState<C>) -> Elsewhere {
    state
        .store()
        .map(crate::store::RedisStore::resource_updates_elsewhere)
}

#[cfg(not(feature = "redis"))]
fn updates_elsewhere<C>(_state: &ServerState<C>) -> Elsewhere {
    Elsewhere
}

/// The next update from elsewhere (an update skipped by a stream too far
/// behind is lost, as pub/sub has it); pending forever without a store.
#[cfg(feature = "redis")]
async fn next_update(elsewhere: &mut Elsewhere) -> Option<String> {
    use tokio::sync::broadcast::error::RecvError;
    let Some(receiver) = elsewhere else {
        return std::future::pending().await;
    };
    loop {
        match receiver.recv().await {
            Ok(uri) => return Some(uri),
            Err(RecvError::Lagged(skipped)) => {
                tracing::debug!(
                    skipped,
                    "a listen stream fell behind other replicas' updates"
                );
            }
            Err(RecvError::Closed) => return None,
        }
    }
}

#[cfg(not(feature = "redis"))]
async fn next_update(_elsewhere: &mut Elsewhere) -> Option<String> {
    std::future::pending().await
}
