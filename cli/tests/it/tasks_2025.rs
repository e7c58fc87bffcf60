//! The 2025-11-25 task protocol: `params.task` on `tools/call`, `tasks/get`,
//! `tasks/result`, `tasks/list`, `tasks/cancel` and
//! `notifications/tasks/status`, on the engine 2026-07-28 tasks use.

use std::time::Duration;

use mcp_core::client::ElicitRequest;
use mcp_core::{JsonObject, ProtocolError, ToolCallContext, ToolDef, ToolExecution, tool};
use mcp_server::Server;
use serde_json::{Value, json};

use crate::support::Raw;

const RELATED: &str = "io.modelcontextprotocol/related-task";

fn tools() -> Vec<ToolDef> {
    let brew: ToolDef = tool("brew")
        .execution(ToolExecution::optional())
        .run(|| async {
            tokio::time::sleep(Duration::from_millis(30)).await;
            "coffee"
        })
        .unwrap();
    let wait: ToolDef = tool("wait_forever")
        .execution(ToolExecution::required())
        .run(|_: JsonObject, cx: ToolCallContext| async move {
            cx.cancelled().await;
            "cancelled"
        })
        .unwrap();
    let plain: ToolDef = tool("plain").run(|| async { "inline" }).unwrap();
    let ask: ToolDef = tool("ask_name")
        .execution(ToolExecution::optional())
        .run(|_: JsonObject, cx: ToolCallContext| async move {
            let schema = json!({"type": "object", "properties": {"name": {"type": "string"}}});
            let request = ElicitRequest::new("Name?", schema).map_err(|e| e.to_string())?;
            let answer = cx.elicit(request).await.map_err(|e| e.to_string())?;
            let name = answer.content.unwrap_or_default()["name"].clone();
            Ok::<_, String>(format!("hello {}", name.as_str().unwrap_or("?")))
        })
        .unwrap();
    let broken: ToolDef = tool("broken")
        .execution(ToolExecution::optional())
        .run(|| async { Err::<String, _>(ProtocolError::internal("the cache is unreachable")) })
        .unwrap();
    vec![brew, wait, plain, ask, broken]
}

fn server() -> Server {
    Server::builder()
        .tools(tools())
        .page_size(2)
        .build()
        .unwrap()
}

async fn session() -> Raw {
    let mut raw = Raw::new(server());
    raw.initialize_2025().await;
    raw
}

async fn create(raw: &mut Raw, id: i64, name: &str, task: Value) -> Value {
    let created = raw
        .request(
            id,
            "tools/call",
            json!({"name": name, "arguments": {}, "task": task}),
        )
        .await;
    assert!(created["result"]["task"].is_object(), "{created}");
    created["result"]["task"].clone()
}

#[tokio::test]
async fn a_task_is_created_then_its_result_is_waited_for() {
    let mut raw = session().await;
    let task = create(&mut raw, 100, "brew", json!({"ttl": 60000})).await;
    assert_eq!(task["status"], "working");
    assert_eq!(task["ttl"], 60000);
    assert!(task["pollInterval"].is_u64(), "{task}");
    assert!(task["createdAt"].is_string() && task["lastUpdatedAt"].is_string());
    let id = task["taskId"].clone();

    let got = raw.request(101, "tasks/get", json!({"taskId": id})).await;
    assert_eq!(got["result"]["taskId"], id);
    assert!(["working", "completed"].contains(&got["result"]["status"].as_str().unwrap()));

    // `tasks/result` blocks until the end, then answers the tool's result.
    let result = raw
        .request(102, "tasks/result", json!({"taskId": id}))
        .await;
    assert_eq!(result["result"]["content"][0]["text"], "coffee", "{result}");
    assert_eq!(result["result"]["_meta"][RELATED], json!({"taskId": id}));

    let done = raw.request(103, "tasks/get", json!({"taskId": id})).await;
    assert_eq!(done["result"]["status"], "completed");
    let status = raw.notification("notifications/tasks/status").await;
    assert_eq!(status["params"]["taskId"], id);
    assert_eq!(status["params"]["status"], "completed");
    assert!(!format!("{result}{done}{status}").contains("rs.mcp-toolkit/"));
}

#[tokio::test]
async fn without_a_requested_ttl_the_task_still_reports_one() {
    let mut raw = session().await;
    let task = create(&mut raw, 100, "brew", json!({})).await;
    assert!(task["ttl"].is_u64(), "{task}");
    let huge = create(&mut raw, 101, "brew", json!({"ttl": u64::MAX})).await;
    assert!(huge["ttl"].as_u64().unwrap() < u64::MAX, "{huge}");
}

#[tokio::test]
async fn task_support_is_enforced_with_method_not_found() {
    let mut raw = session().await;
    let required = raw
        .request(
            100,
            "tools/call",
            json!({"name": "wait_forever", "arguments": {}}),
        )
        .await;
    assert_eq!(required["error"]["code"], -32601, "{required}");
    let forbidden = raw
        .request(
            101,
            "tools/call",
            json!({"name": "plain", "arguments": {}, "task": {}}),
        )
        .await;
    assert_eq!(forbidden["error"]["code"], -32601, "{forbidden}");
    let inline = raw
        .request(102, "tools/call", json!({"name": "brew", "arguments": {}}))
        .await;
    assert_eq!(inline["result"]["content"][0]["text"], "coffee", "{inline}");
}

