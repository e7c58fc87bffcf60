//! `cargo xtask tidy`: the rules that keep the tree readable, checked on the
//! real dependency graph and the real source text.
//!
//! - Layering: `mcp-core` and `mcp-openapi` never pull in rmcp (nor
//!   `mcp-core` tokio) through their normal dependencies.
//! - No module cycles: the file-level graph of `crate::`/`super::` paths of
//!   every crate is acyclic ([`modules`]), and so is the graph of its
//!   folders: no two folders of one crate use each other ([`folders`]).
//! - Small files: no source file is over 500 lines outside its tests
//!   ([`sizes`]).
//! - Causes printed once: no `thiserror` variant both formats its cause in
//!   its message and returns it from `source()` ([`errors`]).
//! - Placement: `rmcp` is named only under `mcp-server/src/protocol/` and
//!   `mcp-server/src/transport/`, the network crates only under
//!   `mcp-openapi/src/call/`, and `reqwest`/`jsonwebtoken` in `mcp-server`
//!   only under `src/transport/http/auth/` ([`placement`]).
//! - Self-contained: no tracked file names a relative path that leaves the
//!   repository ([`paths`]).
//! - No process notes in code, manifests or docs: no tracker references
//!   by number ([`breadcrumbs`]).

mod breadcrumbs;
mod errors;
mod folders;
mod lexer;
mod modules;
mod paths;
mod placement;
mod sizes;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Crates whose normal dependency tree must not contain the forbidden ones.
const LAYERS: &[(&str, &[&str])] = &[
    ("mcp-toolkit-core", &["rmcp", "tokio"]),
    ("mcp-toolkit-macros", &["rmcp", "tokio", "mcp-toolkit-core"]),
    ("mcp-toolkit-openapi", &["rmcp"]),
];

/// The workspace's crate folders whose modules are checked for cycles.
const CRATES: &[&str] = &[
    "mcp-core",
    "mcp-macros",
    "mcp-openapi",
    "mcp-server",
    "cli",
    "examples",
    "testdata",
    "xtask",
];

/// Runs every check; fails naming every breach.
pub(crate) fn check(root: &Path) -> Result<(), String> {
    let mut breaches = layering(root)?;
    breaches.extend(module_cycles(root)?);
    for rule in placement::RULES {
        breaches.extend(placement::breaches(root, rule)?);
    }
    breaches.extend(sources(root)?);
    breaches.extend(tracked_text(root)?);
    if breaches.is_empty() {
        eprintln!(
            "xtask tidy: layering, module and folder cycles, file sizes, error causes, crate placement, repository paths and notes all hold"
        );
        Ok(())
    } else {
        Err(format!(
            "{} problem(s):\n  {}",
            breaches.len(),
            breaches.join("\n  ")
        ))
    }
}

fn layering(root: &Path) -> Result<Vec<String>, String> {
    let mut broken = Vec::new();
    for (krate, forbidden) in LAYERS {
        let tree = normal_dependencies(root, krate)?;
        for dependency in *forbidden {
            if tree.iter().any(|line| line == dependency) {
                broken.push(format!("layering: `{krate}` depends on `{dependency}`"));
            }
        }
    }
    Ok(broken)
}

fn module_cycles(root: &Path) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for krate in CRATES {
        for crate_root in crate_roots(&root.join(krate).join("src"))? {
            let tree = match modules::ModuleTree::read(&crate_root) {
                Ok(tree) => tree,
                Err(message) => {
                    out.push(format!("module tree: {message}"));
                    continue;
                }
            };
            let edges = tree.edges();
            for cycle in folders::folder_cycles(&edges) {
                let steps: Vec<String> = cycle
                    .iter()
                    .map(|edge| {
                        format!(
                            "{} -> {} ({})",
                            edge.from.display(),
                            edge.to.display(),
                            relative_via(root, &edge.via)
                        )
                    })
                    .collect();
                out.push(format!(
                    "folder cycle in {}: {}",
                    relative(root, &crate_root),
                    steps.join(", ")
                ));
            }
            for cycle in modules::cycles(&edges) {
                let steps: Vec<String> = cycle
                    .iter()
                    .map(|edge| {
                        format!(
                            "{} -> {} (`{}`)",
                            relative(root, &edge.from),
                            relative(root, &edge.to),
                            edge.via
                        )
                    })
                    .collect();
                out.push(format!("module cycle: {}", steps.join(", ")));
            }
        }
    }
    Ok(out)
}

