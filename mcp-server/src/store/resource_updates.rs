//! Resource updates for the `subscriptions/listen` streams of every replica:
//! pub/sub on `{prefix}resources:updated`. Each message names the store
//! connection that sent it (its origin), so a replica, which already told
//! its own listen streams, skips its own messages.

use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use super::{RedisStore, StoreError};

/// The channel every replica's listen streams follow.
const CHANNEL: &str = "resources:updated";
/// Updates held for a slow listen stream.
const BACKLOG: usize = 256;

/// One message on the channel.
#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct Update {
    /// The process that published it.
    origin: String,
    /// The resource that changed.
    uri: String,
}

impl RedisStore {
    /// Tells the listen streams of every other replica that `uri` changed.
    pub(crate) async fn publish_resource_update(&self, uri: &str) -> Result<(), StoreError> {
        let update = Update {
            origin: self.origin().to_owned(),
            uri: uri.to_owned(),
        };
        // A struct of two strings always serializes.
        let payload = serde_json::to_string(&update).unwrap_or_default();
        self.publish(CHANNEL, &payload).await
    }

    /// The URIs other replicas report changed from now on, for as long as
    /// the receiver lives.
    pub(crate) fn resource_updates_elsewhere(&self) -> mpsc::Receiver<String> {
        let mut published = self.listen(CHANNEL);
        let own = self.origin().to_owned();
        let (sender, receiver) = mpsc::channel(BACKLOG);
        tokio::spawn(async move {
            while let Some(payload) = published.recv().await {
                match serde_json::from_str::<Update>(&payload) {
                    Ok(update) if update.origin == own => {}
                    Ok(update) => {
                        if sender.send(update.uri).await.is_err() {
                            return;
                        }
                    }
                    Err(error) => {
                        tracing::warn!(%error, "skipped a resource update that is not one");
                    }
                }
            }
        });
        receiver
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_update_round_trips() {
        let update = Update {
            origin: "4242-00ff".to_owned(),
            uri: "demo://pets".to_owned(),
        };
        let text = serde_json::to_string(&update).unwrap();
        assert_eq!(serde_json::from_str::<Update>(&text).unwrap(), update);
    }
}
