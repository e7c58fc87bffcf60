//! The most tasks one session may keep (running, or finished and kept for
//! their TTL), so a client cannot grow the server's task records without
//! bound. Unlimited until a transport sets it.

use std::sync::atomic::{AtomicUsize, Ordering};

use rmcp::ErrorData;
use rmcp::model::ErrorCode;

use super::engine::Tasks;
use crate::server::state::ServerState;

/// The implementation-defined server error used for "over a limit".
const SERVER_BUSY: ErrorCode = ErrorCode(-32000);

/// The limit of the server it is attached to.
struct TaskLimit(AtomicUsize);

impl Default for TaskLimit {
    fn default() -> Self {
        Self(AtomicUsize::new(usize::MAX))
    }
}

/// Sets the most tasks a session of `state` may keep.
#[cfg(feature = "http")]
pub(crate) fn set_per_session<C>(state: &ServerState<C>, tasks: usize) {
    state
        .attachments()
        .get_or_insert_with(TaskLimit::default)
        .0
        .store(tasks, Ordering::Relaxed);
}

/// Whether the session keyed `owner` may create one more task; a task
/// without an owner (stateless HTTP, 2026-07-28) is not counted.
pub(crate) async fn admit<C>(state: &ServerState<C>, owner: Option<&str>) -> Result<(), ErrorData> {
    let Some(owner) = owner else {
        return Ok(());
    };
    let limit = state
        .attachments()
        .get_or_insert_with(TaskLimit::default)
        .0
        .load(Ordering::Relaxed);
    if limit == usize::MAX {
        return Ok(());
    }
    let kept = Tasks::of(state).count(owner).await?;
    if kept < limit {
        return Ok(());
    }
    tracing::warn!(
        session = owner,
        limit,
        "refused a task: the session keeps too many tasks"
    );
    Err(ErrorData::new(
        SERVER_BUSY,
        format!(
            "this session already keeps {kept} tasks, the server's limit: wait for them to \
             finish and expire (ask for a shorter `ttl`) or cancel running ones"
        ),
        None,
    ))
}
