//! `subscriptions/listen` (2026-07-28): a long-lived request on which the
//! server streams the change notifications the client asked for.

use std::sync::Arc;

use ::rmcp::ErrorData;
use ::rmcp::model::{ServerNotification, SubscriptionFilter};
use ::rmcp::service::SubscriptionContext;
use serde_json::json;
use tokio::sync::mpsc;

use crate::Server;
use crate::server::prompt_set::{SessionNotifier, SurfaceEvent, as_notifier};

/// What this server can stream: tool and prompt list changes and updates of
/// subscribed resources (the resource list does not change at runtime).
pub(crate) fn accepted_filter(requested: &SubscriptionFilter) -> SubscriptionFilter {
    let mut accepted = SubscriptionFilter::default();
    accepted.prompts_list_changed = requested.prompts_list_changed;
    accepted.tools_list_changed = requested.tools_list_changed;
    accepted.resource_subscriptions = requested.resource_subscriptions.clone();
    accepted
}

/// Forwards surface events to one listen stream.
struct Listener(mpsc::UnboundedSender<SurfaceEvent>);

impl SessionNotifier for Listener {
    fn notify(&self, event: &SurfaceEvent) {
        let _ = self.0.send(event.clone());
    }
}

/// Streams the accepted notifications until the client cancels the listen
/// request or the server ends it.
pub(crate) async fn listen<C: Send + Sync + 'static>(
    server: &Server<C>,
    context: SubscriptionContext,
) -> Result<(), ErrorData> {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let listener = Arc::new(Listener(tx));
    server.inner.surface.register(as_notifier(&listener));
    loop {
        let event = tokio::select! {
            () = context.cancelled() => return Ok(()),
            event = rx.recv() => match event {
                Some(event) => event,
                None => return Ok(()),
            },
        };
        let notification = match event {
            SurfaceEvent::PromptsChanged => json!({"method": "notifications/prompts/list_changed"}),
            SurfaceEvent::ToolsChanged => json!({"method": "notifications/tools/list_changed"}),
            SurfaceEvent::ResourceUpdated(uri) => {
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
