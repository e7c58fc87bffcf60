//! The 2025-11-25 wire shapes of tasks that both the engine and the
//! requests use: the `Task` object, the related-task `_meta` entry, and
//! asking the client a question about a task.

use rmcp::model::{DetailedTask, TaskPayload};
use serde_json::{Map, Value, json};

/// The `_meta` key that ties a message to a task.
pub(crate) const RELATED_TASK_KEY: &str = "io.modelcontextprotocol/related-task";

/// A task as the 2025-11-25 `Task` (`ttl` and `pollInterval` in ms).
pub(crate) fn task_json(task: &DetailedTask) -> Value {
    let base = &task.task;
    let mut out = Map::new();
    out.insert("taskId".into(), json!(base.task_id));
    out.insert("status".into(), json!(base.status));
    let message = base.status_message.clone().or_else(|| match &task.payload {
        TaskPayload::Failed { error } => error
            .get("message")
            .and_then(Value::as_str)
            .map(str::to_owned),
        _ => None,
    });
    if let Some(message) = message {
        out.insert("statusMessage".into(), json!(message));
    }
    out.insert("createdAt".into(), json!(base.created_at));
    out.insert("lastUpdatedAt".into(), json!(base.last_updated_at));
    out.insert("ttl".into(), json!(base.ttl_ms));
    if let Some(poll) = base.poll_interval_ms {
        out.insert("pollInterval".into(), json!(poll));
    }
    Value::Object(out)
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
    use rmcp::model::{Task, TaskStatus};

    use super::*;

    #[test]
    fn a_task_has_the_2025_shape() {
        let mut base = Task::new(
            "t1",
            TaskStatus::Working,
            "2025-11-25T00:00:00Z",
            "2025-11-25T00:00:01Z",
        );
        base.ttl_ms = Some(60_000);
        base.poll_interval_ms = Some(100);
        let failed = DetailedTask::new(
            base,
            TaskPayload::Failed {
                error: serde_json::from_value(json!({"code": -32603, "message": "boom"})).unwrap(),
            },
        );
        assert_eq!(
            task_json(&failed),
            json!({"taskId": "t1", "status": "failed", "statusMessage": "boom",
                   "createdAt": "2025-11-25T00:00:00Z", "lastUpdatedAt": "2025-11-25T00:00:01Z",
                   "ttl": 60000, "pollInterval": 100})
        );
    }

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
