//! State shared by the replicas of one server: sessions, their event logs
//! and subscriptions, and tasks, kept in Redis so that any replica behind a
//! load balancer can serve any request.
//!
//! Without a store each process keeps this state in memory (the default).
//! With a [`RedisStore`] every key lives under one prefix (`mcp:` unless
//! [`RedisStore::prefix`] says otherwise) and expires by a Redis TTL, the
//! HTTP endpoint's idle timeout, renewed by every request of the session:
//!
//! | key | type | holds |
//! |---|---|---|
//! | `mcp:session:{id}` | hash | `init` (the `initialize` parameters a replica replays to restore the session), `level` (its logging level) |
//! | `mcp:session:{id}:subscriptions` | set | the URIs the session subscribed to |
//! | `mcp:subscribers:{uri}` | set | the sessions subscribed to `uri` (expired ones dropped when read) |
//! | `mcp:resources:updated` | pub/sub channel | the URI of every resource update, for the `subscriptions/listen` streams of other replicas |
//! | `mcp:forwarded` | pub/sub channel | clients' answers to server requests and cancellations, for the replica whose session they concern |
//! | `mcp:events:{stream}` | stream | the events of one SSE stream (`{id}:common` for a session's `GET` stream, a random id for a request's), the latest 1000 or so; an event id is `{stream}#{entry}` |
//! | `mcp:task:{id}` | string | a task's record as JSON; expires the task's TTL after its last change |
//! | `mcp:tasks:{session}` | sorted set | the session's task ids by creation time; expires with its longest-lived task |
//! | `mcp:replica:{replica}` | string | present while the replica running tasks beats (the task heartbeat TTL) |
//! | `mcp:replica:{replica}:tasks` | pub/sub channel | cancellations and answers for the tasks the replica runs |
//! | `mcp:tasks:ended` | pub/sub channel | the id of every task that ends, so replicas waiting for it look at once |
//! | `mcp:request-state-key` | string | the secret sealing 2026-07-28 `requestState`s; never expires |
//!
//! ```no_run
//! # #[cfg(feature = "redis")]
//! # mod example {
//! use mcp_server::store::RedisStore;
//!
//! # async fn run() -> Result<(), mcp_server::store::StoreError> {
//! let store = RedisStore::connect("redis://127.0.0.1:6379/0").await?.prefix("shop:");
//! assert_eq!(store.key_prefix(), "shop:");
//! # Ok(())
//! # }
//! # }
//! ```

#[cfg(feature = "redis")]
mod broadcast;
#[cfg(feature = "redis")]
mod error;
#[cfg(feature = "redis")]
mod events;
#[cfg(feature = "redis")]
mod redis_store;
#[cfg(feature = "redis")]
mod resource_updates;
#[cfg(feature = "redis")]
mod sessions;
pub(crate) mod task;

#[cfg(feature = "redis")]
#[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
pub use error::StoreError;
#[cfg(feature = "redis")]
#[allow(unused_imports, reason = "the HTTP transport's event store uses them")]
pub(crate) use events::{Lifetime, StoredEvent, split_event_id};
#[cfg(feature = "redis")]
#[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
pub use redis_store::RedisStore;
#[cfg(feature = "redis")]
pub(crate) use sessions::SessionLevel;

/// Without Redis, state stays in memory, where nothing can fail.
#[cfg(not(feature = "redis"))]
pub(crate) type StoreError = std::convert::Infallible;

/// `bytes` in lowercase hexadecimal, two digits a byte.
pub(crate) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut text = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        let _ = write!(text, "{byte:02x}");
    }
    text
}

/// The bytes `text` spells in hexadecimal; none unless it is whole pairs of
/// hexadecimal digits.
pub(crate) fn unhex(text: &str) -> Option<Vec<u8>> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

/// A name no other process or replica has, for what it writes to the
/// store: random, with the process id for people reading the store.
pub(crate) fn instance_name() -> String {
    use std::hash::{BuildHasher, RandomState};
    let random = RandomState::new().hash_one(task::unix_us());
    format!("{}-{random:016x}", std::process::id())
}
