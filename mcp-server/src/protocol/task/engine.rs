//! The task engine behind both task protocols.
//!
//! A tool that declares task support runs as a task when a client asks:
//! a 2026-07-28 client by declaring the `io.modelcontextprotocol/tasks`
//! extension (SEP-2663; `tasks/get` polls, `tasks/update` answers
//! questions), a 2025-11-25 client by sending `params.task` (see
//! [`v2025::tasks`](crate::protocol::v2025::tasks); `tasks/get`, `tasks/result`,
//! `tasks/list`, `tasks/cancel`). Both generations share this engine: the same handler,
//! cancellation, TTL expiry and status. Tasks outlive the request (and, in
//! stateless HTTP, the handler), so the engine belongs to the server.
//!
//! The replica that runs a task does so on rmcp's `TaskManager` and writes
//! the task's record to the server's task store (in memory, or shared in
//! Redis) after every change. Any replica reads records from the store and
//! forwards a cancellation or answers to the runner through it (see
//! [`super::replica`] and [`super::commands`]); a task whose runner stopped beating is
//! reported failed, never run twice.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::Duration;

use mcp_core::{BoxFuture, CallToolResult};
use rmcp::ErrorData;
use rmcp::model::{CreateTaskResult, TaskPayload};
use rmcp::task_manager::{DEFAULT_TASK_TTL_MS, TaskExit, TaskManager, TaskOptions};
use tokio::sync::oneshot;

use super::channel::{Requestor, TaskChannel};
use super::record::{Running, detailed, error_object, now};
use super::replica::{Membership, Obey};
use crate::protocol::channel::input_round::Seal;
use crate::protocol::convert::{protocol_error_to_rmcp, result_to_rmcp};
use crate::server::state::ServerState;
use crate::store::StoreError;
use crate::store::task::backend::TaskBackend;
use crate::store::task::{TaskRecord, TaskState, unix_us};

/// The suggested polling interval of every task, in milliseconds.
const POLL_INTERVAL_MS: u64 = 100;

/// The longest retention a client may ask for (a day); longer requests get
/// this, as the specification lets a server decide the actual TTL.
pub(crate) const MAX_TTL_MS: u64 = 24 * 60 * 60 * 1000;

/// The longest a task request waits for this replica to listen for
/// commands about its tasks before it fails (at most the heartbeat TTL).
const LISTEN_WAIT: Duration = Duration::from_secs(5);

/// The status message of a task whose runner stopped.
pub(crate) const RUNNER_GONE: &str =
    "the server replica running this task stopped before the task finished";

/// How to start one task.
pub(crate) struct TaskStart {
    /// The retention the client asked for (ms); the engine's default when
    /// `None`, at most [`MAX_TTL_MS`].
    pub(crate) ttl_ms: Option<u64>,
    /// Set for a 2025-11-25 task.
    pub(crate) requestor: Option<Requestor>,
}

/// The server's tasks: those this replica runs, and the store every
/// replica's task records are in.
pub(crate) struct Tasks {
    pub(super) manager: TaskManager,
    pub(super) membership: Membership,
    running: Mutex<HashMap<String, Arc<Running>>>,
    /// How this server seals `requestState`, once known.
    seal: tokio::sync::OnceCell<Seal>,
    /// Woken whenever another replica's task ends.
    pub(super) ended_elsewhere: tokio::sync::Notify,
}

impl Tasks {
    fn new(backend: &TaskBackend) -> Self {
        Self {
            manager: TaskManager::new(),
            membership: Membership::new(backend.store.clone(), backend.heartbeat),
            running: Mutex::default(),
            seal: tokio::sync::OnceCell::new(),
            ended_elsewhere: tokio::sync::Notify::new(),
        }
    }

    /// The tasks of the server `state`, shared by all its sessions.
    pub(crate) fn of<C>(state: &ServerState<C>) -> Arc<Self> {
        let backend = state.attachments().get_or_insert_with(TaskBackend::default);
        let tasks = state
            .attachments()
            .get_or_insert_with(|| Self::new(&backend));
        let target: Weak<dyn Obey> = Arc::downgrade(&tasks) as Weak<dyn Obey>;
        tasks.membership.start(target);
        tasks
    }

    /// How this server seals the input-required state of 2026-07-28
    /// requests: with the secret its replicas share in the store, if any.
    pub(crate) async fn seal(&self) -> Result<Seal, ErrorData> {
        self.seal
            .get_or_try_init(|| async {
                let secret = self
                    .membership
                    .store
                    .seal_secret()
                    .await
                    .map_err(|error| store_failed(&error))?;
                Ok(Seal::of(secret))
            })
            .await
            .cloned()
    }

    pub(super) fn local(&self, task_id: &str) -> Option<Arc<Running>> {
        self.running
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(task_id)
            .cloned()
    }

