//! The tools a client lists are the tools the server hosts: converting
//! `mcp_core::Tool` to `rmcp::model::Tool` keeps every field rmcp carries,
//! so an rmcp client reads them back whole, except `execution`.

use mcp_core::{Tool, ToolDef, tool};
use mcp_server::Server;
use rmcp::model::ProtocolVersion;
use serde_json::Value;

use crate::support::connect;

/// Tools built every way the builder allows, and one with a description.
fn every_kind_of_tool() -> Vec<ToolDef> {
    let described: ToolDef = tool("onion")
        .description("Records the order of its layers.")
        .run(|| async { "handled" })
        .unwrap();
    let mut tools = testdata::tools::every_kind_of_tool();
    tools.push(described);
    tools
}

/// `tool` as the wire carries it without `execution`.
fn without_execution(tool: &Tool) -> Value {
    let mut json = serde_json::to_value(tool).unwrap();
    json.as_object_mut().unwrap().remove("execution");
    json
}

#[tokio::test]
async fn every_tool_survives_rmcp_and_back_except_execution() {
    let defs = every_kind_of_tool();
    let server = Server::builder().tools(defs.clone()).build().unwrap();
    for version in [ProtocolVersion::V_2025_11_25, ProtocolVersion::V_2026_07_28] {
        let (client, _) = connect(server.clone(), version.clone()).await;
        let listed = client.list_tools().await.unwrap();
        assert_eq!(listed.len(), defs.len(), "{version:?}");
        for (def, via_rmcp) in defs.iter().zip(listed) {
            let original = def.tool();
            // The rmcp value puts the same JSON on the wire, minus `execution`.
            assert_eq!(
                serde_json::to_value(&via_rmcp).unwrap(),
                without_execution(original),
                "{version:?}"
            );
            let back: Tool =
                serde_json::from_value(serde_json::to_value(&via_rmcp).unwrap()).unwrap();
            let mut expected = original.clone();
            expected.execution = None;
            assert_eq!(back, expected, "{version:?}");
        }
        client.close().await.unwrap();
    }
}
