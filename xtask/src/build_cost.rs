//! `cargo xtask build-cost`: the feature matrix builds, and what an app of
//! each shape compiles stays under a ceiling.
//!
//! Each shape is a small app outside the workspace (generated under
//! `target/build-cost/<shape>/`, path dependencies on the workspace crates,
//! the workspace's lock file): its crate count is the number of distinct
//! crates `cargo tree -e normal,build` lists (the app itself excluded), and
//! `cargo check` proves it compiles. The library-only feature sets are
//! checked with `cargo check -p`, and `mcp-toolkit-server`'s tests, benches
//! and examples with its default features alone (not the workspace's union
//! of features), so each one that needs an opt-in feature says so.
//! Everything shares `target/`, so a run after the tests is a few
//! incremental checks.

use std::collections::BTreeSet;
use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{cargo, stdout_of};

/// An app shape: its dependencies, its code and its crate ceiling.
struct Shape {
    name: &'static str,
    what: &'static str,
    /// `mcp-toolkit-server`'s features: its defaults, or only those named.
    server_features: Features,
    main_rs: &'static str,
    /// The most crates it may compile (normal and build dependencies).
    ceiling: usize,
}

/// What a shape asks of `mcp-toolkit-server`.
enum Features {
    /// `mcp-toolkit-server = { path = .. }`: what a plain dependency gets.
    Default,
    /// `default-features = false, features = [..]`.
    Only(&'static [&'static str]),
}

/// A `#[tool]` every shape serves.
const TOOL: &str = r#"use mcp_core::tool;

/// Adds two numbers.
#[tool]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}
"#;

const SHAPES: &[Shape] = &[
    Shape {
        name: "default",
        what: "hand-written tools over stdio or Streamable HTTP, default features",
        server_features: Features::Default,
        main_rs: r#"
#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = mcp_server::Server::builder().tool(add_tool()?).build()?;
    if std::env::args().any(|arg| arg == "--stdio") {
        server.serve_stdio().await?;
    } else {
        let http = server.bind_http("127.0.0.1:0".parse()?, mcp_server::HttpConfig::new()).await?;
        http.run().await?;
    }
    Ok(())
}
"#,
        ceiling: 150,
    },
    Shape {
        name: "stdio",
        what: "hand-written tools over stdio",
        server_features: Features::Only(&["stdio"]),
        main_rs: r#"
#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = mcp_server::Server::builder().tool(add_tool()?).build()?;
    server.serve_stdio().await?;
    Ok(())
}
"#,
        ceiling: 114,
    },
    Shape {
        name: "http",
        what: "hand-written tools over Streamable HTTP",
        server_features: Features::Only(&["http"]),
        main_rs: r#"
#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = mcp_server::Server::builder().tool(add_tool()?).build()?;
    let http = server.bind_http("127.0.0.1:0".parse()?, mcp_server::HttpConfig::new()).await?;
    http.run().await?;
    Ok(())
}
"#,
        ceiling: 150,
    },
    Shape {
        name: "openapi-http",
        what: "an OpenAPI document and hand-written tools over Streamable HTTP",
        server_features: Features::Only(&["http", "openapi"]),
        main_rs: r#"
#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: app OPENAPI_FILE")?;
    let server = mcp_server::Server::builder()
        .tool(add_tool()?)
        .openapi(mcp_server::OpenApiSource::path(path))
        .build()?;
    let http = server.bind_http("127.0.0.1:0".parse()?, mcp_server::HttpConfig::new()).await?;
    http.run().await?;
    Ok(())
}
"#,
        ceiling: 226,
    },
];

/// Library feature sets no shape covers: `cargo check -p <crate> --lib
/// --no-default-features --features <features>`.
const LIBRARY_SETS: &[(&str, &str)] = &[
    ("mcp-toolkit-core", ""),
    ("mcp-toolkit-openapi", ""),
    ("mcp-toolkit-server", ""),
    ("mcp-toolkit-server", "stdio,openapi"),
    ("mcp-toolkit-server", "redis"),
    ("mcp-toolkit-server", "otel"),
    ("mcp-toolkit-server", "stdio,code-mode"),
];

/// The heading of the build-cost section of `BENCHMARKS.md`, measured by
/// hand (clean builds take minutes) and kept when `cargo xtask bench`
/// rewrites the file.
pub(crate) const SECTION: &str = "## Build cost";

