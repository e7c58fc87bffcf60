//! The layering rule, checked on the real dependency graph: `mcp-core` and
//! `mcp-openapi` never pull in rmcp or tokio through their default features,
//! and only `mcp-server` (and the crates on top of it) names rmcp.

use std::path::Path;
use std::process::Command;

/// Crates whose normal dependency tree must not contain the forbidden ones.
const RULES: &[(&str, &[&str])] = &[
    ("mcp-core", &["rmcp", "tokio"]),
    ("mcp-macros", &["rmcp", "tokio", "mcp-core"]),
    ("mcp-openapi", &["rmcp"]),
];

/// Fails naming every broken edge.
pub(crate) fn check(root: &Path) -> Result<(), String> {
    let mut broken = Vec::new();
    for (krate, forbidden) in RULES {
        let tree = normal_dependencies(root, krate)?;
        for dependency in *forbidden {
            if tree.iter().any(|line| line == dependency) {
                broken.push(format!("`{krate}` depends on `{dependency}`"));
            }
        }
    }
    if broken.is_empty() {
        eprintln!("xtask tidy: layering rule holds");
        Ok(())
    } else {
        Err(format!("layering rule broken: {}", broken.join("; ")))
    }
}

/// The names of every crate in the normal dependency tree of `krate`.
fn normal_dependencies(root: &Path, krate: &str) -> Result<Vec<String>, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args([
            "tree", "--quiet", "-e", "normal", "--prefix", "none", "--format", "{p}", "-p", krate,
        ])
        .current_dir(root)
        .output()
        .map_err(|e| format!("cannot run cargo tree: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "cargo tree -p {krate} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| line.split_whitespace().next().map(str::to_owned))
        .collect())
}
