//! The 2025-11-25 task requests on the shared engine ([`task`](crate::protocol::task)):
//! `tools/call` with `params.task` answers `{task}` at once, `tasks/get`
//! reads a task, `tasks/result` waits for the end and answers the tool's
//! result (or the JSON-RPC error the task failed with), `tasks/list` pages
//! through the session's tasks, `tasks/cancel` cancels a running one.
//! Messages about a task carry `io.modelcontextprotocol/related-task` in
//! their `_meta`.
//!
//! rmcp 3.11 models only the 2026-07-28 task extension, so these requests
//! and results travel as JSON here (see [`super::park_in`] for how they
//! get past rmcp's parser).

use std::sync::Arc;

use mcp_core::BoxFuture;
use mcp_core::CallToolResult;
use rmcp::ErrorData;
use rmcp::model::{ErrorCode, TaskPayload, TaskStatus};
use rmcp::service::{Peer, RoleServer};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::wire::task_json;
use crate::protocol::task::channel::{RELATED_TASK_KEY, TaskChannel, relate};
use crate::protocol::task::engine::{TaskStart, Tasks};
use crate::protocol::task::record::detailed;
use crate::server::pagination::{MAX_PAGE_BYTES, page_within};
use crate::store::task::TaskRecord;

/// The params of `tasks/get`, `tasks/result` and `tasks/cancel`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct TaskIdParams {
    task_id: String,
}

/// The params of `tasks/list`.
#[derive(Debug, Default, Deserialize)]
struct ListParams {
    cursor: Option<String>,
}

/// Starts `call` as a 2025-11-25 task (`start` names its requestor) and
/// answers its `CreateTaskResult`; the requestor hears
/// `notifications/tasks/status` once the task settles.
pub(crate) async fn start(
    tasks: &Arc<Tasks>,
    start: TaskStart,
    call: impl FnOnce(TaskChannel) -> BoxFuture<'static, CallToolResult> + Send + 'static,
) -> Result<Value, ErrorData> {
    let peer = start.requestor.as_ref().map(|r| r.peer.clone());
    let task = tasks.spawn(start, call).await?;
    if let Some(peer) = peer {
        notify_when_settled(tasks, task.id.clone(), peer);
    }
    Ok(created(&task))
}

/// The `CreateTaskResult` of a just-created task.
pub(crate) fn created(task: &TaskRecord) -> Value {
    json!({"task": task_json(&detailed(task))})
}

/// Sends `notifications/tasks/status` to `peer` once the task settles.
fn notify_when_settled(tasks: &Arc<Tasks>, task_id: String, peer: Peer<RoleServer>) {
    let tasks = Arc::clone(tasks);
    tokio::spawn(async move {
        let Ok(task) = tasks.settled(&task_id).await else {
            return;
        };
        let params = task_json(&detailed(&task));
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

fn params<T: for<'de> Deserialize<'de>>(
    params: Option<Value>,
    method: &str,
) -> Result<T, ErrorData> {
    serde_json::from_value(params.unwrap_or_else(|| json!({}))).map_err(|error| {
        ErrorData::invalid_params(format!("invalid params of {method}: {error}"), None)
    })
}

/// `tasks/get`: the task; -32602 for an unknown (or expired) task.
pub(crate) async fn get(tasks: &Tasks, params_json: Option<Value>) -> Result<Value, ErrorData> {
    let TaskIdParams { task_id } = params(params_json, "tasks/get")?;
    let task = tasks.get(&task_id).await?;
    Ok(task_json(&detailed(&task)))
}

/// `tasks/result`: waits until the task is terminal, then the tool's result
/// (a completed task), the JSON-RPC error it failed with, or error -32602
/// for a cancelled task, which has no result.
pub(crate) async fn result(tasks: &Tasks, params_json: Option<Value>) -> Result<Value, ErrorData> {
    let TaskIdParams { task_id } = params(params_json, "tasks/result")?;
    let task = detailed(&tasks.settled(&task_id).await?);
    match task.payload {
        TaskPayload::Completed { result } => {
            let mut result = Value::Object(result);
            relate(&mut result, &task_id);
            Ok(result)
        }
        TaskPayload::Failed { error } => Err(inlined_error(error, &task_id)),
        _ => Err(ErrorData::invalid_params(
            format!("task {task_id} was cancelled and has no result"),
            Some(json!({RELATED_TASK_KEY: {"taskId": task_id}})),
        )),
    }
}

/// A task's inlined JSON-RPC error as the error of `tasks/result`.
fn inlined_error(error: Map<String, Value>, task_id: &str) -> ErrorData {
    let code = error
        .get("code")
        .and_then(Value::as_i64)
        .and_then(|code| i32::try_from(code).ok())
        .unwrap_or(ErrorCode::INTERNAL_ERROR.0);
    let message = error
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("the task failed")
        .to_owned();
    let data = error
        .get("data")
        .cloned()
        .or_else(|| Some(json!({RELATED_TASK_KEY: {"taskId": task_id}})));
    ErrorData::new(ErrorCode(code), message, data)
}

/// `tasks/list`: the tasks `owner` created, oldest first, a page at a time.
pub(crate) async fn list(
    tasks: &Tasks,
    owner: Option<&str>,
    params_json: Option<Value>,
    page_size: usize,
) -> Result<Value, ErrorData> {
    let ListParams { cursor } = params(params_json, "tasks/list")?;
    // Tasks of no session (stateless HTTP) are nobody's to list.
    let records = match owner {
        Some(owner) => tasks.list(owner).await?,
        None => Vec::new(),
    };
    let listed: Vec<Value> = records
        .iter()
        .map(|task| task_json(&detailed(task)))
        .collect();
    let sizes: Vec<usize> = listed.iter().map(|task| task.to_string().len()).collect();
    let page = page_within(cursor.as_deref(), &sizes, page_size, MAX_PAGE_BYTES)
        .map_err(|error| ErrorData::invalid_params(error.to_string(), None))?;
    let mut out = json!({"tasks": listed[page.range].to_vec()});
    if let Some(next) = page.next_cursor {
        out["nextCursor"] = json!(next);
    }
    Ok(out)
}

/// `tasks/cancel`: cancels a running task and answers it once it settled
/// (`cancelled`, unless it finished first); -32602 for an unknown task or
/// one already terminal.
pub(crate) async fn cancel(tasks: &Tasks, params_json: Option<Value>) -> Result<Value, ErrorData> {
    let TaskIdParams { task_id } = params(params_json, "tasks/cancel")?;
    let task = detailed(&tasks.get(&task_id).await?);
    if task.status().is_terminal() {
        return Err(ErrorData::invalid_params(
            format!(
                "task {task_id} is already {}: only a running task can be cancelled",
                status_name(task.status())
            ),
            None,
        ));
    }
    tasks.cancel(&task_id).await?;
    let task = tasks.settled(&task_id).await?;
    Ok(task_json(&detailed(&task)))
}

fn status_name(status: TaskStatus) -> String {
    serde_json::to_value(status)
        .ok()
        .and_then(|value| value.as_str().map(str::to_owned))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_task_answers_its_own_error() {
        let error = serde_json::from_value(json!({"code": -32000, "message": "quota"})).unwrap();
        let error = inlined_error(error, "t1");
        assert_eq!(error.code, ErrorCode(-32000));
        assert_eq!(error.message, "quota");
        assert_eq!(
            error.data,
            Some(json!({RELATED_TASK_KEY: {"taskId": "t1"}}))
        );
    }
}
