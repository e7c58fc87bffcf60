//! The task engine's tests: completion, cancellation, expiry and failures.

use std::future::pending;

use super::*;

/// An engine on the in-memory store, its replica listening.
fn engine() -> Arc<Tasks> {
    let tasks = Arc::new(Tasks::new(&TaskBackend::in_memory(Duration::from_secs(5))));
    let target: Weak<dyn Obey> = Arc::downgrade(&tasks) as Weak<dyn Obey>;
    tasks.membership.start(target);
    tasks
}

fn start(ttl_ms: Option<u64>) -> TaskStart {
    TaskStart {
        ttl_ms,
        requestor: None,
    }
}

#[tokio::test]
async fn a_task_runs_its_call_and_settles_with_the_result() {
    let tasks = engine();
    let record = tasks
        .spawn(start(None), |_| {
            Box::pin(async { CallToolResult::text("done") })
        })
        .await
        .unwrap();
    assert_eq!(record.status, TaskState::Working);
    assert_eq!(record.runner, tasks.membership.replica);
    let settled = tasks.settled(&record.id).await.unwrap();
    assert_eq!(settled.status, TaskState::Completed);
    let result = settled.result.unwrap();
    assert_eq!(result["content"][0]["text"], "done");
    // Ended tasks are read from the store.
    assert_eq!(
        tasks.get(&record.id).await.unwrap().status,
        TaskState::Completed
    );
}

#[tokio::test]
async fn a_cancelled_task_settles_cancelled() {
    let tasks = engine();
    let record = tasks
        .spawn(start(None), |_| Box::pin(pending()))
        .await
        .unwrap();
    tasks.cancel(&record.id).await.unwrap();
    let settled = tasks.settled(&record.id).await.unwrap();
    assert_eq!(settled.status, TaskState::Cancelled);
    // Cancelling an ended task changes nothing.
    tasks.cancel(&record.id).await.unwrap();
    assert_eq!(
        tasks.get(&record.id).await.unwrap().status,
        TaskState::Cancelled
    );
}

#[tokio::test]
async fn a_task_past_its_ttl_fails() {
    let tasks = engine();
    let record = tasks
        .spawn(start(Some(20)), |_| Box::pin(pending()))
        .await
        .unwrap();
    assert_eq!(record.ttl_ms, 20);
    let settled = tasks.settled(&record.id).await.unwrap();
    assert_eq!(settled.status, TaskState::Failed);
    assert_eq!(
        settled.error.unwrap()["message"],
        "task expired: TTL elapsed before completion"
    );
}

#[tokio::test]
async fn the_ttl_asked_for_is_kept_within_a_day() {
    let tasks = engine();
    let record = tasks
        .spawn(start(Some(u64::MAX)), |_| {
            Box::pin(async { CallToolResult::text("") })
        })
        .await
        .unwrap();
    assert_eq!(record.ttl_ms, MAX_TTL_MS);
}

#[tokio::test]
async fn a_handler_error_fails_the_task_with_it() {
    let tasks = engine();
    let record = tasks
        .spawn(start(None), |_| {
            Box::pin(async {
                CallToolResult::from_protocol_error(mcp_core::ProtocolError::invalid_params(
                    "no such id",
                ))
            })
        })
        .await
        .unwrap();
    let settled = tasks.settled(&record.id).await.unwrap();
    assert_eq!(settled.status, TaskState::Failed);
    let error = settled.error.unwrap();
    assert_eq!(error["code"], -32602);
    assert_eq!(error["message"], "no such id");
}

#[tokio::test]
async fn an_unknown_task_is_invalid_params() {
    let tasks = engine();
    let error = tasks.get("nowhere").await.unwrap_err();
    assert_eq!(error.code, rmcp::model::ErrorCode::INVALID_PARAMS);
    assert_eq!(error.message, "unknown task: nowhere");
}

#[tokio::test]
async fn a_task_whose_runner_stopped_is_reported_failed() {
    let tasks = engine();
    let record = TaskRecord {
        id: "orphan".into(),
        owner: Some("session".into()),
        status: TaskState::Working,
        status_message: None,
        created_at: now(),
        last_updated_at: now(),
        created_us: unix_us(),
        ttl_ms: 60_000,
        poll_interval_ms: POLL_INTERVAL_MS,
        result: None,
        error: None,
        input_requests: BTreeMap::new(),
        runner: "a replica that stopped".into(),
    };
    assert!(tasks.membership.store.put(&record).await.unwrap());
    let read = tasks.get("orphan").await.unwrap();
    assert_eq!(read.status, TaskState::Failed);
    assert_eq!(read.status_message.as_deref(), Some(RUNNER_GONE));
    let listed = tasks.list("session").await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].status, TaskState::Failed);
    assert_eq!(tasks.count("session").await.unwrap(), 1);
}
