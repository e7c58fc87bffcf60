//! Tools run as tasks for 2026-07-28 clients that declare the
//! `io.modelcontextprotocol/tasks` extension (SEP-2663), on rmcp's
//! `TaskManager`: `tools/call` answers with the task, `tasks/get` polls it,
//! `tasks/cancel` cancels it. Tasks outlive the request (and, in stateless
//! HTTP, the handler), so the manager belongs to the server.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

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
    ClientCapabilities, CreateTaskResult, DetailedTask, InputResponses, ProtocolVersion,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::task_manager::{TaskContext, TaskExit, TaskManager, TaskOptions};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::convert::{request_params, result_to_rmcp};
use crate::server::state::ServerState;

/// How one `tools/call` runs.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum CallMode {
    /// In the request: the response is the result.
    Inline,
    /// As a task: the response is the task, the result comes from `tasks/get`.
    Task,
}

/// As a task when the tool supports it and the request comes from a
/// 2026-07-28 client that declared the tasks extension; a tool that requires
/// a task, called by such a client without the extension, is error -32021.
/// Older clients always get the result inline (their own task requests are
/// not implemented, and their `execution` says `forbidden`).
pub(crate) fn call_mode(
    support: TaskSupport,
    context: &RequestContext<RoleServer>,
) -> Result<CallMode, ErrorData> {
    let modern = context
        .protocol_version()
        .is_some_and(|version| version.as_str() >= ProtocolVersion::V_2026_07_28.as_str());
    if support == TaskSupport::Forbidden || !modern {
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

/// The server's running and finished tasks.
#[derive(Default)]
pub(crate) struct Tasks {
    manager: TaskManager,
}

impl Tasks {
    /// The tasks of the server `state`, shared by all its sessions.
    pub(crate) fn of<C>(state: &ServerState<C>) -> Arc<Self> {
        state.attachments().get_or_insert_with(Self::default)
    }

    /// Starts `call` (made with the task's channel) as a task.
    pub(crate) fn spawn(
        &self,
        call: impl FnOnce(TaskChannel) -> BoxFuture<'static, CallToolResult> + Send + 'static,
    ) -> CreateTaskResult {
        let task = self.manager.spawn(
            TaskOptions::new().with_poll_interval_ms(100),
            move |context| {
                let running = call(TaskChannel(context.clone()));
                Box::pin(async move {
                    // A cancelled task settles as cancelled even when its handler
                    // returns a result on the way out.
                    tokio::select! {
                        biased;
                        () = context.cancelled() => Err(TaskExit::Cancelled),
                        result = running => match context.is_cancel_requested() {
                            true => Err(TaskExit::Cancelled),
                            false => Ok(result_to_rmcp(result)),
                        },
                    }
                })
            },
        );
        CreateTaskResult::new(task)
    }

    pub(crate) fn get(&self, task_id: &str) -> Result<DetailedTask, ErrorData> {
        self.manager.get_task(task_id)
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

/// A task's handler sees `tasks/cancel` as cancellation; progress has no
/// request to travel with (the client polls `tasks/get`), so it becomes the
/// task's status message.
pub(crate) struct TaskChannel(TaskContext);

impl CallChannel for TaskChannel {
    fn notify_progress(&self, progress: Progress) -> BoxFuture<'_, Result<(), ChannelError>> {
        let message = progress.message.unwrap_or_else(|| match progress.total {
            Some(total) => format!("{} of {total}", progress.progress),
            None => progress.progress.to_string(),
        });
        self.0.set_status_message(message);
        Box::pin(std::future::ready(Ok(())))
    }

    fn is_cancelled(&self) -> bool {
        self.0.is_cancel_requested()
    }

    fn cancelled(&self) -> BoxFuture<'_, ()> {
        Box::pin(self.0.cancelled())
    }

    // A task's questions wait in `tasks/get` until `tasks/update` answers them.
    fn create_message(
        &self,
        request: CreateMessageRequest,
    ) -> BoxFuture<'_, Result<CreateMessageResult, ChannelError>> {
        Box::pin(async move {
            let params = request_params(&request)?;
            let key = request.input_key;
            ask(&self.0, key, "sampling", "sampling/createMessage", params).await
        })
    }

    fn elicit(&self, request: ElicitRequest) -> BoxFuture<'_, Result<ElicitResult, ChannelError>> {
        Box::pin(async move {
            let params = request_params(&request)?;
            let key = request.input_key;
            ask(&self.0, key, "elicitation", "elicitation/create", params).await
        })
    }
}

impl fmt::Debug for TaskChannel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("TaskChannel")
            .field(&self.0.task_id())
            .finish()
    }
}

/// Asks the client through a running task (SEP-2663): the question is
/// listed by `tasks/get` under `key` (or a process-unique `{kind}-{n}`)
/// until `tasks/update` answers it. The tasks extension is 2026-07-28 only,
/// so the task's channel uses this for sampling and elicitation.
async fn ask<T: DeserializeOwned>(
    task: &TaskContext,
    key: Option<String>,
    kind: &'static str,
    method: &'static str,
    params: Value,
) -> Result<T, ChannelError> {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let key = key.unwrap_or_else(|| {
        let number = NEXT.fetch_add(1, Ordering::Relaxed);
        format!("{kind}-{number}")
    });
    let request = serde_json::from_value(json!({"method": method, "params": params}))
        .map_err(|error| ChannelError::Transport(format!("cannot encode {method}: {error}")))?;
    let answer = task
        .request_input(key, request)
        .await
        .map_err(|exit| match exit {
            TaskExit::Cancelled => ChannelError::Closed,
            other => ChannelError::Transport(format!("{other:?}")),
        })?;
    serde_json::from_value(answer)
        .map_err(|error| ChannelError::Rejected(format!("unexpected answer to {method}: {error}")))
}
