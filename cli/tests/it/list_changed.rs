//! Tools added or removed at runtime, and the clients told about it.

use std::time::Duration;

use mcp_core::{ToolDef, tool};
use mcp_server::Server;
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ProtocolVersion};
use serde_json::json;
use tokio::sync::mpsc;

use crate::support::{Raw, TestClient, meta_2026, spawn_server};

fn ping(name: &str) -> ToolDef {
    tool(name).run(|| async { "pong" }).unwrap()
}

#[tokio::test]
async fn a_2025_11_25_session_hears_of_added_and_removed_tools() {
    let server = Server::builder().tool(ping("first")).build().unwrap();
    let (progress, _) = mpsc::unbounded_channel();
    let (changed, mut heard) = mpsc::unbounded_channel();
    let client = TestClient {
        progress,
        version: ProtocolVersion::V_2025_11_25,
        tools_changed: Some(changed),
    }
    .serve(spawn_server(server.clone()))
    .await
    .unwrap();
    let info = client.peer_info().unwrap();
    assert_eq!(
        info.capabilities.tools.as_ref().unwrap().list_changed,
        Some(true)
    );

    // A session hears of changes once it has initialized (or listed tools).
    assert_eq!(client.list_all_tools().await.unwrap().len(), 1);
    server.add_tool(ping("second")).unwrap();
    tokio::time::timeout(Duration::from_secs(5), heard.recv())
        .await
        .unwrap()
        .unwrap();
    let names: Vec<_> = client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.into_owned())
        .collect();
    assert_eq!(names, ["first", "second"]);
    assert_eq!(
        server.add_tool(ping("second")).unwrap_err().to_string(),
        "duplicate tool `second`: defined by tools added at runtime and by tools added at runtime (rename one, or give one source a prefix)"
    );

    assert!(server.remove_tool("first"));
    assert!(!server.remove_tool("first"));
    tokio::time::timeout(Duration::from_secs(5), heard.recv())
        .await
        .unwrap()
        .unwrap();
    let error = client
        .call_tool(CallToolRequestParams::new("first"))
        .await
        .unwrap_err();
    assert!(
        error.to_string().contains("unknown tool `first`"),
        "{error}"
    );
    let result = client
        .call_tool(CallToolRequestParams::new("second"))
        .await
        .unwrap();
    assert_eq!(result.content[0].as_text().unwrap().text, "pong");
}

#[tokio::test]
async fn a_2026_07_28_listener_hears_of_added_tools() {
    let server = Server::builder().tool(ping("first")).build().unwrap();
    let mut raw = Raw::new(server.clone());
    raw.request(1, "server/discover", json!({"_meta": meta_2026()}))
        .await;
    raw.send(
        json!({"jsonrpc": "2.0", "id": 2, "method": "subscriptions/listen",
        "params": {"notifications": {"toolsListChanged": true}, "_meta": meta_2026()}}),
    )
    .await;
    // The listen stream is acknowledged before anything is streamed on it.
    tokio::time::sleep(Duration::from_millis(200)).await;
    server.add_tool(ping("second")).unwrap();
    let heard = raw.notification("notifications/tools/list_changed").await;
    assert_eq!(heard["method"], "notifications/tools/list_changed");
    let list = raw
        .request(3, "tools/list", json!({"_meta": meta_2026()}))
        .await;
    assert_eq!(list["result"]["tools"][1]["name"], "second");
}
