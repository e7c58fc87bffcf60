//! Tools run as tasks for 2026-07-28 clients that declare the
//! `io.modelcontextprotocol/tasks` extension (SEP-2663), on rmcp's
//! `TaskManager`: `tools/call` answers with the task, `tasks/get` polls it,
//! `tasks/cancel` cancels it. Tasks outlive the request (and, in stateless
//! HTTP, the handler), so the manager belongs to the server.

use std::fmt;

use ::rmcp::ErrorData;
use ::rmcp::model::{CreateTaskResult, DetailedTask, InputResponses};
use ::rmcp::task_manager::{TaskContext, TaskExit, TaskManager, TaskOptions};
use mcp_core::{BoxFuture, CallChannel, CallToolResult, ChannelError, Progress};

use ::rmcp::model::{ClientCapabilities, ProtocolVersion, ServerCapabilities, TASKS_EXTENSION_ID};
use ::rmcp::service::{RequestContext, RoleServer};
use mcp_core::TaskSupport;

use super::convert::result_to_rmcp;

/// Declares the tasks extension (only when some tool may run as a task).
pub(crate) fn extend_capabilities(capabilities: &mut ServerCapabilities) {
    capabilities
        .extensions
        .get_or_insert_with(Default::default)
        .insert(TASKS_EXTENSION_ID.to_owned(), Default::default());
}

/// How one `tools/call` runs.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Mode {
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
pub(crate) fn mode(
    support: TaskSupport,
    context: &RequestContext<RoleServer>,
) -> Result<Mode, ErrorData> {
    let modern = context
        .protocol_version()
        .is_some_and(|version| version.as_str() >= ProtocolVersion::V_2026_07_28.as_str());
    if support == TaskSupport::Forbidden || !modern {
        return Ok(Mode::Inline);
    }
    let declared = context
        .client_capabilities()
        .is_some_and(|caps| caps.supports_tasks());
    match (declared, support) {
        (true, _) => Ok(Mode::Task),
        (false, TaskSupport::Required) => Err(ErrorData::missing_required_client_capability(
            ClientCapabilities::builder().enable_tasks().build(),
        )),
        (false, _) => Ok(Mode::Inline),
    }
}

/// The server's running and finished tasks.
#[derive(Clone, Default)]
pub(crate) struct Tasks {
    manager: TaskManager,
}

impl Tasks {
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

    // issue 7: a task's questions wait in `tasks/get` until `tasks/update`.
    fn create_message(
        &self,
        request: mcp_core::CreateMessageRequest,
    ) -> BoxFuture<'_, Result<mcp_core::CreateMessageResult, ChannelError>> {
        Box::pin(async move {
            let params = super::interaction::params(&request)?;
            let key = request.input_key;
            super::interaction::ask_task(&self.0, key, "sampling", "sampling/createMessage", params)
                .await
        })
    }

    fn elicit(
        &self,
        request: mcp_core::ElicitRequest,
    ) -> BoxFuture<'_, Result<mcp_core::ElicitResult, ChannelError>> {
        Box::pin(async move {
            let params = super::interaction::params(&request)?;
            let key = request.input_key;
            super::interaction::ask_task(&self.0, key, "elicitation", "elicitation/create", params)
                .await
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
