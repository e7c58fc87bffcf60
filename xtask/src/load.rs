//! `cargo xtask load`: the bounded load test of `mcp-server` replicas behind
//! nginx (the ignored test `replicas::load::load_through_nginx` of
//! `mcp-server`'s integration tests, so nothing compiles twice), and its
//! table as one section of `BENCHMARKS.md`.

use std::fs;
use std::path::Path;

use crate::{benchmarks_md, cargo, peers};

/// The heading of the section this task writes; `bench` keeps it.
pub(crate) const SECTION: &str = "## Replicas behind nginx: load";

/// Runs the load test (`MCP_LOAD_CLIENTS`, `MCP_LOAD_SECONDS` pass through)
/// and writes its section into `BENCHMARKS.md`.
pub(crate) fn run(root: &Path) -> Result<(), String> {
    let mut envs = peers::install(root)?.env();
    let report = root.join("target/load/table.md");
    if let Some(dir) = report.parent() {
        fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let _ = fs::remove_file(&report);
    envs.push((
        "MCP_LOAD_REPORT".to_owned(),
        report.to_string_lossy().into_owned(),
    ));
    cargo(
        root,
        &[
            "test",
            "-p",
            "mcp-server",
            "--test",
            "it",
            "--",
            "replicas::load::load_through_nginx",
            "--exact",
            "--ignored",
            "--nocapture",
        ],
        &envs,
    )?;
    let table = fs::read_to_string(&report)
        .map_err(|e| format!("the load test wrote no table at {}: {e}", report.display()))?;
    let clients = std::env::var("MCP_LOAD_CLIENTS").unwrap_or_else(|_| "64".to_owned());
    let seconds = std::env::var("MCP_LOAD_SECONDS").unwrap_or_else(|_| "10".to_owned());
    let text = format!(
        "{SECTION}\n\n\
         Made by `cargo xtask load`: debug builds of `mcp-server demo` replicas on loopback behind\n\
         nginx (round-robin, no stickiness; `cli/tests/replicas/nginx.conf`), with the load\n\
         generator on the same 2 cores. {clients} concurrent clients call `add` for {seconds} s per row,\n\
         and every sum is checked. 2026-07-28 clients send self-contained requests to `--stateless`\n\
         replicas; 2025-11-25 clients each hold a session kept in Redis (`--state redis://...`), so\n\
         consecutive calls of one session land on different replicas. Latency is per call, as the\n\
         client sees it through nginx. Replicas, nginx, Redis and the clients share the same 2 cores,\n\
         so three replicas cannot do more work than one here; the rows show what sharing state\n\
         costs and that no call fails.\n\n{table}\n"
    );
    let path = root.join("BENCHMARKS.md");
    let benchmarks = fs::read_to_string(&path).unwrap_or_default();
    let updated = match benchmarks_md::section(&benchmarks, SECTION) {
        Some(old) => benchmarks.replacen(old, &text, 1),
        None => match benchmarks.find("\n## Reproduce\n") {
            Some(at) => format!("{}\n{text}{}", &benchmarks[..at], &benchmarks[at + 1..]),
            None => format!("{benchmarks}\n{text}"),
        },
    };
    fs::write(&path, updated).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    print!("{text}");
    Ok(())
}
