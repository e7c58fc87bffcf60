//! Fixtures that change the server at runtime, and one that needs a client
//! capability: the 2026-07-28 scenarios call them.

use std::sync::OnceLock;

use mcp_core::{
    JsonObject, ToolCallContext, ToolDef, ToolError, client::CreateMessageRequest, prompt::prompt,
    tool,
};
use mcp_server::Server;

/// The running server, for the fixtures that change it.
static SERVER: OnceLock<Server> = OnceLock::new();

/// The tool `test_trigger_tool_change` adds and removes in turn.
const DYNAMIC_TOOL: &str = "test_dynamic_tool";

/// The prompt `test_trigger_prompt_change` adds and removes in turn.
const DYNAMIC_PROMPT: &str = "test_dynamic_prompt";

/// Lets the fixtures reach the server they run in.
pub(crate) fn watch(server: &Server) {
    let _ = SERVER.set(server.clone());
}

/// Adds the dynamic prompt, or removes it when present: every listening
/// client gets `notifications/prompts/list_changed`.
async fn toggle_prompt() -> Result<String, String> {
    let server = SERVER.get().ok_or("the server is not running")?;
    if server.remove_prompt(DYNAMIC_PROMPT) {
        return Ok(format!("removed prompt `{DYNAMIC_PROMPT}`"));
    }
    let def = prompt(DYNAMIC_PROMPT)
        .description("A prompt added at runtime.")
        .run(|| async { "This prompt was added at runtime." })
        .map_err(|e| e.to_string())?;
    server.add_prompt(def).map_err(|e| e.to_string())?;
    Ok(format!("added prompt `{DYNAMIC_PROMPT}`"))
}

/// Adds the dynamic tool, or removes it when present: every session that
/// can be told gets `notifications/tools/list_changed`.
async fn toggle_tool() -> Result<String, String> {
    let server = SERVER.get().ok_or("the server is not running")?;
    if server.remove_tool(DYNAMIC_TOOL) {
        return Ok(format!("removed tool `{DYNAMIC_TOOL}`"));
    }
    let def = tool(DYNAMIC_TOOL)
        .description("A tool added at runtime.")
        .run(|| async { "This tool was added at runtime." })
        .map_err(|e| e.to_string())?;
    server.add_tool(def).map_err(|e| e.to_string())?;
    Ok(format!("added tool `{DYNAMIC_TOOL}`"))
}

/// Needs sampling: a 2026-07-28 client that does not declare it gets
/// JSON-RPC error -32021.
async fn needs_sampling(cx: ToolCallContext) -> Result<String, String> {
    let answer = cx
        .sample(CreateMessageRequest::text("Say something.", 20))
        .await
        .map_err(|e| e.to_string())?;
    Ok(answer.text())
}

pub(crate) fn all() -> Result<Vec<ToolDef>, ToolError> {
    Ok(vec![
        tool("test_trigger_prompt_change")
            .description("Adds or removes a prompt at runtime.")
            .run(|_: JsonObject| toggle_prompt())?,
        tool("test_trigger_tool_change")
            .description("Adds or removes a tool at runtime.")
            .run(|_: JsonObject| toggle_tool())?,
        tool("test_missing_capability")
            .description("Needs the client's sampling capability.")
            .run(|_: JsonObject, cx: ToolCallContext| needs_sampling(cx))?,
    ])
}
