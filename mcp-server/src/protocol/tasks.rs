//! The task engine behind both task protocols, on rmcp's `TaskManager`.
//!
//! A tool that declares task support runs as a task when a client asks:
//! a 2026-07-28 client by declaring the `io.modelcontextprotocol/tasks`
//! extension (SEP-2663; `tasks/get` polls, `tasks/update` answers
//! questions), a 2025-11-25 client by sending `params.task` (see
//! [`super::tasks_2025`]; `tasks/get`, `tasks/result`, `tasks/list`,
//! `tasks/cancel`). Both generations share this engine: the same handler,
//! cancellation, TTL expiry and status. Tasks outlive the request (and, in
//! stateless HTTP, the handler), so the engine belongs to the server.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use mcp_core::{
    CallToolResult, TaskSupport,
    client::{
        CallChannel, ChannelError, CreateMessageRequest, CreateMessageResult, ElicitRequest,
        ElicitResult, Progress,
    },
    handler::BoxFuture,
};
use rmcp::ErrorData;
use rmcp::model::{
    ClientCapabilities, CreateTaskResult, DetailedTask, ErrorCode, InputResponses, ProtocolVersion,
    Task,
};
use rmcp::service::{Peer, RequestContext, RoleServer};
use rmcp::task_manager::{TaskContext, TaskExit, TaskManager, TaskOptions};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tokio::sync::watch;

use super::channel::PeerChannel;
use super::convert::{protocol_error_to_rmcp, request_params, result_to_rmcp};
use crate::server::state::ServerState;

/// How one `tools/call` runs.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum CallMode {
    /// In the request: the response is the result.
    Inline,
    /// As a 2026-07-28 task: the response is the task, the result comes from
    /// `tasks/get`.
    Task,
    /// As a 2025-11-25 task: the response is `{task}`, the result comes
    /// from `tasks/result`.
    Task2025,
}

/// Whether the request comes from a 2026-07-28 (or later) client.
pub(crate) fn is_modern(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|version| version.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
}

/// How a call of a tool declaring `support` runs.
///
/// A 2026-07-28 client gets a task when the tool supports it and the client
/// declared the tasks extension; a tool that requires a task, called by such
/// a client without the extension, is error -32021.
///
/// A 2025-11-25 client gets a task when it sent `params.task`
/// (`asked_2025`); asking for a task of a tool that forbids it, or calling a
/// tool that requires one without asking, is error -32601 as that
/// version's specification says.
pub(crate) fn call_mode(
    support: TaskSupport,
    context: &RequestContext<RoleServer>,
    asked_2025: bool,
) -> Result<CallMode, ErrorData> {
    if !is_modern(context) {
        return match (support, asked_2025) {
            (TaskSupport::Forbidden, true) => Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                "this tool does not run as a task (its execution.taskSupport is `forbidden`): call it without `task`",
                None,
            )),
            (TaskSupport::Required, false) => Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                "this tool runs only as a task (its execution.taskSupport is `required`): call it with `task`",
                None,
            )),
            (_, true) => Ok(CallMode::Task2025),
            (_, false) => Ok(CallMode::Inline),
        };
    }
    if support == TaskSupport::Forbidden {
        return Ok(CallMode::Inline);
    }
    let declared = context
        .client_capabilities()
        .is_some_and(|caps| caps.supports_tasks());
    match (declared, support) {
        (true, _) => Ok(CallMode::Task),
        (false, TaskSupport::Required) => Err(ErrorData::missing_required_client_capability(
            ClientCapabilities::builder().enable_tasks().build(),
        )),
        (false, _) => Ok(CallMode::Inline),
    }
}

/// The suggested polling interval of every task, in milliseconds.
const POLL_INTERVAL_MS: u64 = 100;

/// The longest retention a client may ask for (a day); longer requests get
/// this, as the specification lets a server decide the actual TTL.
pub(crate) const MAX_TTL_MS: u64 = 24 * 60 * 60 * 1000;

/// The way back to a 2025-11-25 client for a task it created: its session
/// (for questions, progress and status notifications) and the session's key
/// for `tasks/list`.
#[derive(Clone)]
pub(crate) struct Requestor {
    pub(crate) peer: Peer<RoleServer>,
    pub(crate) owner: Option<String>,
}

/// How to start one task.
pub(crate) struct TaskStart {
    /// The retention the client asked for (ms); the engine's default when
    /// `None`, at most [`MAX_TTL_MS`].
    pub(crate) ttl_ms: Option<u64>,
    /// Set for a 2025-11-25 task.
    pub(crate) requestor: Option<Requestor>,
}

/// What the engine keeps about a task beyond rmcp's state.
struct Entry {
    owner: Option<String>,
    /// Turns `true` once the handler returned (the manager records the
    /// terminal state right after).
    finished: watch::Receiver<bool>,
}

/// The server's running and finished tasks.
#[derive(Default)]
pub(crate) struct Tasks {
    manager: TaskManager,
    /// Task ids in creation order, for `tasks/list`.
    order: Mutex<Vec<String>>,
    entries: Mutex<HashMap<String, Entry>>,
}

