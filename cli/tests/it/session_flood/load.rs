//! The flood against the release binary, run by `cargo xtask load`: one
//! client opens 20,000 sessions it never uses against `mcp-server demo`
//! (the default 1,000-session cap) and the server's memory and a fresh
//! client's first requests are measured; then, against a new server, the
//! same flood while 50 clients call tools, whose errors are counted.
//!
//! `MCP_FLOOD_BINARY` names the binary (default `target/release/mcp-server`),
//! `MCP_FLOOD_SESSIONS` the flood (20,000), `MCP_FLOOD_WORKERS` the working
//! clients (50); the tables go to stdout and to `MCP_FLOOD_REPORT` if set.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use super::client::{Session, flood, percentile, rss_kib};
use crate::support::http::ServerProcess;

/// The binary under test.
pub(crate) fn binary() -> PathBuf {
    let path = std::env::var_os("MCP_FLOOD_BINARY").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/release/mcp-server"),
        PathBuf::from,
    );
    assert!(
        path.is_file(),
        "no binary at {}: run `cargo build --release -p mcp-server`, or set MCP_FLOOD_BINARY",
        path.display()
    );
    path
}

/// `mcp-server demo` on a free loopback port, its log in `log`.
pub(crate) fn demo(log: &std::path::Path, args: &[&str]) -> ServerProcess {
    let log = std::fs::File::create(log).expect("the log file");
    let child = Command::new(binary())
        .args(["demo", "--bind", "127.0.0.1:0"])
        .args(args)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(log)
        .spawn()
        .expect("the demo starts");
    ServerProcess::new(child)
}

/// A setting from the environment.
pub(crate) fn setting(variable: &str, default: u64) -> u64 {
    std::env::var(variable)
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(default)
}

fn mib(kib: Option<u64>) -> String {
    kib.map_or_else(
        || "?".to_owned(),
        |kib| format!("{:.0}", kib as f64 / 1024.0),
    )
}

/// The peak resident set size of process `pid` in KiB.
fn peak_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
}

/// A fresh client's `initialize` (with `notifications/initialized`) and
/// `tools/list` on a new connection, timed (not the making of the HTTP
/// client, whose TLS set-up takes longer than the requests).
async fn fresh_client(url: &str) -> Duration {
    let http = reqwest::Client::new();
    let started = Instant::now();
    let mut session = Session::open(http, url)
        .await
        .expect("a fresh client is admitted");
    let tools = session
        .request("tools/list", json!({}))
        .await
        .expect("a fresh client lists the tools");
    let took = started.elapsed();
    assert!(
        tools["tools"]
            .as_array()
            .is_some_and(|tools| !tools.is_empty())
    );
    assert_eq!(session.reinitialized, 0);
    took
}

