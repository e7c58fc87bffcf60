//! `cargo xtask first-hour`: a new user's first crate, outside the
//! workspace, built and tested the way the README tells them.
//!
//! The crate is generated under `target/first-hour/`: path dependencies on
//! the workspace crates with `default-features = false, features =
//! ["stdio", "code-mode"]`, `testing` in `[dev-dependencies]`, the README's
//! first tool (`add`), a tool with an enum argument described with
//! `#[arg]`, and as its tests the README's "Testing your server" block as
//! written, then tests of the enum tool, of `let def = forecast_tool()?;`
//! and of code mode through `TestClient`. It shares the workspace's lock
//! file and `target/`, and pins the third-party crates it compiles to the
//! workspace's features (see `pins`), so what is built again is rmcp (with
//! the features this crate's choice gives it), the three workspace crates
//! (path dependencies here, with a dependency's profile) and the crate.

mod pins;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use self::pins::Pin;
use crate::build_cost::{toml_string, write};
use crate::cargo;

/// The README heading whose first `rust` block the crate's tests start with.
const TESTING_HEADING: &str = "## Testing your server";

/// The crate's tools and `main`, before the README's tests.
const MAIN_RS: &str = r#"//! A first server: the README's tool and a tool with an enum argument,
//! over stdio (`--code-mode` for code mode).

use mcp_core::tool;
use mcp_server::{CodeMode, Server};

/// Adds two numbers.
#[tool(annotations(read, idempotent, closed_world))]
pub async fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// A temperature unit.
#[derive(serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// Degrees Celsius.
    Celsius,
    /// Degrees Fahrenheit.
    Fahrenheit,
}

/// Tomorrow's weather in a city.
#[tool(annotations(read, closed_world))]
pub async fn forecast(
    #[arg(description = "The city to forecast, e.g. Paris or Lyon. Any case.", example = "Paris")]
    city: String,
    #[arg(description = "The unit of the temperatures.", default = Unit::Celsius)] unit: Unit,
) -> String {
    let unit = match unit {
        Unit::Celsius => "°C",
        Unit::Fahrenheit => "°F",
    };
    format!("{city}: 21 {unit}")
}

/// The server, in code mode or not.
fn server(code_mode: bool) -> Result<Server, Box<dyn std::error::Error>> {
    let builder = Server::builder()
        .name("first-hour")
        .tool(add_tool()?)
        .tool(forecast_tool()?);
    let builder = if code_mode {
        builder.code_mode(CodeMode::new())
    } else {
        builder
    };
    Ok(builder.build()?)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let code_mode = std::env::args().any(|arg| arg == "--code-mode");
    server(code_mode)?.serve_stdio().await?;
    Ok(())
}
"#;

/// The crate's own tests, after the README's.
const TESTS_RS: &str = r#"
#[cfg(test)]
mod first_hour {
    use mcp_server::testing::{TestClient, TestClientError};
    use serde_json::json;

    use super::{forecast_tool, server};

    fn text(result: &mcp_server::testing::rmcp::model::CallToolResult) -> String {
        result.content[0].as_text().map(|text| text.text.clone()).unwrap_or_default()
    }

    #[test]
    fn a_definition_needs_no_type_annotation() -> Result<(), Box<dyn std::error::Error>> {
        let def = forecast_tool()?;
        assert_eq!(def.name(), "forecast");
        let city = &def.tool().input_schema["properties"]["city"];
        assert_eq!(city["description"], "The city to forecast, e.g. Paris or Lyon. Any case.");
        assert_eq!(city["examples"], json!(["Paris"]));
        Ok(())
    }

    #[tokio::test]
    async fn a_wrong_unit_is_told_the_units() -> Result<(), Box<dyn std::error::Error>> {
        let client = TestClient::connect(server(false)?).await?;
        let wrong = client.call_tool("forecast", json!({"city": "Lyon", "unit": "kelvin"})).await?;
        assert_eq!(wrong.is_error, Some(true));
        assert_eq!(
            text(&wrong),
            "invalid arguments for tool `forecast`:\n/unit: \"kelvin\" is not one of \"celsius\", \"fahrenheit\""
        );
        let Err(TestClientError::Protocol { error }) = client.call_tool("forcast", json!({})).await else {
            panic!("an unknown tool is a JSON-RPC error");
        };
        assert_eq!(error.message, "unknown tool `forcast`; did you mean `forecast`?");
        Ok(())
    }

