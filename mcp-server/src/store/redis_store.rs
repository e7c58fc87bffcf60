//! The connection to Redis: one multiplexed connection that reconnects by
//! itself, and the naming of keys.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use tokio::sync::broadcast;

use super::StoreError;

/// The key prefix when none is set.
const DEFAULT_PREFIX: &str = "mcp:";
/// How long one connection attempt may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);
/// How long one command may wait for its answer; past it the request that
/// needed it fails instead of hanging while Redis is away.
const RESPONSE_TIMEOUT: Duration = Duration::from_secs(2);
/// How long an idle session lives until the HTTP transport sets its own
/// idle timeout.
const DEFAULT_IDLE_TTL: Duration = Duration::from_secs(30 * 60);
/// Reconnection attempts per failure before the command fails (the next
/// command tries again, so service resumes when Redis returns).
const RETRIES: usize = 2;

/// A shared store in Redis (feature `redis`): cheap to clone, every clone
/// shares one connection that is re-established after Redis restarts.
///
/// ```no_run
/// use mcp_server::store::RedisStore;
///
/// # async fn run() -> Result<(), mcp_server::store::StoreError> {
/// let store = RedisStore::connect("redis://127.0.0.1:6379").await?;
/// assert_eq!(store.key_prefix(), "mcp:");
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct RedisStore {
    client: redis::Client,
    connection: ConnectionManager,
    prefix: Arc<str>,
    /// The URL without its password, for messages.
    shown_url: Arc<str>,
    /// How long an idle session (and its event log) lives, in milliseconds.
    idle_ttl_ms: Arc<AtomicU64>,
    /// This connection's name in messages to every replica (random, with
    /// the process id for people reading them).
    origin: Arc<str>,
    /// Resource updates from other replicas, for the listen streams: one
    /// subscription, made by the first stream (see `resource_updates`).
    pub(super) resource_updates: Arc<OnceLock<broadcast::Sender<String>>>,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore")
            .field("url", &self.shown_url)
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

impl RedisStore {
    /// Connects to the Redis at `url` (`redis://HOST:PORT[/DB]`, or
    /// `redis://:PASSWORD@HOST:PORT/DB`), failing when it cannot be reached
    /// now; once connected, lost connections are re-established on use.
    pub async fn connect(url: &str) -> Result<RedisStore, StoreError> {
        let client = redis::Client::open(url).map_err(|error| StoreError::InvalidUrl {
            url: url.to_owned(),
            error,
        })?;
        let shown_url: Arc<str> = shown(&client).into();
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(CONNECT_TIMEOUT))
            .set_response_timeout(Some(RESPONSE_TIMEOUT))
            .set_number_of_retries(RETRIES)
            .set_max_delay(Duration::from_millis(500));
        let connection = ConnectionManager::new_with_config(client.clone(), config)
            .await
            .map_err(|error| StoreError::Unreachable {
                url: shown_url.to_string(),
                error,
            })?;
        Ok(RedisStore {
            client,
            connection,
            prefix: DEFAULT_PREFIX.into(),
            shown_url,
            idle_ttl_ms: Arc::new(AtomicU64::new(DEFAULT_IDLE_TTL.as_millis() as u64)),
            origin: super::instance_name().into(),
            resource_updates: Arc::default(),
        })
    }

    /// Puts every key under `prefix` instead of `mcp:` (servers sharing one
    /// Redis database keep apart by prefix).
    pub fn prefix(mut self, prefix: impl Into<String>) -> RedisStore {
        self.prefix = prefix.into().into();
        self
    }

    /// The prefix of every key.
    pub fn key_prefix(&self) -> &str {
        &self.prefix
    }

    /// The URL connected to, without its password.
    pub fn url(&self) -> &str {
        &self.shown_url
    }

    /// Checks that Redis answers (`PING`).
    pub async fn ping(&self) -> Result<(), StoreError> {
        let mut connection = self.connection();
        redis::cmd("PING")
            .query_async::<String>(&mut connection)
            .await
            .map(drop)
            .map_err(|source| self.error("PING", source))
    }

    /// How long an idle session and its event log live in Redis.
    pub(crate) fn idle_ttl(&self) -> Duration {
        Duration::from_millis(self.idle_ttl_ms.load(Ordering::Relaxed))
    }

    /// Sets [`RedisStore::idle_ttl`] (the HTTP endpoint's idle timeout),
    /// for every clone.
    pub(crate) fn set_idle_ttl(&self, ttl: Duration) {
        let millis = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX);
        self.idle_ttl_ms.store(millis, Ordering::Relaxed);
    }

    /// This connection's name in messages to every replica.
    pub(crate) fn origin(&self) -> &str {
        &self.origin
    }

    /// A handle on the shared connection (clones share it).
    pub(crate) fn connection(&self) -> ConnectionManager {
        self.connection.clone()
    }

    /// The client, for connections of their own (pub/sub listeners).
    pub(crate) fn client(&self) -> &redis::Client {
        &self.client
    }

    /// The key of `parts` under the prefix: `key(&["session", id])` is
    /// `mcp:session:ID`.
    pub(crate) fn key(&self, parts: &[&str]) -> String {
        joined(&self.prefix, parts)
    }

    /// Maps the failure of `command` to a [`StoreError`].
    pub(crate) fn error(&self, command: &'static str, source: redis::RedisError) -> StoreError {
        StoreError::command(command, &self.shown_url, source)
    }
}

/// `prefix` followed by `parts` joined by colons.
fn joined(prefix: &str, parts: &[&str]) -> String {
    let mut key = String::from(prefix);
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            key.push(':');
        }
        key.push_str(part);
    }
    key
}

/// `client`'s address for messages, never its password.
fn shown(client: &redis::Client) -> String {
    let info = client.get_connection_info();
    let db = info.redis_settings().db();
    format!("redis://{}/{db}", info.addr())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_the_prefix_and_the_parts_joined_by_colons() {
        assert_eq!(joined("mcp:", &["session", "abc"]), "mcp:session:abc");
        assert_eq!(joined("shop:", &["events"]), "shop:events");
    }

    #[tokio::test]
    async fn a_url_that_is_not_redis_is_refused_by_name() {
        let error = RedisStore::connect("http://127.0.0.1:1").await.unwrap_err();
        assert!(matches!(error, StoreError::InvalidUrl { .. }), "{error}");
        assert!(error.to_string().contains("http://127.0.0.1:1"), "{error}");
    }

    #[tokio::test]
    async fn nothing_listening_is_unreachable() {
        // Port 1 on loopback: nothing listens there without root's doing.
        let error = RedisStore::connect("redis://127.0.0.1:1/0")
            .await
            .unwrap_err();
        assert!(error.is_unreachable(), "{error}");
        assert!(
            error.to_string().contains("redis://127.0.0.1:1/0"),
            "{error}"
        );
    }
}
