//! Code mode: a `#[tool]` and the tools of an OpenAPI document, served over
//! stdio behind `search_tools` and `execute`.
//!
//! `cargo run -p examples --bin code_mode -- testdata/openapi/petstore.yaml`
//!
//! A model then finds tools as TypeScript declarations with `search_tools`
//! and sends one script to `execute`, which chains the calls in a sandbox
//! and returns only the answer:
//!
//! ```js
//! const pets = await tools.pets_listPets({ limit: 100 });
//! const cats = pets.filter((pet) => pet.tag === "cat");
//! const score = await tools.score({ names: cats.map((cat) => cat.name) });
//! return { cats: cats.length, score };
//! ```

use std::time::Duration;

use mcp_core::tool;
use mcp_server::{CodeMode, OpenApiSource, Server};

/// Scores a list of names: the number of letters in all of them.
#[tool(annotations(read, idempotent, closed_world))]
async fn score(names: Vec<String>) -> usize {
    names.iter().map(|name| name.chars().count()).sum()
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let document = std::env::args().nth(1).unwrap_or("petstore.yaml".into());
    let server = Server::builder()
        .name("code-mode")
        .tool(score_tool()?)
        .openapi(OpenApiSource::path(document).prefix("pets_"))
        .code_mode(
            CodeMode::new()
                .timeout(Duration::from_secs(20))
                .max_calls(50),
        )
        .build()?;
    server.serve_stdio().await?;
    Ok(())
}