    #[tokio::test]
    async fn code_mode_reads_as_this_servers_own() -> Result<(), Box<dyn std::error::Error>> {
        let client = TestClient::connect(server(true)?).await?;
        let tools = client.list_tools().await?;
        let execute = tools.iter().find(|tool| tool.name == "execute").ok_or("no execute")?;
        let description = execute.description.as_deref().unwrap_or_default();
        assert!(description.contains("tools.add({ a: 1, b: 1 })"), "{description}");
        let found = client.call_tool("search_tools", json!({"query": "weather in a city"})).await?;
        assert!(text(&found).contains("The city to forecast, e.g. Paris or Lyon."), "{}", text(&found));
        let run = client
            .call_tool("execute", json!({"code": "return await tools.forecast({ city: 'Nice' })"}))
            .await?;
        assert_eq!(run.structured_content, Some(json!({"result": "Nice: 21 °C", "logs": [], "calls": 1})));
        let wrong = client.call_tool("execute", json!({"code": "return 1 +"})).await?;
        assert_eq!(text(&wrong), "SyntaxError at line 1, column 11: unexpected end of the script");
        Ok(())
    }
}
"#;

/// A dependency of the generated crate as a user writes it.
struct Dependency {
    /// `[dependencies]` or `[dev-dependencies]`.
    dev: bool,
    name: &'static str,
    /// Where it comes from: a version, or a path in the workspace.
    source: Source,
    /// `default-features = false`.
    no_default_features: bool,
    features: &'static [&'static str],
}