    /// Starts `call` (made with the task's channel) as a task; its record
    /// is in the store before this returns. Fails, running nothing, when
    /// the store cannot be written.
    pub(crate) async fn spawn(
        self: &Arc<Self>,
        start: TaskStart,
        call: impl FnOnce(TaskChannel) -> BoxFuture<'static, CallToolResult> + Send + 'static,
    ) -> Result<TaskRecord, ErrorData> {
        self.until_listening().await?;
        let ttl_ms = start
            .ttl_ms
            .unwrap_or(DEFAULT_TASK_TTL_MS)
            .clamp(1, MAX_TTL_MS);
        // The engine fails a task at its TTL itself (and writes that); the
        // manager's own limit is only a backstop for its memory.
        let options = TaskOptions::new()
            .with_poll_interval_ms(POLL_INTERVAL_MS)
            .with_ttl_ms(ttl_ms.saturating_mul(2));
        let (go, gate) = oneshot::channel::<()>();
        let owner = start.requestor.as_ref().and_then(|r| r.owner.clone());
        let mut made = None;
        let engine = Arc::downgrade(self);
        let task = self.manager.spawn(options, |context| {
            let created_at = now();
            let record = TaskRecord {
                id: context.task_id().to_owned(),
                owner,
                status: TaskState::Working,
                status_message: None,
                last_updated_at: created_at.clone(),
                created_at,
                created_us: unix_us(),
                ttl_ms,
                poll_interval_ms: POLL_INTERVAL_MS,
                result: None,
                error: None,
                input_requests: BTreeMap::new(),
                runner: self.membership.replica.clone(),
            };
            let running = Running::new(record, self.membership.store.clone());
            made = Some(running.clone());
            let channel = TaskChannel::new(
                context.clone(),
                self.manager.clone(),
                start.requestor.clone(),
                running.clone(),
            );
            let call = call(channel);
            Box::pin(async move {
                if gate.await.is_err() {
                    // The record could not be written: the task never starts.
                    return Err(TaskExit::Cancelled);
                }
                let ttl = Duration::from_millis(ttl_ms);
                // A cancelled task settles as cancelled even when its handler
                // returns a result on the way out.
                let outcome = tokio::select! {
                    biased;
                    () = context.cancelled() => Err(TaskExit::Cancelled),
                    // Another replica failed the task, taking this one for dead.
                    () = running.overruled() => Err(TaskExit::Cancelled),
                    result = tokio::time::timeout(ttl, call) => match result {
                        Err(_) => Err(TaskExit::Error(ErrorData::internal_error(
                            "task expired: TTL elapsed before completion", None,
                        ))),
                        Ok(result) => match (context.is_cancel_requested(), result.protocol_error()) {
                            (true, _) => Err(TaskExit::Cancelled),
                            // The handler raised a JSON-RPC error: the task fails with it.
                            (false, Some(error)) => Err(TaskExit::Error(protocol_error_to_rmcp(error))),
                            (false, None) => Ok(result_to_rmcp(result)),
                        },
                    },
                };
                running.end(payload_of(&outcome)).await;
                if let Some(engine) = engine.upgrade() {
                    engine.forget(context.task_id());
                }
                outcome
            })
        });
        let Some(running) = made else {
            return Err(ErrorData::internal_error("the task did not start", None));
        };
        self.running
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(task.task_id.clone(), running.clone());
        if let Err(error) = running.write().await {
            self.forget(&task.task_id);
            return Err(store_failed(&error));
        }
        let _ = go.send(());
        Ok(running.snapshot())
    }

    /// Starts `call` as a 2026-07-28 task.
    pub(crate) async fn spawn_2026(
        self: &Arc<Self>,
        call: impl FnOnce(TaskChannel) -> BoxFuture<'static, CallToolResult> + Send + 'static,
    ) -> Result<CreateTaskResult, ErrorData> {
        let start = TaskStart {
            ttl_ms: None,
            requestor: None,
        };
        let record = self.spawn(start, call).await?;
        Ok(CreateTaskResult::new(detailed(&record).task))
    }

    fn forget(&self, task_id: &str) {
        self.running
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(task_id);
    }

    /// Waits (a while) until this replica beats and hears commands, so no
    /// task starts that other replicas could not reach.
    async fn until_listening(&self) -> Result<(), ErrorData> {
        let wait = self.membership.heartbeat.min(LISTEN_WAIT);
        if self.membership.listening_within(wait).await {
            return Ok(());
        }
        tracing::error!(replica = %self.membership.replica, "cannot start a task: the task store does not answer");
        Err(ErrorData::internal_error(
            "cannot start a task: the task store does not answer (is Redis reachable?)",
            None,
        ))
    }

