//! Server layers wrap tool layers; the first registered is outermost.

use std::sync::Arc;

use mcp_core::tool::middleware::from_fn;
use mcp_core::{CallToolResult, ToolDef, tool};
use mcp_server::Server;
use rmcp::model::ProtocolVersion;
use serde_json::Value;

use crate::support::{Log, connect};

fn layer(log: &Log, name: &'static str) -> impl mcp_core::tool::middleware::ToolMiddleware + use<> {
    let log = log.clone();
    from_fn(move |cx, next| {
        let log = log.clone();
        async move {
            log.lock().unwrap().push(format!("{name} in"));
            let result = next.run(cx).await;
            log.lock().unwrap().push(format!("{name} out"));
            result
        }
    })
}

#[tokio::test]
async fn calls_flow_a_b_c_d_handler_and_back() {
    let log: Log = Arc::default();
    let handler_log = log.clone();
    let def: ToolDef = tool("probe")
        .run(move || {
            let log = handler_log.clone();
            async move {
                log.lock().unwrap().push("handler".to_owned());
                CallToolResult::text("done")
            }
        })
        .unwrap()
        .layer(layer(&log, "c"))
        .layer(layer(&log, "d"));
    let server = Server::builder()
        .tool(def)
        .tool_middleware(layer(&log, "a"))
        .tool_middleware(layer(&log, "b"))
        .build()
        .unwrap();
    for version in [ProtocolVersion::V_2025_11_25, ProtocolVersion::V_2026_07_28] {
        log.lock().unwrap().clear();
        let (client, _) = connect(server.clone(), version).await;
        let result = client.call_tool("probe", Value::Null).await.unwrap();
        assert_eq!(result.content[0].as_text().unwrap().text, "done");
        assert_eq!(
            *log.lock().unwrap(),
            [
                "a in", "b in", "c in", "d in", "handler", "d out", "c out", "b out", "a out"
            ]
        );
    }
}

#[tokio::test]
async fn middleware_sees_the_resolved_tool_and_session_context() {
    #[derive(Debug)]
    struct Ctx {
        greeting: String,
    }
    let def: ToolDef<Ctx> = tool("greet")
        .run(
            |_: mcp_core::JsonObject, cx: mcp_core::ToolCallContext<Ctx>| async move {
                cx.ctx().greeting.clone()
            },
        )
        .unwrap()
        .map_tool(|tool| tool.title = Some("Greeter".to_owned()));
    let server = mcp_server::ServerBuilder::new()
        .tool(def)
        .context(|session| Ctx {
            greeting: format!("hello over {:?}", session.transport()),
        })
        .tool_middleware(from_fn(
            |cx: mcp_core::ToolCallContext<Ctx>, next| async move {
                let title = cx.tool().title.clone().unwrap_or_default();
                let mut result = next.run(cx).await;
                result.content.push(mcp_core::content::Content::text(title));
                result
            },
        ))
        .build()
        .unwrap();
    let (client, _) = connect(server, ProtocolVersion::V_2025_11_25).await;
    let result = client.call_tool("greet", Value::Null).await.unwrap();
    let texts: Vec<_> = result
        .content
        .iter()
        .map(|c| c.as_text().unwrap().text.clone())
        .collect();
    assert_eq!(texts, ["hello over Io", "Greeter"]);
}