enum Source {
    Version(&'static str),
    Workspace(&'static str),
}

/// The crate's dependencies: what the README tells a user to write.
const DEPENDENCIES: &[Dependency] = &[
    Dependency {
        dev: false,
        name: "mcp-toolkit-core",
        source: Source::Workspace("mcp-core"),
        no_default_features: false,
        features: &[],
    },
    Dependency {
        dev: false,
        name: "mcp-toolkit-server",
        source: Source::Workspace("mcp-server"),
        no_default_features: true,
        features: &["stdio", "code-mode"],
    },
    Dependency {
        dev: false,
        name: "tokio",
        source: Source::Version("1"),
        no_default_features: false,
        features: &["rt-multi-thread", "macros"],
    },
    Dependency {
        dev: false,
        name: "serde",
        source: Source::Version("1"),
        no_default_features: false,
        features: &["derive"],
    },
    Dependency {
        dev: false,
        name: "schemars",
        source: Source::Version("1"),
        no_default_features: false,
        features: &[],
    },
    Dependency {
        dev: true,
        name: "mcp-toolkit-server",
        source: Source::Workspace("mcp-server"),
        no_default_features: true,
        features: &["testing"],
    },
    Dependency {
        dev: true,
        name: "serde_json",
        source: Source::Version("1"),
        no_default_features: false,
        features: &[],
    },
];

/// Generates the crate and runs `cargo test` on it.
pub(crate) fn check(root: &Path) -> Result<(), String> {
    let dir = write_sources(root)?;
    let lock = root.join("Cargo.lock");
    let write = |pins: &[Pin]| {
        write(&dir.join("Cargo.toml"), &manifest(root, pins))?;
        // The workspace's versions, whole (cargo trims the copy to what it
        // resolves): nothing new to resolve, the same artifacts.
        fs::copy(&lock, dir.join("Cargo.lock"))
            .map(|_| ())
            .map_err(|e| format!("cannot copy {}: {e}", lock.display()))
    };
    let found = pins::find(root, &dir, write)?;
    write(&found)?;
    eprintln!(
        "xtask first-hour: {} third-party crates pinned to the workspace's features",
        found.len()
    );
    let manifest = dir.join("Cargo.toml").to_string_lossy().into_owned();
    let target = root.join("target").to_string_lossy().into_owned();
    cargo(
        root,
        &["test", "--manifest-path", &manifest],
        &[("CARGO_TARGET_DIR".to_owned(), target)],
    )
}

/// Writes the crate's sources under `target/first-hour/`; its directory.
fn write_sources(root: &Path) -> Result<PathBuf, String> {
    let readme_path = root.join("README.md");
    let readme = fs::read_to_string(&readme_path)
        .map_err(|e| format!("cannot read {}: {e}", readme_path.display()))?;
    let readme_tests = first_rust_block_after(&readme, TESTING_HEADING)
        .ok_or_else(|| format!("README.md has no ```rust block under `{TESTING_HEADING}`"))?;
    let dir = root.join("target").join("first-hour");
    let src = dir.join("src");
    fs::create_dir_all(&src).map_err(|e| format!("cannot create {}: {e}", src.display()))?;
    write(
        &src.join("main.rs"),
        &format!("{MAIN_RS}\n{readme_tests}{TESTS_RS}"),
    )?;
    Ok(dir)
}

/// The crate's manifest: the user's dependencies, then `pins` (features a
/// pin adds to one of the user's dependencies go on its line).
fn manifest(root: &Path, pins: &[Pin]) -> String {
    let mut text = String::from(
        "[package]\nname = \"first-hour\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n",
    );
    let direct: Vec<&str> = DEPENDENCIES
        .iter()
        .map(|dependency| dependency.name)
        .collect();
    for dev in [false, true] {
        text.push_str(if dev {
            "\n[dev-dependencies]\n"
        } else {
            "\n[dependencies]\n"
        });
        for dependency in DEPENDENCIES.iter().filter(|d| d.dev == dev) {
            let pinned = pins
                .iter()
                .filter(|pin| pin.name == dependency.name && pin.compiled_for.target)
                .flat_map(|pin| pin.features.iter().map(String::as_str));
            let features: BTreeSet<&str> =
                dependency.features.iter().copied().chain(pinned).collect();
            let source = match dependency.source {
                Source::Version(version) => format!("version = \"{version}\""),
                Source::Workspace(dir) => format!("path = {}", toml_string(&root.join(dir))),
            };
            let defaults = if dependency.no_default_features {
                ", default-features = false"
            } else {
                ""
            };
            let features = if features.is_empty() {
                String::new()
            } else {
                format!(", features = {}", quoted(features))
            };
            text.push_str(&format!(
                "{} = {{ {source}{defaults}{features} }}\n",
                dependency.name
            ));
        }
        if !dev {
            text.push_str(
                "# Pinned to the workspace's features, so that they are not compiled again.\n",
            );
            for pin in pins
                .iter()
                .filter(|p| p.compiled_for.target && !direct.contains(&p.name.as_str()))
            {
                text.push_str(&pin_line(pin));
            }
        }
    }
    text.push_str("\n[build-dependencies]\n");
    for pin in pins.iter().filter(|pin| pin.compiled_for.host) {
        text.push_str(&pin_line(pin));
    }
    text.push_str(
        "\n# The workspace's profile, so the build shares its artifacts.\n[profile.dev]\ndebug = \"line-tables-only\"\n\n[profile.dev.package.\"*\"]\ndebug = false\n\n[workspace]\n",
    );
    text
}

/// A pin as a dependency line, named for the crate and its version.
fn pin_line(pin: &Pin) -> String {
    format!(
        "pin-{}-{} = {{ package = \"{}\", version = \"={}\", default-features = false, features = {} }}\n",
        pin.name,
        pin.version.replace(['.', '+'], "_"),
        pin.name,
        pin.version,
        quoted(pin.features.iter().map(String::as_str).collect())
    )
}

/// `["a", "b"]`.
fn quoted(items: BTreeSet<&str>) -> String {
    let items: Vec<String> = items.iter().map(|item| format!("\"{item}\"")).collect();
    format!("[{}]", items.join(", "))
}

/// The body of the first ```rust block after the line `heading`.
fn first_rust_block_after(markdown: &str, heading: &str) -> Option<String> {
    let mut lines = markdown
        .lines()
        .skip_while(|line| line.trim_end() != heading)
        .skip_while(|line| line.trim_end() != "```rust")
        .skip(1);
    let mut block = String::new();
    for line in lines.by_ref() {
        if line.trim_end() == "```" {
            return Some(block);
        }
        block.push_str(line);
        block.push('\n');
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_block_under_the_heading_is_found_whole() {
        let markdown = "# A\n```rust\nno\n```\n## Testing your server\ntext\n```toml\nx\n```\n```rust\nfn a() {}\n\nfn b() {}\n```\n```rust\nno\n```\n";
        assert_eq!(
            first_rust_block_after(markdown, TESTING_HEADING).as_deref(),
            Some("fn a() {}\n\nfn b() {}\n")
        );
        assert_eq!(
            first_rust_block_after("## Testing your server\n", TESTING_HEADING),
            None
        );
    }

    #[test]
    fn the_readme_has_the_block() {
        let readme = include_str!("../../README.md");
        let block = first_rust_block_after(readme, TESTING_HEADING).unwrap_or_default();
        assert!(block.contains("TestClient::connect"), "{block}");
    }
}