    /// The task's record; -32602 for a task that does not exist (or expired
    /// and was removed). A task whose runner stopped is failed here.
    pub(crate) async fn get(&self, task_id: &str) -> Result<TaskRecord, ErrorData> {
        if let Some(running) = self.local(task_id) {
            return Ok(running.snapshot());
        }
        let record = self
            .membership
            .store
            .get(task_id)
            .await
            .map_err(|error| store_failed(&error))?
            .ok_or_else(|| unknown_task(task_id))?;
        self.vouch(record, &mut HashMap::new()).await
    }

    /// `record`, or, when its runner is gone, the record failed (and
    /// written). `alive` remembers runners already asked about.
    pub(super) async fn vouch(
        &self,
        mut record: TaskRecord,
        alive: &mut HashMap<String, bool>,
    ) -> Result<TaskRecord, ErrorData> {
        if record.status.is_terminal() || record.runner == self.membership.replica {
            return Ok(record);
        }
        let is_alive = match alive.get(&record.runner) {
            Some(known) => *known,
            None => {
                let known = self
                    .membership
                    .store
                    .is_alive(&record.runner)
                    .await
                    .map_err(|error| store_failed(&error))?;
                alive.insert(record.runner.clone(), known);
                known
            }
        };
        if is_alive {
            return Ok(record);
        }
        let store = &self.membership.store;
        record.fail(RUNNER_GONE, now());
        let written = store
            .put(&record)
            .await
            .map_err(|error| store_failed(&error))?;
        if written {
            tracing::warn!(task_id = %record.id, runner = %record.runner, "a task's runner stopped: the task failed");
            return Ok(record);
        }
        // The runner ended the task just before: its end stands.
        store
            .get(&record.id)
            .await
            .map_err(|error| store_failed(&error))?
            .ok_or_else(|| unknown_task(&record.id))
    }

    /// The task's record once it is terminal (completed, failed or
    /// cancelled); waits as long as it runs.
    pub(crate) async fn settled(&self, task_id: &str) -> Result<TaskRecord, ErrorData> {
        loop {
            if let Some(running) = self.local(task_id) {
                running.ended().await;
                return Ok(running.snapshot());
            }
            let ended = self.ended_elsewhere.notified();
            let record = self.get(task_id).await?;
            if record.status.is_terminal() {
                return Ok(record);
            }
            // Woken when a task ends anywhere; looking again now and then
            // notices a runner that died (and a missed notification).
            let again = self.membership.heartbeat / 3;
            tokio::select! {
                () = ended => {}
                () = tokio::time::sleep(again.max(Duration::from_millis(record.poll_interval_ms))) => {}
            }
        }
    }

    /// How many tasks `owner` keeps (running, or ended and not expired).
    pub(crate) async fn count(&self, owner: &str) -> Result<usize, ErrorData> {
        self.membership
            .store
            .count(owner)
            .await
            .map_err(|error| store_failed(&error))
    }

    /// The records of the tasks `owner` created, oldest first, that still
    /// exist.
    pub(crate) async fn list(&self, owner: &str) -> Result<Vec<TaskRecord>, ErrorData> {
        let stored = self
            .membership
            .store
            .list(owner)
            .await
            .map_err(|error| store_failed(&error))?;
        let mut alive = HashMap::new();
        let mut listed = Vec::with_capacity(stored.len());
        for record in stored {
            let record = match self.local(&record.id) {
                Some(running) => running.snapshot(),
                None => self.vouch(record, &mut alive).await?,
            };
            listed.push(record);
        }
        Ok(listed)
    }
}

impl fmt::Debug for Tasks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tasks")
            .field("replica", &self.membership.replica)
            .field("store", &self.membership.store)
            .field(
                "running",
                &self
                    .running
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .len(),
            )
            .finish()
    }
}

/// The terminal payload of a task's outcome.
fn payload_of(outcome: &Result<rmcp::model::CallToolResult, TaskExit>) -> TaskPayload {
    match outcome {
        Ok(result) => TaskPayload::Completed {
            result: match serde_json::to_value(result) {
                Ok(serde_json::Value::Object(map)) => map,
                _ => serde_json::Map::new(),
            },
        },
        Err(TaskExit::Cancelled) => TaskPayload::Cancelled,
        Err(TaskExit::Error(error)) => TaskPayload::Failed {
            error: error_object(error),
        },
    }
}

pub(super) fn unknown_task(task_id: &str) -> ErrorData {
    ErrorData::invalid_params(format!("unknown task: {task_id}"), None)
}

/// A store failure as the JSON-RPC error of the request that needed it.
pub(crate) fn store_failed(error: &StoreError) -> ErrorData {
    tracing::error!(%error, "a task request failed: the task store cannot be used");
    ErrorData::internal_error(format!("the task store cannot be used: {error}"), None)
}

#[cfg(test)]
mod tests;
