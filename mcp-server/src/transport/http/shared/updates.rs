//! Resource updates for sessions held anywhere: the replica where
//! [`Server::resource_updated`](crate::Server::resource_updated) is called
//! appends `notifications/resources/updated` to the standalone-stream log
//! of every session subscribed to the URI (the subscriptions are in Redis),
//! and whichever replica holds the session's `GET` stream sends it on. It
//! also publishes the URI to the `subscriptions/listen` streams of the
//! other replicas.

use std::sync::Arc;

use serde_json::json;
use tokio::runtime::Handle;

use super::{RedisStore, common_stream};
use crate::server::notifications::{Change, ChangeListener};

/// Delivers resource updates through Redis (see the module docs).
#[derive(Debug)]
pub(in crate::transport::http) struct ResourceUpdates {
    store: RedisStore,
    runtime: Option<Handle>,
}

impl ResourceUpdates {
    pub(in crate::transport::http) fn new(store: RedisStore) -> Arc<Self> {
        Arc::new(Self {
            store,
            runtime: Handle::try_current().ok(),
        })
    }
}

impl ChangeListener for ResourceUpdates {
    fn notify(&self, change: &Change) {
        let (Change::ResourceUpdated(uri), Some(runtime)) = (change, &self.runtime) else {
            return;
        };
        let store = self.store.clone();
        let uri = uri.clone();
        runtime.spawn(async move {
            if let Err(error) = deliver(&store, &uri).await {
                tracing::warn!(%error, uri, "a resource update did not reach its subscribers");
            }
        });
    }
}

async fn deliver(store: &RedisStore, uri: &str) -> Result<(), crate::store::StoreError> {
    let notification = json!({
        "jsonrpc": "2.0",
        "method": "notifications/resources/updated",
        "params": {"uri": uri},
    })
    .to_string();
    store.publish_resource_update(uri).await?;
    for session in store.subscribers(uri).await? {
        store
            .append_event(
                &common_stream(&session),
                Some(&notification),
                None,
                false,
                store.idle_ttl(),
            )
            .await?;
    }
    Ok(())
}
