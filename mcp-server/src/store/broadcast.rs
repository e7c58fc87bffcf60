//! Messages to every replica: Redis pub/sub on `{prefix}{channel}`, with a
//! subscriber that reconnects by itself while anyone listens.

use std::time::Duration;

use futures_util::StreamExt;
use tokio::sync::mpsc;

use super::{RedisStore, StoreError};

/// How long a lost subscription waits before subscribing again.
const RESUBSCRIBE_AFTER: Duration = Duration::from_millis(500);
/// Messages held for a slow listener before more wait in Redis' buffer.
const BACKLOG: usize = 256;

impl RedisStore {
    /// Sends `payload` to every replica listening on `channel`.
    pub(crate) async fn publish(&self, channel: &str, payload: &str) -> Result<(), StoreError> {
        redis::cmd("PUBLISH")
            .arg(self.key(&[channel]))
            .arg(payload)
            .query_async::<()>(&mut self.connection())
            .await
            .map_err(|source| self.error("PUBLISH", source))
    }

    /// The payloads published on `channel` from now on, for as long as the
    /// receiver lives (subscribing again after Redis comes back; what was
    /// published in between is lost, as pub/sub has it).
    pub(crate) fn listen(&self, channel: &str) -> mpsc::Receiver<String> {
        let (sender, receiver) = mpsc::channel(BACKLOG);
        let store = self.clone();
        let key = self.key(&[channel]);
        tokio::spawn(async move {
            while !sender.is_closed() {
                let subscribed = async {
                    let mut pubsub = store.client().get_async_pubsub().await?;
                    pubsub.subscribe(&key).await?;
                    Ok::<_, redis::RedisError>(pubsub)
                };
                let mut messages = match subscribed.await {
                    Ok(pubsub) => pubsub.into_on_message(),
                    Err(error) => {
                        tracing::debug!(%error, channel = key, "cannot subscribe yet");
                        tokio::time::sleep(RESUBSCRIBE_AFTER).await;
                        continue;
                    }
                };
                loop {
                    let message = tokio::select! {
                        message = messages.next() => message,
                        () = sender.closed() => return,
                    };
                    let Some(message) = message else { break };
                    match message.get_payload::<String>() {
                        Ok(payload) => {
                            if sender.send(payload).await.is_err() {
                                return;
                            }
                        }
                        Err(error) => {
                            tracing::warn!(%error, channel = key, "skipped a message that is not text");
                        }
                    }
                }
                tracing::debug!(channel = key, "subscription lost; subscribing again");
                tokio::time::sleep(RESUBSCRIBE_AFTER).await;
            }
        });
        receiver
    }
}
