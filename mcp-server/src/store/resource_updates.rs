//! Resource updates for the `subscriptions/listen` streams of every replica:
//! pub/sub on `{prefix}resources:updated`. Each message names the store
//! connection that sent it (its origin), so a replica, which already told
//! its own listen streams, skips its own messages. A store subscribes once,
//! on the first listen stream, and fans the updates out to every stream.

use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;

use super::{RedisStore, StoreError};

/// The channel every replica's listen streams follow.
const CHANNEL: &str = "resources:updated";
/// Updates held for the slowest listen stream; one further behind skips
/// the oldest.
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
    pub(crate) fn resource_updates_elsewhere(&self) -> broadcast::Receiver<String> {
        self.resource_updates
            .get_or_init(|| {
                let (sender, _) = broadcast::channel(BACKLOG);
                tokio::spawn(fan_out(
                    self.listen(CHANNEL),
                    self.origin().to_owned(),
                    sender.clone(),
                ));
                sender
            })
            .subscribe()
    }
}

/// Sends the updates published by other replicas to every listen stream.
async fn fan_out(
    mut published: tokio::sync::mpsc::Receiver<String>,
    own: String,
    streams: broadcast::Sender<String>,
) {
    while let Some(payload) = published.recv().await {
        match serde_json::from_str::<Update>(&payload) {
            Ok(update) if update.origin == own => {}
            // No listen stream right now: nobody to tell.
            Ok(update) => drop(streams.send(update.uri)),
            Err(error) => {
                tracing::warn!(%error, "skipped a resource update that is not one");
            }
        }
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
