//! A task's shared record ([`TaskRecord`]) on the replica that runs it, and
//! as rmcp's [`DetailedTask`] for the wire.
//!
//! The runner keeps the record in memory and writes the whole of it to the
//! store after every change, one write at a time, so the store always ends
//! with the latest state; once the task has ended, nothing changes it.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use rmcp::model::{DetailedTask, InputRequests, Task, TaskPayload, TaskStatus};
use serde_json::{Map, Value};
use tokio::sync::watch;

use crate::store::StoreError;
use crate::store::task::{TaskRecord, TaskState, TaskStore};

/// How often, and how far apart, the end of a task is written before the
/// store is given up on (about a minute).
const END_WRITE_ATTEMPTS: u32 = 30;
const END_WRITE_PAUSE: std::time::Duration = std::time::Duration::from_secs(2);

/// The time now, as task timestamps spell it (ISO 8601).
pub(crate) fn now() -> String {
    rmcp::task_manager::current_timestamp()
}

/// A task this replica runs: its record and the store it is written to.
pub(crate) struct Running {
    record: Mutex<TaskRecord>,
    /// Held while a write is under way, so writes land in order.
    writes: tokio::sync::Mutex<()>,
    ended: watch::Sender<bool>,
    /// Turns `true` when the store already holds an end of the task that
    /// another replica wrote (it took this one for dead).
    overruled: watch::Sender<bool>,
    store: Arc<dyn TaskStore>,
}

impl Running {
    pub(crate) fn new(record: TaskRecord, store: Arc<dyn TaskStore>) -> Arc<Self> {
        Arc::new(Self {
            record: Mutex::new(record),
            writes: tokio::sync::Mutex::new(()),
            ended: watch::Sender::new(false),
            overruled: watch::Sender::new(false),
            store,
        })
    }

    fn lock(&self) -> MutexGuard<'_, TaskRecord> {
        self.record.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The record as it is now.
    pub(crate) fn snapshot(&self) -> TaskRecord {
        self.lock().clone()
    }

    /// Writes the record as it is now to the store.
    pub(crate) async fn write(&self) -> Result<(), StoreError> {
        let _turn = self.writes.lock().await;
        let record = self.snapshot();
        if !self.store.put(&record).await? {
            // Another replica took this one for dead and failed the task;
            // that end stands, and the handler stops.
            tracing::warn!(task_id = %record.id, "the store holds an end of this task already; this replica stops running it");
            self.overruled.send_replace(true);
        }
        Ok(())
    }

    /// Applies `change` to the record of a task still running, then writes
    /// it; a failed write is logged (the next one carries the change too).
    pub(crate) async fn change(&self, change: impl FnOnce(&mut TaskRecord)) {
        {
            let mut record = self.lock();
            if record.status.is_terminal() {
                return;
            }
            change(&mut record);
            record.last_updated_at = now();
        }
        self.write_logged().await;
    }

    /// Ends the task with `payload` (unless it already ended) and writes it.
    pub(crate) async fn end(&self, payload: TaskPayload) {
        {
            let mut record = self.lock();
            if !record.status.is_terminal() {
                record.input_requests.clear();
                record.last_updated_at = now();
                match payload {
                    TaskPayload::Completed { result } => {
                        record.status = TaskState::Completed;
                        record.result = Some(result);
                    }
                    TaskPayload::Failed { error } => {
                        record.status = TaskState::Failed;
                        record.error = Some(error);
                    }
                    _ => record.status = TaskState::Cancelled,
                }
            }
        }
        // The end must reach the store, or other replicas would see the task
        // run until it expires: a failed write is tried again a while.
        for attempt in 1..=END_WRITE_ATTEMPTS {
            match self.write().await {
                Ok(()) => break,
                Err(error) => {
                    let task_id = self.lock().id.clone();
                    tracing::error!(%error, %task_id, attempt, "cannot write a task's end to the store");
                    tokio::time::sleep(END_WRITE_PAUSE).await;
                }
            }
        }
        self.ended.send_replace(true);
    }

    /// Resolves once another replica's end of the task is in the store.
    pub(crate) async fn overruled(&self) {
        let mut overruled = self.overruled.subscribe();
        // The sender lives as long as `self`.
        let _ = overruled.wait_for(|overruled| *overruled).await;
    }

    /// Waits until the task has ended and its end was written.
    pub(crate) async fn ended(&self) {
        let mut ended = self.ended.subscribe();
        // The sender lives as long as `self`.
        let _ = ended.wait_for(|ended| *ended).await;
    }

    async fn write_logged(&self) {
        if let Err(error) = self.write().await {
            let task_id = self.lock().id.clone();
            tracing::error!(%error, %task_id, "cannot write a task's record to the store");
        }
    }
}

/// `error` as the JSON-RPC error object a failed task inlines.
pub(crate) fn error_object(error: &rmcp::ErrorData) -> Map<String, Value> {
    match serde_json::to_value(error) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    }
}

/// rmcp's status of `state`.
fn status(state: TaskState) -> TaskStatus {
    match state {
        TaskState::Working => TaskStatus::Working,
        TaskState::InputRequired => TaskStatus::InputRequired,
        TaskState::Completed => TaskStatus::Completed,
        TaskState::Failed => TaskStatus::Failed,
        TaskState::Cancelled => TaskStatus::Cancelled,
    }
}

/// The record as rmcp's task, with its payload.
pub(crate) fn detailed(record: &TaskRecord) -> DetailedTask {
    let mut task = Task::new(
        record.id.clone(),
        status(record.status),
        record.created_at.clone(),
        record.last_updated_at.clone(),
    );
    task.ttl_ms = Some(record.ttl_ms);
    task.poll_interval_ms = Some(record.poll_interval_ms);
    task.status_message = record.status_message.clone();
    let payload = match record.status {
        TaskState::Working => TaskPayload::Working,
        TaskState::InputRequired => TaskPayload::InputRequired {
            input_requests: input_requests(record),
        },
        TaskState::Completed => TaskPayload::Completed {
            result: record.result.clone().unwrap_or_default(),
        },
        TaskState::Failed => TaskPayload::Failed {
            error: record.error.clone().unwrap_or_default(),
        },
        TaskState::Cancelled => TaskPayload::Cancelled,
    };
    DetailedTask::new(task, payload)
}

fn input_requests(record: &TaskRecord) -> InputRequests {
    record
        .input_requests
        .iter()
        .filter_map(
            |(key, request)| match serde_json::from_value(request.clone()) {
                Ok(request) => Some((key.clone(), request)),
                Err(error) => {
                    tracing::error!(%key, %error, "a stored input request is not a valid request");
                    None
                }
            },
        )
        .collect()
}
