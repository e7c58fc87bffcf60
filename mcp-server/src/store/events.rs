//! The event log of resumable SSE streams in Redis: one Redis stream per SSE
//! stream, `{prefix}events:{stream}`, trimmed to its latest events and
//! expiring after the idle timeout. An event's id is
//! `{stream}#{entry}` (the Redis entry id), so it names its stream and is
//! unique across replicas.

use std::collections::VecDeque;
use std::time::Duration;

use futures_util::stream::{self, StreamExt};
use redis::AsyncConnectionConfig;
use redis::aio::MultiplexedConnection;
use redis::streams::{StreamId, StreamRangeReply, StreamReadReply};
use tokio::sync::mpsc;

use super::sessions::millis;
use super::{RedisStore, StoreError};

/// Events kept per stream (Redis trims older ones, roughly).
const KEPT_EVENTS: usize = 1000;
/// How long one blocking read waits before checking the stream still lives.
const BLOCK: Duration = Duration::from_secs(10);
/// Events read at once.
const BATCH: usize = 100;

/// One event of an SSE stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StoredEvent {
    /// `{stream}#{entry}`.
    pub(crate) id: String,
    /// The `data:` (a JSON-RPC message), absent in a priming event.
    pub(crate) data: Option<String>,
    /// The `retry:` in milliseconds, if any.
    pub(crate) retry_ms: Option<u64>,
    /// Whether this event ends its stream (the response of its request).
    pub(crate) end: bool,
}

/// How long following a stream goes on when nothing new arrives.
#[derive(Debug, Clone)]
pub(crate) enum Lifetime {
    /// While the stream itself exists (a request's stream).
    Stream,
    /// While the session of this id exists (a session's standalone stream).
    Session(String),
}

/// `event_id` split into its stream and Redis entry id.
pub(crate) fn split_event_id(event_id: &str) -> Option<(&str, &str)> {
    let (stream, entry) = event_id.rsplit_once('#')?;
    let (millis, sequence) = entry.split_once('-')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (!stream.is_empty() && digits(millis) && digits(sequence)).then_some((stream, entry))
}

impl RedisStore {
    fn events_key(&self, stream: &str) -> String {
        self.key(&["events", stream])
    }

    /// Appends an event to `stream` and returns its id; the stream expires
    /// `ttl` after its latest event.
    pub(crate) async fn append_event(
        &self,
        stream: &str,
        data: Option<&str>,
        retry_ms: Option<u64>,
        end: bool,
        ttl: Duration,
    ) -> Result<String, StoreError> {
        let key = self.events_key(stream);
        let mut fields: Vec<(&str, String)> = Vec::new();
        if let Some(data) = data {
            fields.push(("data", data.to_owned()));
        }
        if let Some(retry) = retry_ms {
            fields.push(("retry", retry.to_string()));
        }
        if end {
            fields.push(("end", "1".to_owned()));
        }
        if fields.is_empty() {
            fields.push(("empty", "1".to_owned()));
        }
        let (entry, _): (String, bool) = redis::pipe()
            .atomic()
            .cmd("XADD")
            .arg(&key)
            .arg("MAXLEN")
            .arg("~")
            .arg(KEPT_EVENTS)
            .arg("*")
            .arg(&fields)
            .pexpire(&key, millis(ttl))
            .query_async(&mut self.connection())
            .await
            .map_err(|source| self.error("XADD", source))?;
        Ok(format!("{stream}#{entry}"))
    }

    /// The id of `stream`'s latest entry (`0-0` while it has none), to
    /// follow it from now on.
    pub(crate) async fn latest_entry(&self, stream: &str) -> Result<String, StoreError> {
        let reply: StreamRangeReply = redis::cmd("XREVRANGE")
            .arg(self.events_key(stream))
            .arg("+")
            .arg("-")
            .arg("COUNT")
            .arg(1)
            .query_async(&mut self.connection())
            .await
            .map_err(|source| self.error("XREVRANGE", source))?;
        Ok(reply
            .ids
            .into_iter()
            .next()
            .map_or_else(|| "0-0".to_owned(), |entry| entry.id))
    }

    /// Whether `stream` has any event left (it has not expired).
    pub(crate) async fn stream_exists(&self, stream: &str) -> Result<bool, StoreError> {
        redis::cmd("EXISTS")
            .arg(self.events_key(stream))
            .query_async(&mut self.connection())
            .await
            .map_err(|source| self.error("EXISTS", source))
    }

