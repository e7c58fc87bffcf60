//! Which task store a server uses: in memory unless the builder names a
//! shared one.

use std::sync::Arc;
use std::time::Duration;

use super::TaskStore;
use super::memory::MemoryTaskStore;

/// How long a replica counts as alive after its last heartbeat, unless the
/// server is built with another.
pub(crate) const DEFAULT_HEARTBEAT: Duration = Duration::from_secs(10);

/// Where a server keeps its task records, and how long its replicas'
/// heartbeats last.
#[derive(Clone, Debug)]
pub(crate) struct TaskBackend {
    pub(crate) store: Arc<dyn TaskStore>,
    pub(crate) heartbeat: Duration,
}

impl TaskBackend {
    /// Records in this process's memory.
    pub(crate) fn in_memory(heartbeat: Duration) -> Self {
        Self {
            store: Arc::new(MemoryTaskStore::default()),
            heartbeat,
        }
    }
}

impl Default for TaskBackend {
    fn default() -> Self {
        Self::in_memory(DEFAULT_HEARTBEAT)
    }
}