#[tokio::test]
async fn cancelling_a_task_ends_it_cancelled_and_only_once() {
    let mut raw = session().await;
    let task = create(&mut raw, 100, "wait_forever", json!({})).await;
    let id = task["taskId"].clone();
    let cancelled = raw
        .request(101, "tasks/cancel", json!({"taskId": id}))
        .await;
    assert_eq!(cancelled["result"]["status"], "cancelled", "{cancelled}");
    assert_eq!(cancelled["result"]["taskId"], id);
    let again = raw
        .request(102, "tasks/cancel", json!({"taskId": id}))
        .await;
    assert_eq!(again["error"]["code"], -32602, "{again}");
    let result = raw
        .request(103, "tasks/result", json!({"taskId": id}))
        .await;
    assert_eq!(result["error"]["code"], -32602, "{result}");
}

#[tokio::test]
async fn unknown_tasks_are_invalid_params() {
    let mut raw = session().await;
    for (id, method) in [
        (100, "tasks/get"),
        (101, "tasks/result"),
        (102, "tasks/cancel"),
    ] {
        let reply = raw
            .request(id, method, json!({"taskId": "no-such-task"}))
            .await;
        assert_eq!(reply["error"]["code"], -32602, "{method}: {reply}");
    }
}

#[tokio::test]
async fn tasks_list_pages_through_the_sessions_tasks() {
    let mut raw = session().await;
    let mut ids = Vec::new();
    for n in 0..3 {
        ids.push(create(&mut raw, 100 + n, "brew", json!({})).await["taskId"].clone());
    }
    let first = raw.request(110, "tasks/list", json!({})).await;
    let page: Vec<Value> = first["result"]["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["taskId"].clone())
        .collect();
    assert_eq!(page, ids[..2], "{first}");
    let cursor = first["result"]["nextCursor"].clone();
    assert!(cursor.is_string(), "{first}");
    let second = raw
        .request(111, "tasks/list", json!({"cursor": cursor}))
        .await;
    assert_eq!(second["result"]["tasks"][0]["taskId"], ids[2], "{second}");
    assert!(second["result"].get("nextCursor").is_none());

    // Another session on the same server sees none of them.
    let mut other = Raw::new(server());
    other.initialize_2025().await;
    let listed = other.request(112, "tasks/list", json!({})).await;
    assert_eq!(listed["result"]["tasks"], json!([]), "{listed}");
}

#[tokio::test]
async fn an_expired_task_fails_then_is_gone() {
    let mut raw = session().await;
    let task = create(&mut raw, 100, "wait_forever", json!({"ttl": 1})).await;
    let id = task["taskId"].clone();
    let mut seen = Vec::new();
    for n in 0..200 {
        tokio::time::sleep(Duration::from_millis(5)).await;
        let got = raw
            .request(101 + n, "tasks/get", json!({"taskId": id}))
            .await;
        if got["error"]["code"] == -32602 {
            // Statuses seen before it went: working, then failed (expired).
            assert!(
                seen.iter().all(|s| s == "working" || s == "failed"),
                "{seen:?}"
            );
            return;
        }
        seen.push(got["result"]["status"].as_str().unwrap().to_owned());
    }
    panic!("the expired task was never removed: {seen:?}");
}

#[tokio::test]
async fn a_question_inside_a_task_goes_to_the_client_tagged_with_the_task() {
    let mut raw = Raw::new(server());
    raw.request(
        0,
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {"elicitation": {}}, "clientInfo": {"name": "raw", "version": "0"}}),
    )
    .await;
    raw.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    let task = create(&mut raw, 100, "ask_name", json!({})).await;
    let id = task["taskId"].clone();
    let question = raw.notification("elicitation/create").await;
    assert_eq!(
        question["params"]["_meta"][RELATED],
        json!({"taskId": id}),
        "{question}"
    );
    let waiting = raw.request(101, "tasks/get", json!({"taskId": id})).await;
    assert_eq!(waiting["result"]["status"], "input_required", "{waiting}");
    raw.send(json!({"jsonrpc": "2.0", "id": question["id"], "result": {"action": "accept", "content": {"name": "Ada"}}}))
        .await;
    let result = raw
        .request(102, "tasks/result", json!({"taskId": id}))
        .await;
    assert_eq!(
        result["result"]["content"][0]["text"], "hello Ada",
        "{result}"
    );
}

#[tokio::test]
async fn a_protocol_error_is_the_answer_inline_and_fails_a_task() {
    let mut raw = session().await;
    let inline = raw
        .request(
            100,
            "tools/call",
            json!({"name": "broken", "arguments": {}}),
        )
        .await;
    assert_eq!(inline["error"]["code"], -32603, "{inline}");
    assert_eq!(inline["error"]["message"], "the cache is unreachable");

    let task = create(&mut raw, 101, "broken", json!({})).await;
    let id = task["taskId"].clone();
    let result = raw
        .request(102, "tasks/result", json!({"taskId": id}))
        .await;
    assert_eq!(result["error"]["code"], -32603, "{result}");
    assert_eq!(result["error"]["message"], "the cache is unreachable");
    let got = raw.request(103, "tasks/get", json!({"taskId": id})).await;
    assert_eq!(got["result"]["status"], "failed", "{got}");
    assert_eq!(got["result"]["statusMessage"], "the cache is unreachable");
}
