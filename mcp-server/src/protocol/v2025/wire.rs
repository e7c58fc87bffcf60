//! The 2025-11-25 wire shapes of tasks: the `Task` object, and the
//! `params.task` of a task-augmented request.

use rmcp::model::{DetailedTask, TaskPayload};
use serde::Deserialize;
use serde_json::{Map, Value, json};

/// The `params.task` of a task-augmented request (`TaskMetadata`).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Deserialize)]
pub(crate) struct TaskParam {
    /// The retention the client asks for, in milliseconds.
    pub(crate) ttl: Option<u64>,
}

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
}
