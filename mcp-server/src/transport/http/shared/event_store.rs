//! rmcp's event store on Redis: every SSE event of a session (or of a
//! request's stream) is appended to its stream's log before it is sent, so
//! a client resumes with `Last-Event-ID` on any replica, and the replay
//! keeps following the log until the stream ends.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use futures_util::StreamExt;
use rmcp::model::ServerJsonRpcMessage;
use rmcp::transport::streamable_http_server::session::{
    EventId, EventStore, EventStoreError, EventStream, ServerSseMessage,
};
use tokio::sync::mpsc;

use super::{RedisStore, session_of_common};
use crate::store::{Lifetime, StoredEvent, split_event_id};

/// SSE event logs in Redis.
#[derive(Debug, Clone)]
pub(in crate::transport::http) struct RedisEventStore(pub(in crate::transport::http) RedisStore);

/// Numbers the events that could not be stored (they cannot be resumed).
static UNSTORED: AtomicU64 = AtomicU64::new(0);

#[async_trait::async_trait]
impl EventStore for RedisEventStore {
    async fn store_event(
        &self,
        stream_id: &str,
        event: &ServerSseMessage,
    ) -> Result<EventId, EventStoreError> {
        let data = match &event.message {
            Some(message) => Some(serde_json::to_string(message.as_ref())?),
            None => None,
        };
        let ends = session_of_common(stream_id).is_none()
            && event.message.as_deref().is_some_and(|message| {
                matches!(
                    message,
                    ServerJsonRpcMessage::Response(_) | ServerJsonRpcMessage::Error(_)
                )
            });
        let retry = event
            .retry
            .map(|retry| u64::try_from(retry.as_millis()).unwrap_or(u64::MAX));
        match self
            .0
            .append_event(stream_id, data.as_deref(), retry, ends, self.0.idle_ttl())
            .await
        {
            Ok(id) => Ok(id),
            // The event still reaches the client on its open stream; only
            // resuming from it is lost. A request that needs Redis has
            // already been refused by the gate.
            Err(error) => {
                tracing::warn!(%error, stream = stream_id, "an SSE event was sent without being stored: it cannot be resumed");
                Ok(format!(
                    "unstored-{}",
                    UNSTORED.fetch_add(1, Ordering::Relaxed)
                ))
            }
        }
    }

    async fn replay_events_after(
        &self,
        last_event_id: &str,
    ) -> Result<EventStream, EventStoreError> {
        let (stream, entry) = split_event_id(last_event_id)
            .ok_or_else(|| format!("`{last_event_id}` is not an event id of this server"))?;
        let lifetime = match session_of_common(stream) {
            Some(session) => Lifetime::Session(session.to_owned()),
            None => {
                if !self.0.stream_exists(stream).await? {
                    return Err(format!("the events before `{last_event_id}` have expired").into());
                }
                Lifetime::Stream
            }
        };
        let events = self.0.follow(stream, entry, lifetime).await?;
        Ok(Box::pin(sse_messages(events)))
    }
}

/// The SSE messages of followed events (an event whose data is not a
/// server message is logged and skipped).
pub(super) fn sse_messages(
    mut events: mpsc::Receiver<StoredEvent>,
) -> impl futures_util::Stream<Item = ServerSseMessage> + Send + Sync + 'static {
    futures_util::stream::poll_fn(move |cx| events.poll_recv(cx))
        .filter_map(|event| std::future::ready(sse_message(event)))
}

fn sse_message(event: StoredEvent) -> Option<ServerSseMessage> {
    let mut message = ServerSseMessage::default();
    if let Some(data) = &event.data {
        match serde_json::from_str::<ServerJsonRpcMessage>(data) {
            Ok(parsed) => message.message = Some(Arc::new(parsed)),
            Err(error) => {
                tracing::warn!(event = %event.id, %error, "skipped a stored SSE event that is not a server message");
                return None;
            }
        }
    }
    message.retry = event.retry_ms.map(Duration::from_millis);
    message.event_id = Some(event.id);
    Some(message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(data: Option<&str>, retry_ms: Option<u64>) -> StoredEvent {
        StoredEvent {
            id: "s#1-0".to_owned(),
            data: data.map(str::to_owned),
            retry_ms,
            end: false,
        }
    }

    #[test]
    fn stored_events_become_the_sse_messages_they_were() {
        let note = r#"{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"test://a"}}"#;
        let message = sse_message(stored(Some(note), None)).unwrap();
        assert_eq!(message.event_id.as_deref(), Some("s#1-0"));
        let back = serde_json::to_value(message.message.as_deref().unwrap()).unwrap();
        assert_eq!(back["params"]["uri"], "test://a");
        assert_eq!(message.retry, None);

        let priming = sse_message(stored(None, Some(3000))).unwrap();
        assert!(priming.message.is_none());
        assert_eq!(priming.retry, Some(Duration::from_secs(3)));
    }

    #[test]
    fn an_event_that_is_not_a_server_message_is_skipped() {
        assert!(sse_message(stored(Some("{not json"), None)).is_none());
    }
}