/// The lines of the server's log that report ended sessions.
fn eviction_lines(log: &std::path::Path) -> usize {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter(|line| line.contains("ended idle sessions") || line.contains("never used after"))
        .count()
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "a flood of the release binary of about a minute: `cargo xtask load`"]
async fn flood_of_the_release_binary() {
    let sessions = setting("MCP_FLOOD_SESSIONS", 20_000);
    let workers = setting("MCP_FLOOD_WORKERS", 50) as usize;
    let dir = tempfile::tempdir().expect("a temporary directory");

    // The flood alone.
    let log = dir.path().join("flood.log");
    let server = demo(&log, &[]);
    let pid = server.child.id();
    let mut unflooded = Vec::new();
    for _ in 0..5 {
        unflooded.push(fresh_client(&server.url).await);
    }
    unflooded.sort();
    let before = rss_kib(pid);
    let flooded = flood(&server.url, sessions, 32).await;
    let after = rss_kib(pid);
    let peak = peak_kib(pid);
    let mut fresh: Vec<Duration> = Vec::new();
    for _ in 0..5 {
        fresh.push(fresh_client(&server.url).await);
    }
    let first_fresh = fresh[0];
    fresh.sort();
    let lines = eviction_lines(&log);
    drop(server);
    assert_eq!(flooded.failed, 0, "{:?}", flooded.first_failure);
    assert_eq!(flooded.refused, 0, "idle sessions should have given way");
    let peak_mib = peak.unwrap_or_default() / 1024;
    assert!(
        peak_mib < 300,
        "the flooded server peaked at {peak_mib} MiB"
    );

    let mut table = String::from(
        "| abandoned sessions | seconds | admitted | refused (503) | RSS before MiB | RSS after MiB | peak RSS MiB | fresh client ms (first / median of 5) | before the flood ms (median of 5) | log lines about ended sessions |\n\
         |---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    table.push_str(&format!(
        "| {sessions} | {:.1} | {} | {} | {} | {} | {} | {:.1} / {:.1} | {:.1} | {lines} |\n",
        flooded.elapsed.as_secs_f64(),
        flooded.accepted,
        flooded.refused,
        mib(before),
        mib(after),
        mib(peak),
        first_fresh.as_secs_f64() * 1000.0,
        percentile(&fresh, 0.5).as_secs_f64() * 1000.0,
        percentile(&unflooded, 0.5).as_secs_f64() * 1000.0,
    ));

    // The flood while clients work.
    let log = dir.path().join("work.log");
    let server = demo(&log, &[]);
    let url = server.url.clone();
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let runs: Vec<_> = (0..workers)
        .map(|worker| {
            let (url, stopped) = (url.clone(), stopped.clone());
            tokio::spawn(work(url, worker as i64 * 1_000_000, stopped))
        })
        .collect();
    // The clients settle in, the flood runs, then they go on a second.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let flooded = flood(&url, sessions, 32).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    stop.send_replace(true);
    let (mut latencies, mut errors, mut reinitialized, mut first_error) = (Vec::new(), 0, 0, None);
    for run in runs {
        let worked = run.await.expect("a working client ends");
        latencies.extend(worked.latencies);
        errors += worked.errors;
        reinitialized += worked.reinitialized;
        if first_error.is_none() {
            first_error = worked.first_error;
        }
    }
    latencies.sort();
    let peak = peak_kib(server.child.id());
    drop(server);
    table.push_str(&format!(
        "\n| abandoned sessions | working clients | their calls | errors | re-initializations (404) | p50 ms | p99 ms | admitted | refused (503) | peak RSS MiB |\n\
         |---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n\
         | {sessions} | {workers} | {} | {errors} | {reinitialized} | {:.1} | {:.1} | {} | {} | {} |\n",
        latencies.len(),
        percentile(&latencies, 0.5).as_secs_f64() * 1000.0,
        percentile(&latencies, 0.99).as_secs_f64() * 1000.0,
        flooded.accepted,
        flooded.refused,
        mib(peak),
    ));
    println!("{table}");
    if let Some(path) = std::env::var_os("MCP_FLOOD_REPORT") {
        std::fs::write(&path, &table).expect("the flood report is written");
    }
    assert_eq!(
        errors, 0,
        "working clients had errors, the first: {first_error:?}"
    );
    assert_eq!(flooded.failed, 0, "{:?}", flooded.first_failure);
}

/// What one working client did.
#[derive(Debug, Default)]
struct Worked {
    latencies: Vec<Duration>,
    errors: usize,
    reinitialized: u64,
    first_error: Option<String>,
}

/// A client calling `add` (and `tools/list` every tenth call) until
/// `stopped`, checking every sum; a session the flood ended is initialized
/// again (not an error).
async fn work(url: String, seed: i64, mut stopped: tokio::sync::watch::Receiver<bool>) -> Worked {
    let mut worked = Worked::default();
    let mut session = match Session::open(reqwest::Client::new(), &url).await {
        Ok(session) => session,
        Err(error) => {
            worked.errors += 1;
            worked.first_error = Some(error);
            return worked;
        }
    };
    let mut a = seed;
    while !*stopped.borrow_and_update() {
        let started = Instant::now();
        let outcome = if a % 10 == 0 {
            session.request("tools/list", json!({})).await.map(drop)
        } else {
            session
                .call_tool("add", json!({"a": a, "b": 1}))
                .await
                .and_then(
                    |result| match result["structuredContent"]["result"].as_i64() {
                        Some(sum) if sum == a + 1 => Ok(()),
                        _ => Err(format!("add({a}, 1) gave {result}")),
                    },
                )
        };
        match outcome {
            Ok(()) => worked.latencies.push(started.elapsed()),
            Err(error) => {
                worked.errors += 1;
                worked.first_error.get_or_insert(error);
            }
        }
        a += 1;
    }
    worked.reinitialized = session.reinitialized;
    worked
}
