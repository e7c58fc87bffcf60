//! The `hello` tools written with the fluent builder instead of the macro,
//! sharing a `Metadata` bundle, plus the seed's `audit` middleware that
//! writes `_meta` on every result.

use std::sync::LazyLock;

use mcp_core::tool::middleware::{self, Next};
use mcp_core::{CallToolResult, Hint, Icon, Metadata, ToolCallContext, tool};
use mcp_server::Server;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

/// Shared by both tools: an icon and the owning team.
static BRAND: LazyLock<Metadata> = LazyLock::new(|| {
    Metadata::new()
        .icon(Icon::data_encode(
            "image/svg+xml",
            "<svg xmlns='http://www.w3.org/2000/svg'/>",
        ))
        .meta("com.example.acme/team", "platform".into())
});

#[derive(Deserialize, JsonSchema)]
struct AddArgs {
    /// The first number.
    a: i64,
    /// The second number.
    b: i64,
}

#[derive(Deserialize, JsonSchema)]
struct GreetArgs {
    /// Who to greet.
    name: String,
}

/// Reads the request's `progressToken` and records who was called, in which
/// session and with which token, in the result's `_meta`.
async fn audit(cx: ToolCallContext, next: Next) -> CallToolResult {
    let tool = Value::String(cx.request().name.clone());
    let session = cx
        .scope()
        .session()
        .map_or(Value::Null, |s| Value::String(s.to_owned()));
    let token = cx.scope().progress_token().cloned().unwrap_or(Value::Null);
    let mut result = next.run(cx).await;
    for (key, value) in [
        ("com.example.audit/tool", tool),
        ("com.example.audit/session", session),
        ("com.example.audit/token", token),
    ] {
        if let Err(error) = result.meta.insert(key, value) {
            return CallToolResult::error(error.to_string());
        }
    }
    result
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let add = tool("add")
        .metadata(&BRAND)
        .description("Adds two numbers.")
        .annotations([Hint::Read, Hint::Idempotent, Hint::ClosedWorld])
        .input::<AddArgs>()
        .output::<i64>()
        .run(|args: AddArgs| async move { args.a + args.b })?;
    let greet = tool("greet")
        .metadata(&BRAND)
        .title("Greet")
        .description("Greets someone by name.")
        .input::<GreetArgs>()
        .run(|args: GreetArgs| async move { format!("Hello, {}!", args.name) })?;
    let server = Server::builder()
        .name("builder")
        .tool(add)
        .tool(greet)
        .tool_middleware(middleware::from_fn(audit))
        .build()?;
    server.serve_stdio().await?;
    Ok(())
}