/// Checks every feature set and shape; fails on a shape over its ceiling.
pub(crate) fn check(root: &Path) -> Result<(), String> {
    for (krate, features) in LIBRARY_SETS {
        let mut args = vec!["check", "-p", krate, "--lib", "--no-default-features"];
        if !features.is_empty() {
            args.extend(["--features", features]);
        }
        cargo(root, &args, &[])?;
    }
    cargo(
        root,
        &["check", "-p", "mcp-toolkit-server", "--all-targets"],
        &[],
    )?;
    let mut over = Vec::new();
    for shape in SHAPES {
        let dir = write_app(root, shape)?;
        let target = root.join("target").to_string_lossy().into_owned();
        let manifest = dir.join("Cargo.toml").to_string_lossy().into_owned();
        cargo(
            root,
            &["check", "--manifest-path", &manifest],
            &[("CARGO_TARGET_DIR".to_owned(), target)],
        )?;
        let crates = crate_count(&dir)?;
        eprintln!(
            "xtask build-cost: {} ({}): {crates} crates (ceiling {})",
            shape.name, shape.what, shape.ceiling
        );
        if crates > shape.ceiling {
            over.push(format!(
                "{} compiles {crates} crates, over its ceiling of {} (see `cargo tree --manifest-path {manifest} -e normal,build`)",
                shape.name, shape.ceiling
            ));
        }
    }
    if over.is_empty() {
        Ok(())
    } else {
        Err(over.join("; "))
    }
}

/// Writes the app of `shape` under `target/build-cost/`; its directory.
fn write_app(root: &Path, shape: &Shape) -> Result<PathBuf, String> {
    let dir = root.join("target").join("build-cost").join(shape.name);
    let src = dir.join("src");
    fs::create_dir_all(&src).map_err(|e| format!("cannot create {}: {e}", src.display()))?;
    let features = match shape.server_features {
        Features::Default => String::new(),
        Features::Only(features) => {
            let quoted: Vec<String> = features
                .iter()
                .map(|feature| format!("\"{feature}\""))
                .collect();
            format!(
                ", default-features = false, features = [{}]",
                quoted.join(", ")
            )
        }
    };
    let path_of = |krate: &str| toml_string(&root.join(krate));
    let manifest = format!(
        r#"[package]
name = "app-{name}"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
mcp-toolkit-core = {{ path = {core} }}
mcp-toolkit-server = {{ path = {server}{features} }}
tokio = {{ version = "1", features = ["rt-multi-thread", "macros"] }}

# The workspace's profile, so the checks share its artifacts.
[profile.dev]
debug = "line-tables-only"

[profile.dev.package."*"]
debug = false

[workspace]
"#,
        name = shape.name,
        core = path_of("mcp-core"),
        server = path_of("mcp-server"),
    );
    write(&dir.join("Cargo.toml"), &manifest)?;
    write(&src.join("main.rs"), &format!("{TOOL}{}", shape.main_rs))?;
    // The workspace's versions: nothing to resolve, the same artifacts.
    let lock = root.join("Cargo.lock");
    fs::copy(&lock, dir.join("Cargo.lock"))
        .map_err(|e| format!("cannot copy {}: {e}", lock.display()))?;
    Ok(dir)
}

/// The number of distinct crates (name and version) the app at `dir`
/// compiles, itself excluded.
fn crate_count(dir: &Path) -> Result<usize, String> {
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .args([
            "tree",
            "-e",
            "normal,build",
            "--prefix",
            "none",
            "--no-dedupe",
        ])
        .current_dir(dir);
    let listed = stdout_of(&mut command)?;
    Ok(distinct_crates(&listed).len() - 1)
}

/// The distinct `name vX.Y.Z` of a `cargo tree --prefix none` listing.
fn distinct_crates(listing: &str) -> BTreeSet<String> {
    listing
        .lines()
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            let name = words.next()?;
            let version = words.next()?;
            Some(format!("{name} {version}"))
        })
        .collect()
}

/// `path` as a TOML basic string.
pub(crate) fn toml_string(path: &Path) -> String {
    let text = path.to_string_lossy();
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// Writes `text` to `path`, naming the file when it cannot.
pub(crate) fn write(path: &Path, text: &str) -> Result<(), String> {
    fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_each_crate_once_whatever_its_suffix() {
        let listing = "app-stdio v0.0.0 (/x/app)\nmcp-core v0.1.0 (/x/mcp-core)\nserde v1.0.1\nserde_derive v1.0.1 (proc-macro)\nserde v1.0.1\nsyn v1.0.0\nsyn v2.0.1\n";
        let crates = distinct_crates(listing);
        assert_eq!(crates.len(), 6);
        assert!(crates.contains("syn v1.0.0") && crates.contains("syn v2.0.1"));
    }
}
