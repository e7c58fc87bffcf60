//! Fixtures of the `io.modelcontextprotocol/tasks` extension scenarios:
//! tools that may (or must) run as tasks. The server decides whether a call
//! becomes a task; the tool code is the same either way.

use std::time::Duration;

use futures_util::future::join;
use mcp_core::{
    ProtocolError, ToolCallContext, ToolDef, ToolError, ToolExecution, client::ElicitRequest, tool,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

/// The arguments of `greet`.
#[derive(Deserialize, JsonSchema)]
struct Name {
    /// Who to greet.
    name: String,
}

/// The arguments of `slow_compute`.
#[derive(Deserialize, JsonSchema)]
struct Seconds {
    /// How long to work, in seconds (0 for an immediate result).
    seconds: f64,
}

fn ask(key: &str, message: &str) -> Result<ElicitRequest, String> {
    let schema = json!({"type": "object", "properties": {"confirm": {"type": "boolean"}}, "required": ["confirm"]});
    Ok(ElicitRequest::new(message, schema)
        .map_err(|e| e.to_string())?
        .input_key(key))
}

async fn confirm_delete(cx: ToolCallContext) -> Result<String, String> {
    let answer = cx
        .elicit(ask("confirm", "Delete the file?")?)
        .await
        .map_err(|e| e.to_string())?;
    Ok(format!("delete confirmed: {:?}", answer.content))
}

async fn multi_input(cx: ToolCallContext) -> Result<String, String> {
    let (first, second) = join(
        cx.elicit(ask("first", "First?")?),
        cx.elicit(ask("second", "Second?")?),
    )
    .await;
    let (first, second) = (
        first.map_err(|e| e.to_string())?,
        second.map_err(|e| e.to_string())?,
    );
    Ok(format!(
        "answers: {:?} and {:?}",
        first.content, second.content
    ))
}

async fn with_task(cx: ToolCallContext) -> Result<String, String> {
    let schema =
        json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]});
    let request = ElicitRequest::new("What is your name?", schema)
        .map_err(|e| e.to_string())?
        .input_key("user_name")
        .before_task();
    let answer = cx.elicit(request).await.map_err(|e| e.to_string())?;
    let name = answer
        .content
        .and_then(|c| c.get("name").cloned())
        .unwrap_or_default();
    tokio::time::sleep(Duration::from_millis(100)).await;
    Ok(format!("Task finished for user_name {name}"))
}

pub(crate) fn all() -> Result<Vec<ToolDef>, ToolError> {
    let task = ToolExecution::optional;
    Ok(vec![
        tool("greet")
            .description("Greets someone (never a task).")
            .input::<Name>()
            .run(|args: Name| async move { format!("Hello, {}!", args.name) })?,
        tool("slow_compute")
            .description("Works for `seconds` seconds, then answers; may run as a task.")
            .execution(task())
            .input::<Seconds>()
            .run(|args: Seconds, cx: ToolCallContext| async move {
                let work =
                    tokio::time::sleep(Duration::from_secs_f64(args.seconds.clamp(0.0, 60.0)));
                tokio::select! {
                    () = work => Ok(format!("computed for {} s", args.seconds)),
                    () = cx.cancelled() => Err("cancelled".to_owned()),
                }
            })?,
        tool("failing_job")
            .description("Fails after about a second; must run as a task.")
            .execution(ToolExecution::required())
            .run(|| async {
                tokio::time::sleep(Duration::from_secs(1)).await;
                Err::<String, _>("the job failed")
            })?,
        tool("protocol_error_job")
            .description("Breaks down inside the server; may run as a task.")
            .execution(task())
            .run(|| async {
                let broken: Option<String> = None;
                broken.ok_or_else(|| ProtocolError::internal("internal failure"))
            })?,
        tool("confirm_delete")
            .description("Asks for a confirmation; may run as a task.")
            .execution(task())
            .run(|_: mcp_core::JsonObject, cx: ToolCallContext| confirm_delete(cx))?,
        tool("multi_input")
            .description("Asks two questions at once; may run as a task.")
            .execution(task())
            .run(|_: mcp_core::JsonObject, cx: ToolCallContext| multi_input(cx))?,
        tool("test_tool_with_task")
            .description("Asks for the user's name, then finishes as a task.")
            .execution(ToolExecution::required())
            .run(|_: mcp_core::JsonObject, cx: ToolCallContext| with_task(cx))?,
    ])
}