impl Tasks {
    /// The tasks of the server `state`, shared by all its sessions.
    pub(crate) fn of<C>(state: &ServerState<C>) -> Arc<Self> {
        state.attachments().get_or_insert_with(Self::default)
    }

    /// Starts `call` (made with the task's channel) as a task; its state is
    /// visible to `tasks/get` before this returns.
    pub(crate) fn spawn(
        self: &Arc<Self>,
        start: TaskStart,
        call: impl FnOnce(TaskChannel) -> BoxFuture<'static, CallToolResult> + Send + 'static,
    ) -> Task {
        let ttl_ms = start.ttl_ms.map(|ttl| ttl.min(MAX_TTL_MS));
        let mut options = TaskOptions::new().with_poll_interval_ms(POLL_INTERVAL_MS);
        if let Some(ttl) = ttl_ms {
            options = options.with_ttl_ms(ttl);
        }
        let (finished_tx, finished) = watch::channel(false);
        let manager = self.manager.clone();
        let requestor = start.requestor.clone();
        let task = self.manager.spawn(options, move |context| {
            let channel = TaskChannel {
                context: context.clone(),
                manager,
                requestor,
            };
            let running = call(channel);
            Box::pin(async move {
                // A cancelled task settles as cancelled even when its handler
                // returns a result on the way out.
                let outcome = tokio::select! {
                    biased;
                    () = context.cancelled() => Err(TaskExit::Cancelled),
                    result = running => match (context.is_cancel_requested(), result.protocol_error()) {
                        (true, _) => Err(TaskExit::Cancelled),
                        // The handler raised a JSON-RPC error: the task fails with it.
                        (false, Some(error)) => Err(TaskExit::Error(protocol_error_to_rmcp(error))),
                        (false, None) => Ok(result_to_rmcp(result)),
                    },
                };
                let _ = finished_tx.send(true);
                outcome
            })
        });
        self.order
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(task.task_id.clone());
        let owner = start.requestor.as_ref().and_then(|r| r.owner.clone());
        self.entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(task.task_id.clone(), Entry { owner, finished });
        if let Some(requestor) = start.requestor {
            self.notify_when_settled(task.task_id.clone(), requestor.peer);
        }
        task
    }

    /// Starts `call` as a 2026-07-28 task.
    pub(crate) fn spawn_2026(
        self: &Arc<Self>,
        call: impl FnOnce(TaskChannel) -> BoxFuture<'static, CallToolResult> + Send + 'static,
    ) -> CreateTaskResult {
        let start = TaskStart {
            ttl_ms: None,
            requestor: None,
        };
        CreateTaskResult::new(self.spawn(start, call))
    }

    /// Sends `notifications/tasks/status` to `peer` once the task settles.
    fn notify_when_settled(self: &Arc<Self>, task_id: String, peer: Peer<RoleServer>) {
        let tasks = Arc::clone(self);
        tokio::spawn(async move {
            let Ok(task) = tasks.settled(&task_id).await else {
                return;
            };
            let params = super::task_wire_2025::task_json(&task);
            let notification =
                rmcp::model::CustomNotification::new("notifications/tasks/status", Some(params));
            if let Err(error) = peer
                .send_notification(rmcp::model::ServerNotification::CustomNotification(
                    notification,
                ))
                .await
            {
                tracing::debug!(%error, %task_id, "cannot send a task status notification");
            }
        });
    }

    /// The task's state; -32602 for a task that does not exist (or expired
    /// and was removed).
    pub(crate) fn get(&self, task_id: &str) -> Result<DetailedTask, ErrorData> {
        self.manager.get_task(task_id)
    }

    /// The task's state once it is terminal (completed, failed or
    /// cancelled); waits as long as it runs.
    pub(crate) async fn settled(&self, task_id: &str) -> Result<DetailedTask, ErrorData> {
        let mut finished = self
            .entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(task_id)
            .map(|entry| entry.finished.clone());
        loop {
            let task = self.get(task_id)?;
            if task.status().is_terminal() {
                return Ok(task);
            }
            // Re-check now and then: the TTL may expire the task, and the
            // manager records the end just after the handler returns.
            match finished.as_mut() {
                Some(receiver) if *receiver.borrow() => {
                    tokio::time::sleep(Duration::from_millis(1)).await;
                }
                Some(receiver) => {
                    let wait = Duration::from_millis(50);
                    if let Ok(Err(_)) = tokio::time::timeout(wait, receiver.changed()).await {
                        // The handler was dropped without finishing (expired).
                        finished = None;
                    }
                }
                None => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        }
    }

    /// The ids of the tasks created by `owner`, oldest first, that still
    /// exist.
    pub(crate) fn ids_of(&self, owner: Option<&str>) -> Vec<String> {
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        let mut order = self.order.lock().unwrap_or_else(PoisonError::into_inner);
        order.retain(|id| {
            let exists = self.manager.get_task(id).is_ok();
            if !exists {
                entries.remove(id);
            }
            exists
        });
        order
            .iter()
            .filter(|id| {
                entries
                    .get(id.as_str())
                    .is_some_and(|entry| entry.owner.as_deref() == owner)
            })
            .cloned()
            .collect()
    }

    pub(crate) fn update(&self, task_id: &str, responses: InputResponses) -> Result<(), ErrorData> {
        self.manager.update_task(task_id, responses)
    }

    pub(crate) fn cancel(&self, task_id: &str) -> Result<(), ErrorData> {
        self.manager.cancel_task(task_id)
    }
}

impl fmt::Debug for Tasks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tasks")
            .field("running", &self.manager.running_task_count())
            .finish()
    }
}

