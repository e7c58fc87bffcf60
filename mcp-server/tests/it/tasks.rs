//! Tools that declare task support run as tasks for 2026-07-28 clients with
//! the tasks extension, and inline for everyone else.

use std::time::Duration;

use mcp_core::{ToolCallContext, ToolDef, ToolExecution, tool};
use mcp_server::Server;
use serde_json::{Value, json};

use crate::support::{Raw, meta_2026};

fn server() -> Server {
    let optional: ToolDef = tool("brew")
        .execution(ToolExecution::optional())
        .run(|| async {
            tokio::time::sleep(Duration::from_millis(50)).await;
            "coffee"
        })
        .unwrap();
    let required: ToolDef = tool("wait_forever")
        .execution(ToolExecution::required())
        .run(|_: mcp_core::JsonObject, cx: ToolCallContext| async move {
            cx.cancelled().await;
            "cancelled"
        })
        .unwrap();
    let broken: ToolDef = tool("broken")
        .execution(ToolExecution::optional())
        .run(|| async { Err::<String, _>(mcp_core::ProtocolError::internal("broke down")) })
        .unwrap();
    Server::builder()
        .tools([optional, required, broken])
        .build()
        .unwrap()
}

fn meta_with_tasks() -> Value {
    let mut meta = meta_2026();
    meta["io.modelcontextprotocol/clientCapabilities"] =
        json!({"extensions": {"io.modelcontextprotocol/tasks": {}}});
    meta
}

async fn poll_until_terminal(raw: &mut Raw, mut id: i64, task_id: &Value) -> Value {
    for _ in 0..100 {
        id += 1;
        let got = raw
            .request(
                id,
                "tasks/get",
                json!({"taskId": task_id, "_meta": meta_with_tasks()}),
            )
            .await;
        let status = got["result"]["status"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        if ["completed", "failed", "cancelled"].contains(&status.as_str()) {
            return got;
        }
        assert_eq!(status, "working", "{got}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the task never finished");
}

#[tokio::test]
async fn a_client_with_the_tasks_extension_gets_a_task_and_its_result() {
    let mut raw = Raw::new(server());
    let discover = raw
        .request(1, "server/discover", json!({"_meta": meta_with_tasks()}))
        .await;
    assert!(
        discover["result"]["capabilities"]["extensions"]
            .get("io.modelcontextprotocol/tasks")
            .is_some(),
        "{discover}"
    );
    let created = raw
        .request(
            2,
            "tools/call",
            json!({"name": "brew", "arguments": {}, "_meta": meta_with_tasks()}),
        )
        .await;
    assert_eq!(created["result"]["resultType"], "task", "{created}");
    let task_id = created["result"]["taskId"].clone();
    let done = poll_until_terminal(&mut raw, 10, &task_id).await;
    assert_eq!(done["result"]["status"], "completed", "{done}");
    assert_eq!(
        done["result"]["result"]["content"][0]["text"], "coffee",
        "{done}"
    );
}

#[tokio::test]
async fn a_handler_protocol_error_fails_the_task_with_the_error_inlined() {
    let mut raw = Raw::new(server());
    raw.request(1, "server/discover", json!({"_meta": meta_with_tasks()}))
        .await;
    let created = raw
        .request(
            2,
            "tools/call",
            json!({"name": "broken", "arguments": {}, "_meta": meta_with_tasks()}),
        )
        .await;
    let task_id = created["result"]["taskId"].clone();
    let done = poll_until_terminal(&mut raw, 10, &task_id).await;
    assert_eq!(done["result"]["status"], "failed", "{done}");
    assert_eq!(done["result"]["error"]["code"], -32603, "{done}");
    assert_eq!(done["result"]["error"]["message"], "broke down");
}

#[tokio::test]
async fn tasks_can_be_cancelled() {
    let mut raw = Raw::new(server());
    raw.request(1, "server/discover", json!({"_meta": meta_with_tasks()}))
        .await;
    let created = raw
        .request(
            2,
            "tools/call",
            json!({"name": "wait_forever", "arguments": {}, "_meta": meta_with_tasks()}),
        )
        .await;
    let task_id = created["result"]["taskId"].clone();
    let cancel = raw
        .request(
            3,
            "tasks/cancel",
            json!({"taskId": task_id, "_meta": meta_with_tasks()}),
        )
        .await;
    assert!(cancel.get("result").is_some(), "{cancel}");
    let done = poll_until_terminal(&mut raw, 10, &task_id).await;
    assert_eq!(done["result"]["status"], "cancelled", "{done}");
}

#[tokio::test]
async fn other_clients_get_results_inline_or_a_capability_error() {
    let mut raw = Raw::new(server());
    raw.request(1, "server/discover", json!({"_meta": meta_2026()}))
        .await;
    let inline = raw
        .request(
            2,
            "tools/call",
            json!({"name": "brew", "arguments": {}, "_meta": meta_2026()}),
        )
        .await;
    assert_eq!(inline["result"]["content"][0]["text"], "coffee", "{inline}");
    let refused = raw
        .request(
            3,
            "tools/call",
            json!({"name": "wait_forever", "arguments": {}, "_meta": meta_2026()}),
        )
        .await;
    assert_eq!(refused["error"]["code"], -32021, "{refused}");

    let mut legacy = Raw::new(server());
    legacy.initialize_2025().await;
    let inline = legacy
        .request(1, "tools/call", json!({"name": "brew", "arguments": {}}))
        .await;
    assert_eq!(inline["result"]["content"][0]["text"], "coffee", "{inline}");
}
