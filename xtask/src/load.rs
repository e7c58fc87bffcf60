//! `cargo xtask load [replicas|flood]`: the bounded load test of
//! `mcp-server` replicas behind nginx (the ignored test
//! `replicas::load::load_through_nginx` of `mcp-server`'s integration
//! tests, so nothing compiles twice) and the session flood of the release
//! binary (the ignored test `session_flood::load::flood_of_the_release_binary`),
//! and their tables as one section of `BENCHMARKS.md`. Both run by default;
//! naming one runs it alone and keeps the other's figures.

use std::fs;
use std::path::Path;

use crate::{benchmarks_md, cargo, peers};

/// The heading of the section this task writes; `bench` keeps it.
pub(crate) const SECTION: &str = "## Replicas behind nginx: load";

/// The heading of the session floods' part of the section.
const FLOODS: &str = "### Session floods";

/// Runs the load test (`MCP_LOAD_CLIENTS`, `MCP_LOAD_SECONDS` pass through)
/// and the flood (`MCP_FLOOD_SESSIONS`, `MCP_FLOOD_WORKERS` pass through),
/// or the one named on the command line, and writes their section into
/// `BENCHMARKS.md`.
pub(crate) fn run(root: &Path) -> Result<(), String> {
    let which = std::env::args().nth(2);
    let (replicas, floods) = match which.as_deref() {
        None => (true, true),
        Some("replicas") => (true, false),
        Some("flood") => (false, true),
        Some(other) => {
            return Err(format!(
                "unknown load run `{other}`; runs: replicas, flood (both by default)"
            ));
        }
    };
    let path = root.join("BENCHMARKS.md");
    let benchmarks = fs::read_to_string(&path).unwrap_or_default();
    let old = benchmarks_md::section(&benchmarks, SECTION).unwrap_or_default();
    let (old_replicas, old_floods) = match old.find(&format!("\n{FLOODS}\n")) {
        Some(at) => (&old[..at + 1], &old[at + 1..]),
        None => (old, ""),
    };
    let replicas_text = if replicas {
        replicas_part(root)?
    } else {
        old_replicas.to_owned()
    };
    let floods_text = if floods {
        floods_part(root)?
    } else {
        old_floods.to_owned()
    };
    let text = format!("{replicas_text}{floods_text}");
    benchmarks_md::write_section(root, SECTION, &text)?;
    print!("{text}");
    Ok(())
}

/// Runs `test` (an ignored test of `mcp-server`'s integration tests) with
/// `envs` plus `{report_variable}` naming a file, and returns what it wrote
/// there.
fn ignored_test(
    root: &Path,
    test: &str,
    report_variable: &str,
    report_name: &str,
    mut envs: Vec<(String, String)>,
) -> Result<String, String> {
    let report = root.join("target/load").join(report_name);
    if let Some(dir) = report.parent() {
        fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let _ = fs::remove_file(&report);
    envs.push((
        report_variable.to_owned(),
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
            test,
            "--exact",
            "--ignored",
            "--nocapture",
        ],
        &envs,
    )?;
    fs::read_to_string(&report)
        .map_err(|e| format!("{test} wrote no table at {}: {e}", report.display()))
}

/// Builds the release binary and returns the variable that names it to the
/// ignored tests.
pub(crate) fn release_binary(root: &Path) -> Result<(String, String), String> {
    cargo(root, &["build", "--release", "-p", "mcp-server"], &[])?;
    Ok((
        "MCP_FLOOD_BINARY".to_owned(),
        root.join("target/release/mcp-server")
            .to_string_lossy()
            .into_owned(),
    ))
}

/// The replicas' load test and its part of the section.
fn replicas_part(root: &Path) -> Result<String, String> {
    let envs = peers::install(root)?.env();
    let table = ignored_test(
        root,
        "replicas::load::load_through_nginx",
        "MCP_LOAD_REPORT",
        "table.md",
        envs,
    )?;
    let clients = std::env::var("MCP_LOAD_CLIENTS").unwrap_or_else(|_| "64".to_owned());
    let seconds = std::env::var("MCP_LOAD_SECONDS").unwrap_or_else(|_| "10".to_owned());
    Ok(format!(
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
    ))
}

/// The session flood of the release binary and its part of the section.
fn floods_part(root: &Path) -> Result<String, String> {
    let envs = vec![release_binary(root)?];
    let tables = ignored_test(
        root,
        "session_flood::load::flood_of_the_release_binary",
        "MCP_FLOOD_REPORT",
        "floods.md",
        envs,
    )?;
    let sessions = std::env::var("MCP_FLOOD_SESSIONS").unwrap_or_else(|_| "20000".to_owned());
    let workers = std::env::var("MCP_FLOOD_WORKERS").unwrap_or_else(|_| "50".to_owned());
    Ok(format!(
        "{FLOODS}\n\n\
         Made by `cargo xtask load` (alone: `cargo xtask load flood`): the release build of\n\
         `mcp-server demo` on loopback with its defaults (at most 1,000 live sessions; at the limit\n\
         a new `initialize` ends the session idle longest, never-used ones first, and that id then\n\
         answers 404; never-used sessions end after 60 s), the load generator in one process on the\n\
         same 2 cores. One HTTP client sends {sessions} `initialize` requests, 32 at a time, reads\n\
         each answer and never uses the session. RSS is read from `/proc` before the flood (after\n\
         five clients), right after it and at its peak (`VmHWM`); a fresh client (a new connection)\n\
         then initializes and lists the tools, five times one after the other, timed as before the\n\
         flood (the debug-built client's own share included; curl makes the same three requests\n\
         in 2 to 7 ms: what matters is that the flood leaves the figure as it was). RSS after the\n\
         flood is the working size of 1,000 live sessions under churn (without churn they take\n\
         about 91 MiB); it does not grow with the flood's length (40,000 and 80,000 sessions: 189\n\
         and 185 MiB in trial runs). The server logs ended sessions at most once a second. Then, against a new server, the same flood while {workers} clients each\n\
         hold a session and call `add` (every tenth request a `tools/list`) from a second before\n\
         to a second after it, checking every sum; a client whose session was ended initializes\n\
         again and repeats the call (counted as a re-initialization, not an error). Before, the\n\
         flood left every new client refused with 503 until the idle timeout (30 minutes) freed\n\
         the 1,000 slots.\n\n{tables}\n"
    ))
}
