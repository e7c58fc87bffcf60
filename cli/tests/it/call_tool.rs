//! `tools/call`: errors, progress and cancellation.

use std::time::Duration;

use mcp_core::{ToolCallContext, ToolDef, tool};
use mcp_server::Server;
use rmcp::model::{CallToolRequestParams, ClientRequest, ProtocolVersion, Request};
use rmcp::service::PeerRequestOptions;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use tokio::sync::oneshot;

use crate::support::{Raw, connect, meta_2026};

#[derive(Deserialize, JsonSchema)]
struct Add {
    a: i64,
    b: i64,
}

fn add() -> ToolDef {
    tool("add")
        .input::<Add>()
        .output::<i64>()
        .run(|args: Add| async move { args.a + args.b })
        .unwrap()
}

#[tokio::test]
async fn unknown_tools_are_invalid_params_for_both_generations() {
    let server = Server::builder().tool(add()).build().unwrap();
    let mut raw = Raw::new(server.clone());
    raw.initialize_2025().await;
    let reply = raw
        .request(1, "tools/call", json!({"name": "nope", "arguments": {}}))
        .await;
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    assert_eq!(
        reply["error"]["message"],
        "unknown tool `nope`; the tools are `add`"
    );
    let reply = raw
        .request(2, "tools/call", json!({"name": "Ad", "arguments": {}}))
        .await;
    assert_eq!(
        reply["error"]["message"],
        "unknown tool `Ad`; did you mean `add`?"
    );

    let mut raw = Raw::new(server);
    raw.request(1, "server/discover", json!({"_meta": meta_2026()}))
        .await;
    let reply = raw
        .request(
            2,
            "tools/call",
            json!({"name": "nope", "arguments": {}, "_meta": meta_2026()}),
        )
        .await;
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
}

#[tokio::test]
async fn results_and_argument_errors_reach_the_wire() {
    let mut raw = Raw::new(Server::builder().tool(add()).build().unwrap());
    raw.initialize_2025().await;
    let ok = raw
        .request(
            1,
            "tools/call",
            json!({"name": "add", "arguments": {"a": 2, "b": 3}}),
        )
        .await;
    assert_eq!(
        ok["result"],
        json!({"content": [{"type": "text", "text": "{\"result\":5}"}], "structuredContent": {"result": 5}})
    );
    let bad = raw
        .request(
            2,
            "tools/call",
            json!({"name": "add", "arguments": {"a": 2, "b": "x"}}),
        )
        .await;
    assert_eq!(bad["result"]["isError"], true, "{bad}");
    assert!(
        bad["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("invalid arguments for tool `add`:\n/b: \"x\" is not of type"),
        "{bad}"
    );
}

#[tokio::test]
async fn a_panicking_handler_is_an_error_result() {
    let boom: ToolDef = tool("boom")
        .run(|| async {
            if true {
                panic!("kaboom");
            }
            "unreachable"
        })
        .unwrap();
    let mut raw = Raw::new(Server::builder().tool(boom).build().unwrap());
    raw.initialize_2025().await;
    let reply = raw.request(1, "tools/call", json!({"name": "boom"})).await;
    assert_eq!(reply["result"]["isError"], true, "{reply}");
    assert_eq!(
        reply["result"]["content"][0]["text"],
        "tool `boom` failed unexpectedly"
    );
}

#[tokio::test]
async fn progress_notifications_reach_the_client() {
    let steps: ToolDef = tool("steps")
        .run(|_: mcp_core::JsonObject, cx: ToolCallContext| async move {
            for step in 1..=3 {
                cx.progress(f64::from(step), Some(3.0), Some(format!("step {step}")))
                    .await
                    .unwrap();
            }
            "done"
        })
        .unwrap();
    let (client, mut progress) = connect(
        Server::builder().tool(steps).build().unwrap(),
        ProtocolVersion::V_2025_11_25,
    )
    .await;
    let handle = client
        .peer()
        .send_cancellable_request(
            ClientRequest::CallToolRequest(Request::new(CallToolRequestParams::new("steps"))),
            PeerRequestOptions::no_options(),
        )
        .await
        .unwrap();
    let token = handle.progress_token.clone();
    handle.await_response().await.unwrap();
    let mut seen = Vec::new();
    while seen.len() < 3 {
        let update = tokio::time::timeout(Duration::from_secs(5), progress.recv())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(update.progress_token, token);
        seen.push((update.progress, update.total, update.message));
    }
    assert_eq!(seen[2], (3.0, Some(3.0), Some("step 3".to_owned())));
}

#[tokio::test]
async fn cancelled_notification_drops_the_running_handler() {
    let (started_tx, started_rx) = oneshot::channel::<()>();
    let (dropped_tx, dropped_rx) = oneshot::channel::<()>();
    let slots = std::sync::Mutex::new(Some((started_tx, dropped_tx)));
    let wait: ToolDef = tool("wait")
        .run(move || {
            let slot = slots.lock().unwrap().take();
            async move {
                struct SignalOnDrop(Option<oneshot::Sender<()>>);
                impl Drop for SignalOnDrop {
                    fn drop(&mut self) {
                        if let Some(tx) = self.0.take() {
                            let _ = tx.send(());
                        }
                    }
                }
                let (started, dropped) = slot.unwrap();
                let _guard = SignalOnDrop(Some(dropped));
                let _ = started.send(());
                tokio::time::sleep(Duration::from_secs(3600)).await;
                "never"
            }
        })
        .unwrap();
    let (client, _) = connect(
        Server::builder().tool(wait).build().unwrap(),
        ProtocolVersion::V_2025_11_25,
    )
    .await;
    let handle = client
        .peer()
        .send_cancellable_request(
            ClientRequest::CallToolRequest(Request::new(CallToolRequestParams::new("wait"))),
            PeerRequestOptions::no_options(),
        )
        .await
        .unwrap();
    tokio::time::timeout(Duration::from_secs(5), started_rx)
        .await
        .unwrap()
        .unwrap();
    handle
        .cancel(Some("changed my mind".to_owned()))
        .await
        .unwrap();
    tokio::time::timeout(Duration::from_secs(5), dropped_rx)
        .await
        .expect("the handler is dropped after notifications/cancelled")
        .unwrap();
}