/// A task's handler sees `tasks/cancel` as cancellation, and progress as the
/// task's status message (for a 2025-11-25 task also as progress
/// notifications on the original token). A question waits in the task
/// (`input_required`): a 2026-07-28 client answers it with `tasks/update`; to
/// a 2025-11-25 client the server sends the request itself, tagged with the
/// task, and the answer settles it.
pub(crate) struct TaskChannel {
    context: TaskContext,
    manager: TaskManager,
    requestor: Option<Requestor>,
}

impl CallChannel for TaskChannel {
    fn notify_progress(&self, progress: Progress) -> BoxFuture<'_, Result<(), ChannelError>> {
        Box::pin(async move {
            let message = progress
                .message
                .clone()
                .unwrap_or_else(|| match progress.total {
                    Some(total) => format!("{} of {total}", progress.progress),
                    None => progress.progress.to_string(),
                });
            self.context.set_status_message(message);
            match &self.requestor {
                Some(requestor) if !progress.progress_token.is_null() => {
                    let channel = PeerChannel::new(requestor.peer.clone(), Default::default());
                    channel.notify_progress(progress).await
                }
                _ => Ok(()),
            }
        })
    }

    fn is_cancelled(&self) -> bool {
        self.context.is_cancel_requested()
    }

    fn cancelled(&self) -> BoxFuture<'_, ()> {
        Box::pin(self.context.cancelled())
    }

    fn create_message(
        &self,
        request: CreateMessageRequest,
    ) -> BoxFuture<'_, Result<CreateMessageResult, ChannelError>> {
        Box::pin(async move {
            let params = request_params(&request)?;
            let key = request.input_key;
            self.ask(key, "sampling", "sampling/createMessage", params)
                .await
        })
    }

    fn elicit(&self, request: ElicitRequest) -> BoxFuture<'_, Result<ElicitResult, ChannelError>> {
        Box::pin(async move {
            let params = request_params(&request)?;
            let key = request.input_key;
            self.ask(key, "elicitation", "elicitation/create", params)
                .await
        })
    }
}

impl TaskChannel {
    /// Asks the client through the running task: the question is listed
    /// under `key` (or a process-unique `{kind}-{n}`) while the task is
    /// `input_required`, until the answer comes.
    async fn ask<T: DeserializeOwned>(
        &self,
        key: Option<String>,
        kind: &'static str,
        method: &'static str,
        mut params: Value,
    ) -> Result<T, ChannelError> {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let key = key.unwrap_or_else(|| {
            let number = NEXT.fetch_add(1, Ordering::Relaxed);
            format!("{kind}-{number}")
        });
        let encode = |error: serde_json::Error| {
            ChannelError::Transport(format!("cannot encode {method}: {error}"))
        };
        let request =
            serde_json::from_value(json!({"method": method, "params": params})).map_err(encode)?;
        let waiting = self.context.request_input(key.clone(), request);
        let answer = match &self.requestor {
            None => waiting.await.map_err(exit_error)?,
            Some(requestor) => {
                super::task_wire_2025::relate(&mut params, self.context.task_id());
                let request = serde_json::from_value(json!({"method": method, "params": params}))
                    .map_err(encode)?;
                let asked = super::channel::ask_peer(&requestor.peer, request);
                tokio::select! {
                    answer = asked => {
                        let answer = answer?;
                        // Settles the listed question; the task is `working` again.
                        let _ = self.manager.update_task(
                            self.context.task_id(),
                            [(key, answer.clone())],
                        );
                        answer
                    }
                    exit = waiting => {
                        exit.map_err(exit_error)?;
                        return Err(ChannelError::Closed);
                    }
                }
            }
        };
        serde_json::from_value(answer).map_err(|error| {
            ChannelError::Rejected(format!("unexpected answer to {method}: {error}"))
        })
    }
}

fn exit_error(exit: TaskExit) -> ChannelError {
    match exit {
        TaskExit::Cancelled => ChannelError::Closed,
        TaskExit::Error(error) => ChannelError::Transport(error.message.into_owned()),
    }
}

impl fmt::Debug for TaskChannel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TaskChannel")
            .field("task", &self.context.task_id())
            .field(
                "generation",
                &match self.requestor {
                    Some(_) => "2025-11-25",
                    None => "2026-07-28",
                },
            )
            .finish()
    }
}
