//! Sessions shared by replicas through a [`RedisStore`]: rmcp's hooks
//! (its session store, which restores a session on another replica by
//! replaying `initialize`, and its event store, which resumes SSE streams),
//! a session manager whose standalone `GET` stream follows the session's
//! event log in Redis, a gate that renews each session's expiry and answers
//! a clear JSON-RPC error while Redis is away, and the delivery of resource
//! updates to subscribed sessions wherever their stream is held.

mod event_store;
mod gate;
mod manager;
mod session_store;
mod updates;

pub(super) use event_store::RedisEventStore;
pub(super) use gate::{Gate, check};
pub(super) use manager::SharedSessions;
pub(super) use session_store::RedisSessionStore;
pub(super) use updates::ResourceUpdates;

use crate::store::RedisStore;

/// The event-log stream of session `id`'s standalone (`GET`) stream, as
/// rmcp names it.
fn common_stream(id: &str) -> String {
    format!("{id}:common")
}

/// The session whose standalone stream `stream` is, if it is one.
fn session_of_common(stream: &str) -> Option<&str> {
    stream.strip_suffix(":common")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standalone_streams_name_their_session() {
        assert_eq!(session_of_common(&common_stream("abc")), Some("abc"));
        assert_eq!(session_of_common("0b1c-uuid"), None);
    }
}
