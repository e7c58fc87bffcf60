//! The tools a client lists are the tools the server hosts: converting
//! `mcp_core::Tool` to `rmcp::model::Tool` keeps every field rmcp carries,
//! so an rmcp client reads them back whole, except `execution`.

use std::sync::LazyLock;

use mcp_core::{
    Hint, Icon, Metadata, Tool, ToolAnnotations, ToolDef, ToolExecution, icon::IconTheme, tool,
};
use mcp_server::Server;
use rmcp::model::ProtocolVersion;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::support::connect;

#[derive(Debug, Deserialize, JsonSchema)]
struct DeleteRequest {
    /// The user's id.
    id: String,
    /// Also remove their files.
    #[serde(default)]
    purge: bool,
}

#[derive(Debug, Serialize, JsonSchema)]
struct DeleteResponse {
    ok: bool,
    purged: bool,
}

#[derive(Debug, thiserror::Error)]
#[error("user {0} does not exist")]
struct NoSuchUser(String);

async fn do_delete(req: DeleteRequest) -> Result<DeleteResponse, NoSuchUser> {
    if req.id == "404" {
        return Err(NoSuchUser(req.id));
    }
    Ok(DeleteResponse {
        ok: true,
        purged: req.purge,
    })
}

/// A tool using every field rmcp can carry, and `execution`.
fn delete_user() -> ToolDef {
    tool("delete_user")
        .title("Delete user")
        .description("Permanently remove a user account by id. This cannot be undone.")
        .icon(Icon::png(
            "https://example.com/icons/delete.png",
            &["48x48", "any"],
        ))
        .icon(Icon::svg("https://example.com/icons/delete.svg", &[]).theme(IconTheme::Dark))
        .annotations([Hint::Destroy, Hint::ClosedWorld])
        .execution(ToolExecution::optional())
        .meta("com.example.acme/audit-tier", json!("high"))
        .input::<DeleteRequest>()
        .output::<DeleteResponse>()
        .run(do_delete)
        .unwrap()
}

static BRAND: LazyLock<Metadata> = LazyLock::new(|| {
    Metadata::new()
        .title("Brand title")
        .icon(Icon::svg("https://example.com/brand.svg", &[]))
        .meta("com.example.acme/team", json!("platform"))
});

/// Tools built every way the builder allows.
fn every_kind_of_tool() -> Vec<ToolDef> {
    let raw: ToolDef = tool("raw")
        .run(|_: mcp_core::JsonObject| async { "ok" })
        .unwrap();
    let wrapped: ToolDef = tool("count")
        .output::<Vec<u32>>()
        .run(|| async { vec![1, 2] })
        .unwrap();
    let branded: ToolDef = tool("branded")
        .metadata(&BRAND)
        .title("Own title")
        .run(|| async { "" })
        .unwrap();
    let all_defaults: ToolDef = tool("defaults")
        .annotations(ToolAnnotations::defaults())
        .icon(Icon::data_encode("image/svg+xml", "<svg/>"))
        .execution(ToolExecution::required())
        .run(|| async { "" })
        .unwrap();
    let titled: ToolDef = tool("titled.v2-x")
        .annotations([Hint::Read, Hint::Idempotent, Hint::Title("Read it".into())])
        .icon(Icon::jpeg("https://example.com/a.jpg", &["16x16"]).theme(IconTheme::Light))
        .icon(Icon::webp("https://example.com/a.webp", &[]))
        .run(|| async { "" })
        .unwrap();
    let schema: ToolDef = tool("hand_schema")
        .input_schema(
            serde_json::from_value(
                json!({"type": "object", "properties": {"q": {"type": "string"}}}),
            )
            .unwrap(),
        )
        .output_schema(serde_json::from_value(json!({"type": "object"})).unwrap())
        .run(|_: mcp_core::JsonObject| async { "" })
        .unwrap();
    let described: ToolDef = tool("onion")
        .description("Records the order of its layers.")
        .run(|| async { "handled" })
        .unwrap();
    let mut max_name = "n".repeat(128);
    max_name.replace_range(0..1, "N");
    let long: ToolDef = tool(max_name).run(|| async { "" }).unwrap();
    vec![
        delete_user(),
        raw,
        wrapped,
        branded,
        all_defaults,
        titled,
        schema,
        described,
        long,
    ]
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
        let listed = client.list_all_tools().await.unwrap();
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
        client.cancel().await.unwrap();
    }
}