    /// The events of `stream` after the entry `after`, then every event
    /// appended by any replica as it comes: until an event that ends the
    /// stream, until the stream (or the session of `lifetime`) is gone, or
    /// until Redis fails (then the client resumes again). Following stops
    /// soon after the receiver is dropped.
    pub(crate) async fn follow(
        &self,
        stream: &str,
        after: &str,
        lifetime: Lifetime,
    ) -> Result<mpsc::Receiver<StoredEvent>, StoreError> {
        let config = AsyncConnectionConfig::new()
            .set_connection_timeout(Some(Duration::from_secs(2)))
            .set_response_timeout(Some(BLOCK + Duration::from_secs(5)));
        let connection = self
            .client()
            .get_multiplexed_async_connection_with_config(&config)
            .await
            .map_err(|source| self.error("XREAD", source))?;
        let follower = Follower {
            store: self.clone(),
            stream: stream.to_owned(),
            key: self.events_key(stream),
            last: after.to_owned(),
            lifetime,
            connection,
            ready: VecDeque::new(),
            ended: false,
        };
        let (sender, receiver) = mpsc::channel(BATCH);
        tokio::spawn(async move {
            let mut events = std::pin::pin!(stream::unfold(follower, Follower::next));
            loop {
                let event = tokio::select! {
                    event = events.next() => event,
                    () = sender.closed() => None,
                };
                let Some(event) = event else { break };
                if sender.send(event).await.is_err() {
                    break;
                }
            }
        });
        Ok(receiver)
    }
}

/// The state of one [`RedisStore::follow`].
struct Follower {
    store: RedisStore,
    stream: String,
    key: String,
    last: String,
    lifetime: Lifetime,
    connection: MultiplexedConnection,
    ready: VecDeque<StoredEvent>,
    ended: bool,
}

impl Follower {
    async fn next(mut self) -> Option<(StoredEvent, Follower)> {
        loop {
            if let Some(event) = self.ready.pop_front() {
                if event.end {
                    self.ended = true;
                    self.ready.clear();
                }
                return Some((event, self));
            }
            if self.ended {
                return None;
            }
            let read: Result<Option<StreamReadReply>, _> = redis::cmd("XREAD")
                .arg("COUNT")
                .arg(BATCH)
                .arg("BLOCK")
                .arg(BLOCK.as_millis() as u64)
                .arg("STREAMS")
                .arg(&self.key)
                .arg(&self.last)
                .query_async(&mut self.connection)
                .await;
            match read {
                Ok(Some(reply)) => {
                    for entry in reply.keys.into_iter().flat_map(|key| key.ids) {
                        self.last.clone_from(&entry.id);
                        self.ready.push_back(stored(&self.stream, &entry));
                    }
                }
                Ok(None) => {
                    if !self.alive().await {
                        return None;
                    }
                }
                Err(error) => {
                    tracing::warn!(stream = %self.stream, %error, "stopped following an SSE stream in Redis");
                    return None;
                }
            }
        }
    }

    /// Whether following should go on after a quiet spell.
    async fn alive(&self) -> bool {
        let alive = match &self.lifetime {
            Lifetime::Stream => self.store.stream_exists(&self.stream).await,
            Lifetime::Session(id) => self.store.load_session(id).await.map(|s| s.is_some()),
        };
        alive.unwrap_or(false)
    }
}

/// The event of a Redis stream entry.
fn stored(stream: &str, entry: &StreamId) -> StoredEvent {
    StoredEvent {
        id: format!("{stream}#{}", entry.id),
        data: entry.get("data"),
        retry_ms: entry.get("retry"),
        end: entry.contains_key("end"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_ids_name_their_stream_and_entry() {
        assert_eq!(
            split_event_id("abc:common#1700000000000-3"),
            Some(("abc:common", "1700000000000-3"))
        );
        assert_eq!(split_event_id("a#b#12-0"), Some(("a#b", "12-0")));
        assert_eq!(split_event_id("0/7"), None);
        assert_eq!(split_event_id("#1-0"), None);
        assert_eq!(split_event_id("s#1-"), None);
        assert_eq!(split_event_id("s#x-1"), None);
    }
}
