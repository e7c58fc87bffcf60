//! Task records shared by the replicas of a server: what a task is doing
//! (or how it ended), who created it and which replica runs it, behind the
//! [`TaskStore`] trait: in memory (one process, the default) or in Redis
//! (any replica answers for any task).
//!
//! The replica that runs a task writes every change of its record; any
//! replica reads records, lists a session's tasks, and sends the runner the
//! commands only it can carry out ([`TaskCommand`]: a cancellation, answers
//! to the task's questions). Each replica proves it is alive by a heartbeat
//! that expires: a task whose runner stopped beating is reported failed,
//! never run again.
//!
//! The store a server uses is its [`backend`]; [`memory`] and [`redis`]
//! are the two kinds.

pub(crate) mod backend;
pub(crate) mod memory;
#[cfg(feature = "redis")]
pub(crate) mod redis;

use std::collections::BTreeMap;
use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use futures_util::future::BoxFuture;
use futures_util::stream::BoxStream;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::StoreError;

/// Where a task stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum TaskState {
    /// Running.
    Working,
    /// Running, and waiting for the client to answer a question.
    InputRequired,
    /// Ended with a result.
    Completed,
    /// Ended with an error.
    Failed,
    /// Ended by a cancellation.
    Cancelled,
}

impl TaskState {
    /// Whether the task has ended.
    pub(crate) fn is_terminal(self) -> bool {
        matches!(self, Self::Completed | Self::Failed | Self::Cancelled)
    }
}

/// One task as every replica sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TaskRecord {
    /// The task's id.
    pub(crate) id: String,
    /// The session that created it (2025-11-25 tasks belong to their
    /// session); none for a task of no session.
    pub(crate) owner: Option<String>,
    pub(crate) status: TaskState,
    pub(crate) status_message: Option<String>,
    /// ISO 8601.
    pub(crate) created_at: String,
    /// ISO 8601.
    pub(crate) last_updated_at: String,
    /// Microseconds since the Unix epoch at creation: the order of
    /// `tasks/list`.
    pub(crate) created_us: u64,
    /// How long the record is kept after its last change, in milliseconds.
    pub(crate) ttl_ms: u64,
    /// The polling interval suggested to clients, in milliseconds.
    pub(crate) poll_interval_ms: u64,
    /// The tool's result, once completed.
    pub(crate) result: Option<Map<String, Value>>,
    /// The JSON-RPC error the task failed with, once failed.
    pub(crate) error: Option<Map<String, Value>>,
    /// The questions waiting for an answer (`input_required`), by key: each
    /// a `{"method", "params"}` request.
    #[serde(default)]
    pub(crate) input_requests: BTreeMap<String, Value>,
    /// The replica that runs the task.
    pub(crate) runner: String,
}

impl TaskRecord {
    /// Ends the task as failed with a JSON-RPC internal error saying `why`.
    pub(crate) fn fail(&mut self, why: &str, now: String) {
        let mut error = Map::new();
        error.insert("code".into(), Value::from(-32603));
        error.insert("message".into(), Value::from(why));
        self.status = TaskState::Failed;
        self.status_message = Some(why.to_owned());
        self.error = Some(error);
        self.input_requests.clear();
        self.last_updated_at = now;
    }
}

/// What one replica tells another about tasks: asks of the replica running
/// a task, or news for every replica.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    tag = "command"
)]
pub(crate) enum TaskCommand {
    /// `tasks/cancel`.
    Cancel {
        /// The task.
        task_id: String,
    },
    /// Answers to the task's questions (`tasks/update`), by key.
    Answer {
        /// The task.
        task_id: String,
        /// The client's answers.
        responses: BTreeMap<String, Value>,
    },
    /// A task ended (sent to every replica, so those waiting for it look
    /// at once).
    Ended {
        /// The task.
        task_id: String,
    },
}

/// Where task records live, and how replicas reach each other about them.
///
/// Records expire [`TaskRecord::ttl_ms`] after their last write; a session's
/// list forgets expired tasks. The first end written is final: a record
/// that ended is never overwritten, so a task is never seen to end twice
/// (say, completed by its runner and failed by a replica that thought the
/// runner dead).
pub(crate) trait TaskStore: Send + Sync + fmt::Debug {
    /// Writes `record` (the whole of it), keeping it `ttl_ms` from now;
    /// `false`, writing nothing, when the stored record already ended.
    fn put<'a>(&'a self, record: &'a TaskRecord) -> BoxFuture<'a, Result<bool, StoreError>>;

    /// The record of `task_id`, if it exists and has not expired.
    fn get<'a>(&'a self, task_id: &'a str)
    -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>>;

    /// The records of the tasks `owner` created, oldest first.
    fn list<'a>(&'a self, owner: &'a str) -> BoxFuture<'a, Result<Vec<TaskRecord>, StoreError>>;

    /// How many records of tasks `owner` created have not expired, without
    /// reading them.
    fn count<'a>(&'a self, owner: &'a str) -> BoxFuture<'a, Result<usize, StoreError>>;

    /// Notes that `replica` is alive for `ttl` from now.
    fn beat<'a>(&'a self, replica: &'a str, ttl: Duration)
    -> BoxFuture<'a, Result<(), StoreError>>;

    /// Whether `replica` beat within its last heartbeat's TTL.
    fn is_alive<'a>(&'a self, replica: &'a str) -> BoxFuture<'a, Result<bool, StoreError>>;

    /// The secret every replica of this store seals a request's
    /// input-required state (`requestState`) with, made on first use; none
    /// for a store of one process, which seals with a key of its own.
    fn seal_secret(&self) -> BoxFuture<'_, Result<Option<[u8; 32]>, StoreError>>;

    /// Sends `command` to `replica`; `false` when no replica of that name
    /// listens.
    fn send<'a>(
        &'a self,
        replica: &'a str,
        command: &'a TaskCommand,
    ) -> BoxFuture<'a, Result<bool, StoreError>>;

    /// The commands sent to `replica`, and the ends of tasks, from now on
    /// (a store of one process tells no ends: its waiters are local); the
    /// stream ends when the store loses the subscription (subscribe again to
    /// go on).
    fn commands<'a>(
        &'a self,
        replica: &'a str,
    ) -> BoxFuture<'a, Result<BoxStream<'static, TaskCommand>, StoreError>>;
}

/// Microseconds since the Unix epoch.
pub(crate) fn unix_us() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|elapsed| u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_states_have_stable_spellings() {
        let command = TaskCommand::Cancel {
            task_id: "t1".into(),
        };
        assert_eq!(
            serde_json::to_value(&command).unwrap(),
            serde_json::json!({"command": "cancel", "taskId": "t1"})
        );
        assert_eq!(
            serde_json::to_value(TaskState::InputRequired).unwrap(),
            "input_required"
        );
        assert!(TaskState::Cancelled.is_terminal() && !TaskState::Working.is_terminal());
    }
}
