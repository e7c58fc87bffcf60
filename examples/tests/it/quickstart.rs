//! `quickstart`, the README's first program: the file is the README's
//! block, it serves its tool and the Petstore document's over stdio, and
//! its tool is tested in process as the README's "Testing your server"
//! shows.

use mcp_server::testing::TestClient;
use mcp_server::{OpenApiSource, Server};
use serde_json::json;

use crate::stdio_examples::spawn_with;

/// The quickstart's own code, so that its tool is tested in process (its
/// `main` is not run here).
#[path = "../../src/bin/quickstart.rs"]
#[allow(dead_code, unreachable_pub)]
mod program;

/// The fenced `rust` blocks of a Markdown text.
fn rust_blocks(markdown: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in markdown.lines() {
        match (&mut current, line.trim_end()) {
            (None, "```rust") => current = Some(String::new()),
            (Some(block), "```") => {
                blocks.push(std::mem::take(block));
                current = None;
            }
            (Some(block), _) => {
                block.push_str(line);
                block.push('\n');
            }
            (None, _) => {}
        }
    }
    blocks
}

#[test]
fn the_readme_shows_the_quickstart_file_verbatim() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).expect("README.md");
    let file = std::fs::read_to_string(format!("{root}/examples/src/bin/quickstart.rs"))
        .expect("quickstart.rs");
    assert!(file.lines().count() < 25, "the first screen stays short");
    assert!(
        rust_blocks(&readme).contains(&file),
        "README.md has no ```rust block equal to examples/src/bin/quickstart.rs"
    );
}

#[test]
fn rust_blocks_are_found_whole() {
    let markdown = "a\n```rust\nfn a() {}\n\nfn b() {}\n```\n```sh\nls\n```\n";
    assert_eq!(rust_blocks(markdown), ["fn a() {}\n\nfn b() {}\n"]);
}

#[tokio::test]
async fn quickstart_serves_its_tool_and_the_petstore_document() {
    let petstore = testdata::openapi("petstore.yaml").display().to_string();
    let quickstart = spawn_with(env!("CARGO_BIN_EXE_quickstart"), &[&petstore]).await;
    assert_eq!(
        quickstart.tool_names().await,
        [
            "add",
            "pets_listPets",
            "pets_createPets",
            "pets_showPetById"
        ]
    );
    let sum = quickstart.call("add", json!({"a": 2, "b": 3})).await;
    assert_eq!(
        sum.structured_content,
        Some(json!({"result": 5})),
        "{sum:?}"
    );
    quickstart.stop().await;
}

#[tokio::test]
async fn the_quickstart_is_tested_in_process() -> Result<(), Box<dyn std::error::Error>> {
    let petstore = OpenApiSource::path(testdata::openapi("petstore.yaml")).prefix("pets_");
    let server = Server::builder()
        .name("quickstart")
        .tool(program::add_tool()?)
        .openapi(petstore)
        .build()?;
    let client = TestClient::connect(server).await?;
    let names: Vec<String> = client
        .list_tools()
        .await?
        .into_iter()
        .map(|tool| tool.name.into_owned())
        .collect();
    assert_eq!(
        names,
        [
            "add",
            "pets_listPets",
            "pets_createPets",
            "pets_showPetById"
        ]
    );
    let sum = client.call_tool("add", json!({"a": 2, "b": 3})).await?;
    assert_eq!(sum.structured_content, Some(json!({"result": 5})));
    let wrong = client.call_tool("add", json!({"a": "two"})).await?;
    assert_eq!(wrong.is_error, Some(true));
    Ok(())
}
