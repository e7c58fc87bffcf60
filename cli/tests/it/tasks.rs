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
    let greet_later: ToolDef = tool("greet_later")
        .execution(ToolExecution::required())
        .run(|_: mcp_core::JsonObject, cx: ToolCallContext| async move {
            let schema = json!({"type": "object", "properties": {"name": {"type": "string"}}});
            let request = mcp_core::client::ElicitRequest::new("Name?", schema)
                .map_err(|e| e.to_string())?
                .input_key("user_name")
                .before_task();
            let answer = cx.elicit(request).await.map_err(|e| e.to_string())?;
            tokio::time::sleep(Duration::from_millis(20)).await;
            let name = answer.content.unwrap_or_default()["name"].clone();
            Ok::<_, String>(format!("later, {}", name.as_str().unwrap_or("?")))
        })
        .unwrap();
    Server::builder()
        .tools([optional, required, broken, greet_later])
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
async fn a_question_asked_before_the_task_is_gathered_inline_then_the_call_escalates() {
    let mut raw = Raw::new(server());
    let mut meta = meta_with_tasks();
    meta["io.modelcontextprotocol/clientCapabilities"]["elicitation"] = json!({});
    raw.request(1, "server/discover", json!({"_meta": meta}))
        .await;
    let round_1 = raw
        .request(
            2,
            "tools/call",
            json!({"name": "greet_later", "arguments": {}, "_meta": meta}),
        )
        .await;
    assert_eq!(
        round_1["result"]["resultType"], "input_required",
        "{round_1}"
    );
    assert!(round_1["result"].get("taskId").is_none());
    assert!(
        round_1["result"]["inputRequests"]
            .get("user_name")
            .is_some()
    );
    let mut retry = json!({"name": "greet_later", "arguments": {}, "_meta": meta,
        "inputResponses": {"user_name": {"action": "accept", "content": {"name": "Alice"}}}});
    if let Some(state) = round_1["result"].get("requestState") {
        retry["requestState"] = state.clone();
    }
    let round_2 = raw.request(3, "tools/call", retry).await;
    assert_eq!(round_2["result"]["resultType"], "task", "{round_2}");
    let task_id = round_2["result"]["taskId"].clone();
    let done = poll_until_terminal(&mut raw, 10, &task_id).await;
    assert_eq!(
        done["result"]["result"]["content"][0]["text"], "later, Alice",
        "{done}"
    );
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