/// Checks every source file of the crates: its size, and its errors.
fn sources(root: &Path) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for krate in CRATES {
        let src = root.join(krate).join("src");
        for file in rust_files(&src)? {
            let text = fs::read_to_string(&file)
                .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
            let shown = relative(root, &file);
            let inside = file.strip_prefix(&src).unwrap_or(&file);
            let lines = sizes::lines_outside_tests(&text);
            if lines > sizes::MAX_LINES
                && !sizes::is_test_file(inside)
                && !sizes::is_generated(&text)
            {
                out.push(format!(
                    "{shown}: {lines} lines outside its tests, over {} (split it by what its parts do)",
                    sizes::MAX_LINES
                ));
            }
            for twice in errors::printed_twice(&text) {
                out.push(format!(
                    "{shown}: `{}` shows its cause `{}` in its message and returns it from source() (keep one)",
                    twice.item, twice.field
                ));
            }
        }
    }
    Ok(out)
}

/// Checks every tracked (or new, not ignored) text file: paths and notes.
fn tracked_text(root: &Path) -> Result<Vec<String>, String> {
    let output = Command::new("git")
        .args(["ls-files", "--cached", "--others", "--exclude-standard"])
        .current_dir(root)
        .output()
        .map_err(|e| format!("cannot run git ls-files: {e}"))?;
    let mut out = Vec::new();
    for file in String::from_utf8_lossy(&output.stdout).lines() {
        let path = root.join(file);
        let Ok(text) = fs::read_to_string(&path) else {
            continue; // gone, or not text
        };
        let base = crate_dir(root, Path::new(file));
        let folder = Path::new(file).parent().unwrap_or(Path::new(""));
        for escaping in paths::escaping_paths(&text, &base) {
            // `#[path]` and `include_str!` read from the file's own folder.
            let from_folder = paths::is_read_from_its_folder(&text, &escaping)
                && paths::escaping_paths(&escaping, folder).is_empty();
            if !from_folder {
                out.push(format!("{file} names `{escaping}`, outside the repository"));
            }
        }
        if !file.ends_with(".snap") {
            for line in breadcrumbs::lines_with_notes(&text) {
                out.push(format!(
                    "{file}:{line}: a process note (say it in the commit message)"
                ));
            }
        }
    }
    Ok(out)
}

/// The folder that relative paths in `file` are read from: its crate's
/// folder (where Cargo runs tests and builds), else its own folder.
fn crate_dir(root: &Path, file: &Path) -> PathBuf {
    let mut dir = file.parent();
    while let Some(candidate) = dir {
        if candidate.as_os_str().is_empty() {
            break;
        }
        if root.join(candidate).join("Cargo.toml").is_file() {
            return candidate.to_path_buf();
        }
        dir = candidate.parent();
    }
    file.parent().map(Path::to_path_buf).unwrap_or_default()
}

/// `src/lib.rs`, `src/main.rs`, `src/bin/*.rs` and `src/bin/*/main.rs`.
fn crate_roots(src: &Path) -> Result<Vec<PathBuf>, String> {
    let mut roots: Vec<PathBuf> = ["lib.rs", "main.rs"]
        .iter()
        .map(|name| src.join(name))
        .filter(|path| path.is_file())
        .collect();
    if let Ok(entries) = fs::read_dir(src.join("bin")) {
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "rs") {
                roots.push(path);
            } else if path.join("main.rs").is_file() {
                roots.push(path.join("main.rs"));
            }
        }
    }
    roots.sort();
    Ok(roots)
}

/// Every `.rs` file under `dir`.
pub(crate) fn rust_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries =
            fs::read_dir(&dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

/// `via` with the workspace root taken out of the paths it names.
fn relative_via(root: &Path, via: &str) -> String {
    via.replace(&format!("{}/", root.display()), "")
}

fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
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
