//! `tools/list` pages through 10,000 tools with small replies.

use mcp_core::{ToolDef, tool};
use mcp_server::Server;
use rmcp::model::{PaginatedRequestParams, ProtocolVersion};
use serde_json::json;

use crate::support::{Raw, connect};

fn many_tools(count: usize) -> Server {
    let defs = (0..count).map(|i| -> ToolDef {
        tool(format!("tool_{i:05}"))
            .description("One of very many tools, each with a description long enough to matter.")
            .run(|| async { "ok" })
            .unwrap()
    });
    Server::builder().tools(defs).build().unwrap()
}

#[tokio::test]
async fn ten_thousand_tools_arrive_in_pages() {
    let (client, _) = connect(many_tools(10_000), ProtocolVersion::V_2026_07_28).await;
    let mut names = Vec::new();
    let mut cursor = None;
    let mut pages = 0;
    loop {
        let page = client
            .peer()
            .list_tools(Some(PaginatedRequestParams::default().with_cursor(cursor)))
            .await
            .unwrap();
        assert!(page.tools.len() <= 100);
        pages += 1;
        names.extend(page.tools.into_iter().map(|tool| tool.name.into_owned()));
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    assert_eq!(pages, 100);
    assert_eq!(names.len(), 10_000);
    assert_eq!(names[0], "tool_00000");
    assert_eq!(names[9_999], "tool_09999");
}

#[tokio::test]
async fn each_raw_reply_stays_small_and_page_size_is_configurable() {
    let defs =
        (0..1_000).map(|i| -> ToolDef { tool(format!("t{i}")).run(|| async { "ok" }).unwrap() });
    let server = Server::builder()
        .tools(defs)
        .page_size(250)
        .build()
        .unwrap();
    let mut raw = Raw::new(server);
    raw.initialize_2025().await;
    let first = raw.request(1, "tools/list", json!({})).await;
    assert_eq!(first["result"]["tools"].as_array().unwrap().len(), 250);
    assert!(first.to_string().len() < 64 * 1024);
    let cursor = first["result"]["nextCursor"].clone();
    let second = raw
        .request(2, "tools/list", json!({"cursor": cursor}))
        .await;
    assert_eq!(second["result"]["tools"][0]["name"], "t250");
}

#[tokio::test]
async fn a_foreign_cursor_is_invalid_params() {
    let mut raw = Raw::new(many_tools(3));
    raw.initialize_2025().await;
    let reply = raw
        .request(1, "tools/list", json!({"cursor": "page-2"}))
        .await;
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .contains("page-2")
    );
}

#[tokio::test]
async fn huge_schemas_end_a_page_before_the_byte_budget() {
    // 40 tools of about 1 MiB of schema each, like the largest generated ones.
    let description = "x".repeat(1 << 20);
    let defs = (0..40).map(|i| -> ToolDef {
        let schema = json!({"type": "object", "description": description});
        tool(format!("big_{i:02}"))
            .input_schema(schema.as_object().unwrap().clone())
            .run(|| async { "ok" })
            .unwrap()
    });
    let mut raw = Raw::new(Server::builder().tools(defs).build().unwrap());
    raw.initialize_2025().await;
    let (mut cursor, mut listed, mut id) = (None::<serde_json::Value>, 0, 1);
    loop {
        let params = match &cursor {
            Some(cursor) => json!({"cursor": cursor}),
            None => json!({}),
        };
        let reply = raw.request(id, "tools/list", params).await;
        id += 1;
        assert!(reply.to_string().len() <= mcp_server::MAX_PAGE_BYTES + 64 * 1024);
        let tools = reply["result"]["tools"].as_array().unwrap().len();
        assert!(tools >= 1);
        listed += tools;
        match reply["result"].get("nextCursor") {
            Some(next) if !next.is_null() => cursor = Some(next.clone()),
            _ => break,
        }
    }
    assert_eq!(listed, 40);
}
