//! The smallest complete MCP server: two `#[tool]` functions over stdio.

use mcp_core::tool;
use mcp_server::Server;

/// Adds two numbers.
#[tool(annotations(read, idempotent, closed_world))]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Greets someone by name.
#[tool(title = "Greet")]
async fn greet(name: String) -> String {
    format!("Hello, {name}!")
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let server = Server::builder()
        .name("hello")
        .tool(add_tool()?)
        .tool(greet_tool()?)
        .build()?;
    server.serve_stdio().await?;
    Ok(())
}
