//! Sessions in Redis: the `initialize` parameters a replica replays to
//! restore a session, its logging level and resource subscriptions, all
//! expiring together after the idle timeout.
//!
//! - `{prefix}session:{id}`: a hash with `init` (the `initialize`
//!   parameters as JSON) and `level` (the logging level, when set);
//! - `{prefix}session:{id}:subscriptions`: the set of subscribed URIs;
//! - `{prefix}subscribers:{uri}`: the set of session ids subscribed to `uri`
//!   (members whose session expired are dropped when read).

use std::time::Duration;

use super::{RedisStore, StoreError};

/// The hash field of the `initialize` parameters.
const INIT: &str = "init";
/// The hash field of the logging level.
const LEVEL: &str = "level";

/// A shared session's logging level as the store had it when the request
/// came in (its wire name, `"warning"`; `None` until one is set). The HTTP
/// transport puts it in the request's extensions for the handler.
#[derive(Clone, Debug)]
pub(crate) struct SessionLevel(pub(crate) Option<String>);

impl RedisStore {
    fn session_key(&self, id: &str) -> String {
        self.key(&["session", id])
    }

    fn subscriptions_key(&self, id: &str) -> String {
        self.key(&["session", id, "subscriptions"])
    }

    fn subscribers_key(&self, uri: &str) -> String {
        self.key(&["subscribers", uri])
    }

    /// Records a new session's `initialize` parameters (JSON), expiring
    /// after `ttl` unless [`RedisStore::touch_session`] renews it.
    pub(crate) async fn save_session(
        &self,
        id: &str,
        init: &str,
        ttl: Duration,
    ) -> Result<(), StoreError> {
        let key = self.session_key(id);
        redis::pipe()
            .atomic()
            .hset(&key, INIT, init)
            .ignore()
            .pexpire(&key, millis(ttl))
            .ignore()
            .query_async::<()>(&mut self.connection())
            .await
            .map_err(|source| self.error("HSET", source))
    }

    /// The `initialize` parameters (JSON) of session `id`, `None` when it
    /// ended or expired.
    pub(crate) async fn load_session(&self, id: &str) -> Result<Option<String>, StoreError> {
        redis::cmd("HGET")
            .arg(self.session_key(id))
            .arg(INIT)
            .query_async(&mut self.connection())
            .await
            .map_err(|source| self.error("HGET", source))
    }

    /// Renews session `id`'s expiry and reads its logging level, in one
    /// round trip; `None` when the session no longer exists.
    pub(crate) async fn touch_session(
        &self,
        id: &str,
        ttl: Duration,
    ) -> Result<Option<SessionLevel>, StoreError> {
        let (renewed, _, level): (bool, bool, Option<String>) = redis::pipe()
            .pexpire(self.session_key(id), millis(ttl))
            .pexpire(self.subscriptions_key(id), millis(ttl))
            .hget(self.session_key(id), LEVEL)
            .query_async(&mut self.connection())
            .await
            .map_err(|source| self.error("PEXPIRE", source))?;
        Ok(renewed.then_some(SessionLevel(level)))
    }

    /// Forgets session `id`: its record, its subscriptions and its place
    /// among each URI's subscribers.
    pub(crate) async fn delete_session(&self, id: &str) -> Result<(), StoreError> {
        let subscriptions = self.subscriptions_key(id);
        let uris: Vec<String> = redis::cmd("SMEMBERS")
            .arg(&subscriptions)
            .query_async(&mut self.connection())
            .await
            .map_err(|source| self.error("SMEMBERS", source))?;
        let mut pipe = redis::pipe();
        pipe.del(self.session_key(id)).ignore();
        pipe.del(&subscriptions).ignore();
        for uri in &uris {
            pipe.srem(self.subscribers_key(uri), id).ignore();
        }
        pipe.query_async::<()>(&mut self.connection())
            .await
            .map_err(|source| self.error("DEL", source))
    }

    /// Ends session `id` everywhere as [`RedisStore::delete_session`] does,
    /// but only if no replica renewed it in the last `idle` (its expiry is
    /// at most the idle TTL less `idle` away), checked and done in one
    /// script; `false` when a replica served it since, or it is gone. A
    /// replica that ends its own copy of a session idle there calls this,
    /// so a session busy on another replica lives on.
    pub(crate) async fn end_session_idle_for(
        &self,
        id: &str,
        idle: Duration,
    ) -> Result<bool, StoreError> {
        let latest_expiry = millis(self.idle_ttl().saturating_sub(idle) + RENEWAL_SLACK);
        let ended: i64 = redis::cmd("EVAL")
            .arg(END_IF_IDLE)
            .arg(2)
            .arg(self.session_key(id))
            .arg(self.subscriptions_key(id))
            .arg(latest_expiry)
            .arg(self.subscribers_key(""))
            .arg(id)
            .query_async(&mut self.connection())
            .await
            .map_err(|source| self.error("EVAL", source))?;
        Ok(ended == 1)
    }

