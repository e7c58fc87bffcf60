//! Hand-written tools next to an OpenAPI document, served over stdio.

use mcp_core::tool;
use mcp_server::{OpenApiSource, Server};

/// Adds two numbers.
#[tool(annotations(read, idempotent, closed_world))]
pub async fn add(a: i64, b: i64) -> i64 {
    a + b
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let document = std::env::args().nth(1).unwrap_or("petstore.yaml".into());
    let server = Server::builder()
        .name("quickstart")
        .tool(add_tool()?)
        .openapi(OpenApiSource::path(document).prefix("pets_"))
        .build()?;
    server.serve_stdio().await?;
    Ok(())
}
