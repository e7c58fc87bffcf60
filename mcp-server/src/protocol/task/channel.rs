//! What a task's handler talks to: cancellation, progress as the task's
//! status message, and questions that wait in the task.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use futures_util::FutureExt;
use mcp_core::{
    BoxFuture,
    client::{
        CallChannel, ChannelError, CreateMessageRequest, CreateMessageResult, ElicitRequest,
        ElicitResult, Progress,
    },
};
use rmcp::service::{Peer, RoleServer};
use rmcp::task_manager::{TaskContext, TaskExit, TaskManager};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use super::record::Running;
use crate::protocol::channel::peer::{PeerChannel, ask_peer};
use crate::protocol::convert::request_params;
use crate::store::task::TaskState;

/// The `_meta` key that ties a message to a task.
pub(crate) const RELATED_TASK_KEY: &str = "io.modelcontextprotocol/related-task";

/// The way back to a 2025-11-25 client for a task it created: its session
/// (for questions, progress and status notifications) and the session's key
/// for `tasks/list`.
#[derive(Clone)]
pub(crate) struct Requestor {
    pub(crate) peer: Peer<RoleServer>,
    pub(crate) owner: Option<String>,
}

/// A task's handler sees `tasks/cancel` as cancellation, and progress as the
/// task's status message (for a 2025-11-25 task also as progress
/// notifications on the original token). A question waits in the task
/// (`input_required`): a 2026-07-28 client answers it with `tasks/update`; to
/// a 2025-11-25 client the server sends the request itself, tagged with the
/// task, and the answer settles it. Every change reaches the task's record.
pub(crate) struct TaskChannel {
    context: TaskContext,
    manager: TaskManager,
    requestor: Option<Requestor>,
    running: Arc<Running>,
}

impl TaskChannel {
    pub(crate) fn new(
        context: TaskContext,
        manager: TaskManager,
        requestor: Option<Requestor>,
        running: Arc<Running>,
    ) -> Self {
        Self {
            context,
            manager,
            requestor,
            running,
        }
    }
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
            self.context.set_status_message(message.clone());
            self.running
                .change(|record| record.status_message = Some(message))
                .await;
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
        let question = json!({"method": method, "params": params});
        let request = serde_json::from_value(question.clone()).map_err(encode)?;
        let mut waiting = std::pin::pin!(self.context.request_input(key.clone(), request));
        // The first poll lists the question in the manager, so an answer
        // cannot arrive before the question is there to take it.
        if let Some(exit) = waiting.as_mut().now_or_never() {
            let answer = exit.map_err(exit_error)?;
            return decode(method, answer);
        }
        self.running
            .change(|record| {
                record.input_requests.insert(key.clone(), question);
                record.status = TaskState::InputRequired;
            })
            .await;
        let answer = match &self.requestor {
            None => waiting.await.map_err(exit_error)?,
            Some(requestor) => {
                relate(&mut params, self.context.task_id());
                let request = serde_json::from_value(json!({"method": method, "params": params}))
                    .map_err(encode)?;
                let asked = ask_peer(&requestor.peer, request);
                tokio::select! {
                    answer = asked => {
                        let answer = answer?;
                        // Settles the listed question; the task is `working` again.
                        let _ = self.manager.update_task(
                            self.context.task_id(),
                            [(key.clone(), answer.clone())],
                        );
                        self.running
                            .change(|record| {
                                record.input_requests.remove(&key);
                                if record.input_requests.is_empty() {
                                    record.status = TaskState::Working;
                                }
                            })
                            .await;
                        answer
                    }
                    exit = waiting => {
                        exit.map_err(exit_error)?;
                        return Err(ChannelError::Closed);
                    }
                }
            }
        };
        decode(method, answer)
    }
}

fn decode<T: DeserializeOwned>(method: &str, answer: Value) -> Result<T, ChannelError> {
    serde_json::from_value(answer)
        .map_err(|error| ChannelError::Rejected(format!("unexpected answer to {method}: {error}")))
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

/// Adds the related-task `_meta` entry for `task_id` to `params` (an object).
pub(crate) fn relate(params: &mut Value, task_id: &str) {
    if let Some(params) = params.as_object_mut() {
        let meta = params
            .entry("_meta")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Some(meta) = meta.as_object_mut() {
            meta.insert(RELATED_TASK_KEY.into(), json!({"taskId": task_id}));
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn related_task_meta_joins_existing_meta() {
        let mut params = json!({"message": "hi", "_meta": {"a": 1}});
        relate(&mut params, "t1");
        assert_eq!(
            params["_meta"],
            json!({"a": 1, RELATED_TASK_KEY: {"taskId": "t1"}})
        );
    }
}
