//! Whole-process benchmark: what a user waits for, against a process that
//! only parses the same document with serde_json (the floor), the two
//! started in alternation in the same run.
//!
//! - `tools`: `mcp-server tools --openapi FILE > /dev/null`, start to exit;
//! - `serve`: `mcp-server serve --openapi FILE` over stdio, from start to
//!   the first `tools/list` answer (after `initialize`);
//! - `--modes`: `serve --discovery` and `serve --code-mode` to the answer of
//!   one `search_tools` call, with their peak RSS and the floor's
//!   ([`modes`]).
//!
//! `cargo bench -p mcp-server --bench process -- --bench FILE...` (or
//! `-- --modes FILE...`) prints one JSON line per document (`cargo xtask
//! bench` collects them). This bench runs itself as the floor (`--parse
//! FILE`, which prints its peak RSS in KiB as it ends). Without `--bench` or
//! `--modes` (as `cargo test --benches` runs it) it is a smoke test of both
//! on a small document.

#[path = "process/modes.rs"]
mod modes;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The `mcp-server` binary of this build.
const SERVER: &str = env!("CARGO_BIN_EXE_mcp-server");

/// The floor process: reads and parses `path`, nothing else; then prints
/// its peak RSS in KiB (where `/proc` tells it).
fn parse_only(path: &Path) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let value: Value = serde_json::from_slice(&bytes).map_err(|e| e.to_string())?;
    std::hint::black_box(value);
    if let Some(kib) = peak_rss_kib(std::process::id()) {
        println!("{kib}");
    }
    Ok(())
}

/// Runs `command` to its end, stdout to /dev/null; the time it took.
fn timed(command: &mut Command) -> Result<Duration, String> {
    let start = Instant::now();
    let status = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("cannot start {command:?}: {e}"))?;
    let elapsed = start.elapsed();
    if !status.success() {
        return Err(format!("{command:?} failed: {status}"));
    }
    Ok(elapsed)
}

/// The floor process run on `path`: the time it took, and the peak RSS in
/// KiB it printed.
fn floor(path: &Path) -> Result<(Duration, Option<u64>), String> {
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let start = Instant::now();
    let output = Command::new(me)
        .arg("--parse")
        .arg(path)
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("cannot start the parse floor: {e}"))?;
    let elapsed = start.elapsed();
    if !output.status.success() {
        return Err(format!(
            "the parse floor failed on {}: {}",
            path.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let rss = String::from_utf8_lossy(&output.stdout).trim().parse().ok();
    Ok((elapsed, rss))
}

fn tools(path: &Path) -> Result<Duration, String> {
    timed(Command::new(SERVER).arg("tools").arg("--openapi").arg(path))
}

/// From start to the first `tools/list` answer of `serve` over stdio; the
/// time, the answer's size in bytes and the server's peak RSS in KiB then.
fn first_list(path: &Path) -> Result<(Duration, usize, Option<u64>), String> {
    let start = Instant::now();
    let mut child = Command::new(SERVER)
        .arg("serve")
        .arg("--openapi")
        .arg(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {SERVER}: {e}"))?;
    let result = (|| {
        let mut stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let mut lines = BufReader::new(stdout);
        let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "bench", "version": "0"}}});
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
        let send = |stdin: &mut std::process::ChildStdin, message: &Value| {
            writeln!(stdin, "{message}").and_then(|()| stdin.flush())
        };
        send(&mut stdin, &initialize).map_err(|e| e.to_string())?;
        let mut line = String::new();
        lines.read_line(&mut line).map_err(|e| e.to_string())?;
        send(&mut stdin, &initialized).map_err(|e| e.to_string())?;
        send(&mut stdin, &list).map_err(|e| e.to_string())?;
        loop {
            line.clear();
            if lines.read_line(&mut line).map_err(|e| e.to_string())? == 0 {
                return Err("the server closed stdout before answering tools/list".to_owned());
            }
            if line.contains(r#""id":2"#) {
                break;
            }
        }
        let elapsed = start.elapsed();
        if !line.contains(r#""tools":"#) {
            return Err(format!("tools/list failed: {}", line.trim()));
        }
        let rss = peak_rss_kib(child.id());
        drop(stdin);
        Ok((elapsed, line.len(), rss))
    })();
    // The server is ours: stop it whatever happened.
    let _ = child.kill();
    let _ = child.wait();
    result
}

fn peak_rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times.get(times.len() / 2).copied().unwrap_or_default()
}

/// Floor, `tools` and `serve` in alternation, `rounds` times each; medians.
fn measure(path: &Path, rounds: usize) -> Value {
    let file = path.display().to_string();
    let run = || -> Result<Value, String> {
        let (mut floors, mut tool_runs, mut serves) = (Vec::new(), Vec::new(), Vec::new());
        let (mut list_bytes, mut serve_rss) = (0, None);
        for _ in 0..rounds.max(1) {
            floors.push(floor(path)?.0);
            tool_runs.push(tools(path)?);
            let (time, bytes, rss) = first_list(path)?;
            serves.push(time);
            list_bytes = bytes;
            serve_rss = rss.max(serve_rss);
        }
        Ok(json!({
            "file": file,
            "floor_ns": median(floors).as_nanos() as u64,
            "tools_ns": median(tool_runs).as_nanos() as u64,
            "serve_first_list_ns": median(serves).as_nanos() as u64,
            "first_list_bytes": list_bytes,
            "serve_peak_rss_kib": serve_rss,
        }))
    };
    run().unwrap_or_else(|error| json!({"file": file, "error": error}))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, path] = args.as_slice()
        && flag == "--parse"
    {
        if let Err(error) = parse_only(Path::new(path)) {
            eprintln!("{error}");
            std::process::exit(1);
        }
        return;
    }
    let files: Vec<PathBuf> = args
        .iter()
        .filter(|a| !a.starts_with("--"))
        .map(PathBuf::from)
        .collect();
    let rounds = |default| {
        std::env::var("BENCH_ROUNDS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    // Before `--bench`: `cargo bench` adds that flag to every run.
    if args.iter().any(|a| a == "--modes") {
        // The big documents take seconds a session.
        let rounds = rounds(3);
        for file in &files {
            println!("{}", modes::measure(file, rounds));
        }
        return;
    }
    if args.iter().any(|a| a == "--bench") {
        let rounds = rounds(7);
        for file in &files {
            println!("{}", measure(file, rounds));
        }
        return;
    }
    // Smoke mode: every step runs once on a small document; failures fail.
    let petstore = testdata::openapi("petstore-swagger2.json");
    let line = measure(&petstore, 1);
    assert!(line.get("error").is_none(), "{line}");
    assert!(line["first_list_bytes"].as_u64().unwrap_or(0) > 0, "{line}");
    let line = modes::measure(&petstore, 1);
    assert!(line.get("error").is_none(), "{line}");
    assert!(line["tools"].as_u64().unwrap_or(0) > 0, "{line}");
    let mut measured = vec!["floor_ns", "discovery_ns", "code_mode_ns"];
    if cfg!(target_os = "linux") {
        measured.extend([
            "floor_peak_rss_kib",
            "discovery_peak_rss_kib",
            "code_mode_peak_rss_kib",
        ]);
    }
    for key in measured {
        assert!(line[key].as_u64().unwrap_or(0) > 0, "{key}: {line}");
    }
}
