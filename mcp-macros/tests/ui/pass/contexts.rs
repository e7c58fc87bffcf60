//! Call contexts and typed per-session contexts are not tool arguments.

use futures_executor::block_on;
use mcp_core::{ToolCallContext, ToolDef, tool::CallToolRequest};
use serde_json::json;

#[derive(Default)]
struct Session {
    user: String,
}

/// Says who calls.
#[mcp_core::tool]
async fn whoami(greeting: String, session: &Session) -> String {
    format!("{greeting} {}", session.user)
}

#[mcp_core::tool]
async fn tool_name(cx: &ToolCallContext) -> String {
    cx.tool().name.clone()
}

#[mcp_core::tool]
async fn owned(times: u32, cx: ToolCallContext<Session>) -> String {
    cx.ctx().user.repeat(times as usize)
}

#[mcp_core::tool]
async fn generic<C: Send + Sync + 'static>(cx: &ToolCallContext<C>) -> String {
    cx.request().name.clone()
}

fn main() {
    let def: ToolDef<Session> = whoami_tool().unwrap();
    assert_eq!(def.tool().input_schema["required"], json!(["greeting"]));
    let request = CallToolRequest::new("whoami", json!({"greeting": "hi"}).as_object().cloned());
    let session = std::sync::Arc::new(Session { user: "ada".to_owned() });
    let result = block_on(def.call(def.context(request, session.clone())));
    assert_eq!(result.text_content(), "hi ada");

    let def: ToolDef<()> = tool_name_tool().unwrap();
    assert_eq!(block_on(def.call_detached(json!({}))).text_content(), "tool_name");

    let def: ToolDef<Session> = owned_tool().unwrap();
    let request = CallToolRequest::new("owned", json!({"times": 2}).as_object().cloned());
    assert_eq!(block_on(def.call(def.context(request, session))).text_content(), "adaada");

    let def: ToolDef<u8> = generic_tool::<u8>().unwrap();
    assert_eq!(block_on(def.call_detached(json!({}))).text_content(), "generic");
}