    /// Sets session `id`'s logging level (its wire name, `"warning"`).
    pub(crate) async fn set_level(&self, id: &str, level: &str) -> Result<(), StoreError> {
        redis::cmd("HSET")
            .arg(self.session_key(id))
            .arg(LEVEL)
            .arg(level)
            .query_async::<()>(&mut self.connection())
            .await
            .map_err(|source| self.error("HSET", source))
    }

    /// Subscribes session `id` to updates of `uri`.
    pub(crate) async fn subscribe(
        &self,
        id: &str,
        uri: &str,
        ttl: Duration,
    ) -> Result<(), StoreError> {
        let subscriptions = self.subscriptions_key(id);
        let subscribers = self.subscribers_key(uri);
        redis::pipe()
            .atomic()
            .sadd(&subscriptions, uri)
            .ignore()
            .pexpire(&subscriptions, millis(ttl))
            .ignore()
            .sadd(&subscribers, id)
            .ignore()
            // The set of a URI outlives each subscriber by at most `ttl`.
            .pexpire(&subscribers, millis(ttl))
            .ignore()
            .query_async::<()>(&mut self.connection())
            .await
            .map_err(|source| self.error("SADD", source))
    }

    /// Ends session `id`'s subscription to `uri`.
    pub(crate) async fn unsubscribe(&self, id: &str, uri: &str) -> Result<(), StoreError> {
        redis::pipe()
            .atomic()
            .srem(self.subscriptions_key(id), uri)
            .ignore()
            .srem(self.subscribers_key(uri), id)
            .ignore()
            .query_async::<()>(&mut self.connection())
            .await
            .map_err(|source| self.error("SREM", source))
    }

    /// The live sessions subscribed to `uri` (expired ones are dropped from
    /// the set on the way).
    pub(crate) async fn subscribers(&self, uri: &str) -> Result<Vec<String>, StoreError> {
        let subscribers = self.subscribers_key(uri);
        let ids: Vec<String> = redis::cmd("SMEMBERS")
            .arg(&subscribers)
            .query_async(&mut self.connection())
            .await
            .map_err(|source| self.error("SMEMBERS", source))?;
        if ids.is_empty() {
            return Ok(ids);
        }
        let mut pipe = redis::pipe();
        for id in &ids {
            pipe.sismember(self.subscriptions_key(id), uri);
        }
        let still: Vec<bool> = pipe
            .query_async(&mut self.connection())
            .await
            .map_err(|source| self.error("SISMEMBER", source))?;
        let (live, gone): (Vec<_>, Vec<_>) = ids.into_iter().zip(still).partition(|(_, s)| *s);
        if !gone.is_empty() {
            let gone: Vec<String> = gone.into_iter().map(|(id, _)| id).collect();
            redis::cmd("SREM")
                .arg(&subscribers)
                .arg(&gone)
                .query_async::<()>(&mut self.connection())
                .await
                .map_err(|source| self.error("SREM", source))?;
        }
        Ok(live.into_iter().map(|(id, _)| id).collect())
    }
}

/// How much later than the idle TTL less the idle time a session's expiry
/// may be and still count as not renewed since: the renewal that started a
/// request precedes the end of its response, from which idleness counts.
const RENEWAL_SLACK: Duration = Duration::from_millis(250);

/// Deletes the session (`KEYS[1]`) and its subscriptions (`KEYS[2]`), and
/// removes it (`ARGV[3]`) from each URI's subscribers (`ARGV[2]` + URI),
/// if its expiry is at most `ARGV[1]` ms away; 1 when it did, else 0.
const END_IF_IDLE: &str = r"
local pttl = redis.call('PTTL', KEYS[1])
if pttl < 0 or pttl > tonumber(ARGV[1]) then return 0 end
for _, uri in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  redis.call('SREM', ARGV[2] .. uri, ARGV[3])
end
redis.call('DEL', KEYS[1], KEYS[2])
return 1
";

/// `ttl` in whole milliseconds, at least one (Redis refuses zero).
pub(super) fn millis(ttl: Duration) -> i64 {
    i64::try_from(ttl.as_millis()).unwrap_or(i64::MAX).max(1)
}
