//! `Tool.execution` reaches 2025-11-25 clients and no other.

use mcp_core::{ToolDef, ToolExecution, tool};
use mcp_server::Server;
use serde_json::json;

use crate::support::{Raw, meta_2026};

pub(crate) fn server() -> Server {
    let plain: ToolDef = tool("plain").run(|| async { "ok" }).unwrap();
    let forbidden: ToolDef = tool("sync_only")
        .execution(ToolExecution::forbidden())
        .meta("com.example/kept", json!(1))
        .run(|| async { "ok" })
        .unwrap();
    let optional: ToolDef = tool("wants_tasks")
        .execution(ToolExecution::optional())
        .run(|| async { "ok" })
        .unwrap();
    Server::builder()
        .tools([plain, forbidden, optional])
        .build()
        .unwrap()
}

#[tokio::test]
async fn execution_is_on_the_2025_11_25_wire_as_declared() {
    let mut raw = Raw::new(server());
    let init = raw.initialize_2025().await;
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(
        init["result"]["capabilities"]["tasks"],
        json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}),
        "{init}"
    );
    assert!(!init.to_string().contains("rs.mcp-toolkit/"), "{init}");
    let reply = raw.request(1, "tools/list", json!({})).await;
    insta::assert_json_snapshot!("tools_list_2025_11_25", reply["result"]);
    let tools = &reply["result"]["tools"];
    assert!(tools[0].get("execution").is_none());
    assert_eq!(tools[1]["execution"], json!({"taskSupport": "forbidden"}));
    assert_eq!(tools[1]["_meta"], json!({"com.example/kept": 1}));
    assert_eq!(tools[2]["execution"], json!({"taskSupport": "optional"}));
    assert!(!reply.to_string().contains("rs.mcp-toolkit/execution"));
}

#[tokio::test]
async fn execution_is_omitted_for_2026_07_28_clients() {
    let mut raw = Raw::new(server());
    let discover = raw
        .request(1, "server/discover", json!({"_meta": meta_2026()}))
        .await;
    assert!(discover.get("result").is_some(), "{discover}");
    let reply = raw
        .request(2, "tools/list", json!({"_meta": meta_2026()}))
        .await;
    insta::assert_json_snapshot!("tools_list_2026_07_28", reply["result"]);
    for tool in reply["result"]["tools"].as_array().unwrap() {
        assert!(tool.get("execution").is_none(), "{tool}");
    }
    assert!(!reply.to_string().contains("rs.mcp-toolkit/execution"));
}
