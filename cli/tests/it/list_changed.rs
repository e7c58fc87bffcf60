//! Tools added or removed at runtime, and the clients told about it.

use std::time::Duration;

use mcp_core::{ToolDef, tool};
use mcp_server::Server;
use mcp_server::testing::{TestClient, TestClientError};
use rmcp::model::ProtocolVersion;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::support::{Listening, Raw, meta_2026};

fn ping(name: &str) -> ToolDef {
    tool(name).run(|| async { "pong" }).unwrap()
}

#[tokio::test]
async fn a_2025_11_25_session_hears_of_added_and_removed_tools() {
    let server = Server::builder().tool(ping("first")).build().unwrap();
    let (progress, _) = mpsc::unbounded_channel();
    let (changed, mut heard) = mpsc::unbounded_channel();
    let listening = Listening {
        progress,
        version: ProtocolVersion::V_2025_11_25,
        tools_changed: Some(changed),
    };
    let client = TestClient::connect_with(server.clone(), listening)
        .await
        .unwrap();
    let info = client.peer().peer_info().unwrap();
    assert_eq!(
        info.capabilities.tools.as_ref().unwrap().list_changed,
        Some(true)
    );

    // A session hears of changes once it has initialized (or listed tools).
    assert_eq!(client.list_tools().await.unwrap().len(), 1);
    server.add_tool(ping("second")).unwrap();
    tokio::time::timeout(Duration::from_secs(5), heard.recv())
        .await
        .unwrap()
        .unwrap();
    let names: Vec<_> = client
        .list_tools()
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
    let error = client.call_tool("first", Value::Null).await.unwrap_err();
    let TestClientError::Protocol { error } = error else {
        panic!("not a JSON-RPC error: {error}");
    };
    assert_eq!(
        error.message,
        "unknown tool `first`; the tools are `second`"
    );
    let result = client.call_tool("second", Value::Null).await.unwrap();
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
