//! Discovery and code mode as a model's client meets them: `mcp-server
//! serve --openapi FILE --discovery` (or `--code-mode`) over stdio, from
//! start to the answer of one `search_tools` call (after `initialize`,
//! `notifications/initialized` and `tools/list`), with the server's peak
//! RSS then, against the parse floor of the same document started in
//! alternation with the two servers.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{SERVER, floor, median, peak_rss_kib};

/// The `search_tools` query of every document: each big document has tools
/// about users (or at least tools to rank for it).
const QUERY: &str = "list users";

/// A mode the server hides its tools behind.
#[derive(Clone, Copy, Debug)]
enum Mode {
    Discovery,
    Code,
}

impl Mode {
    fn flag(self) -> &'static str {
        match self {
            Mode::Discovery => "--discovery",
            Mode::Code => "--code-mode",
        }
    }
}

/// One server's session, from start to the `search_tools` answer.
#[derive(Debug)]
struct Session {
    time: Duration,
    peak_rss_kib: Option<u64>,
    /// The tools generated from the document, as its start-up log says.
    tools: Option<u64>,
}

/// The floor, discovery and code mode on `path`, `rounds` times each, the
/// floor run before each server; medians, as one JSON line.
pub(super) fn measure(path: &Path, rounds: usize) -> Value {
    let file = path.display().to_string();
    let run = || -> Result<Value, String> {
        let (mut floors, mut floor_rss) = (Vec::new(), Vec::new());
        let mut discovery = Vec::new();
        let mut code = Vec::new();
        for _ in 0..rounds.max(1) {
            for (mode, sessions) in [(Mode::Discovery, &mut discovery), (Mode::Code, &mut code)] {
                let (time, rss) = floor(path)?;
                floors.push(time);
                floor_rss.extend(rss);
                sessions.push(session(path, mode)?);
            }
        }
        let tools = discovery.iter().chain(&code).find_map(|s| s.tools);
        let mut line = json!({
            "kind": "modes",
            "file": file,
            "query": QUERY,
            "rounds": rounds.max(1),
            "tools": tools,
            "floor_ns": median(floors).as_nanos() as u64,
            "floor_peak_rss_kib": median_of(floor_rss),
        });
        for (name, sessions) in [("discovery", discovery), ("code_mode", code)] {
            let rss: Vec<u64> = sessions.iter().filter_map(|s| s.peak_rss_kib).collect();
            let times = sessions.iter().map(|s| s.time).collect();
            line[format!("{name}_ns")] = json!(median(times).as_nanos() as u64);
            line[format!("{name}_peak_rss_kib")] = json!(median_of(rss));
        }
        Ok(line)
    };
    run().unwrap_or_else(|error| json!({"kind": "modes", "file": file, "error": error}))
}

fn median_of(mut values: Vec<u64>) -> Option<u64> {
    values.sort_unstable();
    values.get(values.len() / 2).copied()
}

/// Serves `path` in `mode` until its `search_tools` answer, then stops it.
fn session(path: &Path, mode: Mode) -> Result<Session, String> {
    let start = Instant::now();
    let mut child = Command::new(SERVER)
        .arg("serve")
        .arg("--openapi")
        .arg(path)
        .arg(mode.flag())
        // What a user sees by default, without colours: the start-up line
        // that counts the tools generated.
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {SERVER}: {e}"))?;
    let log = drained(&mut child);
    let talk = talk(&mut child, start);
    // The server is ours: stop it whatever happened.
    let _ = child.kill();
    let _ = child.wait();
    let log = log
        .and_then(|reader| reader.join().ok())
        .unwrap_or_default();
    let (time, peak_rss_kib) = talk.map_err(|error| {
        let last = log.lines().rev().find(|l| !l.trim().is_empty());
        format!(
            "{mode:?} on {}: {error} ({})",
            path.display(),
            last.unwrap_or("no log")
        )
    })?;
    Ok(Session {
        time,
        peak_rss_kib,
        tools: tools_generated(&log),
    })
}

/// All the server writes to stderr, read as it comes (so it never blocks
/// on a full pipe).
fn drained(child: &mut Child) -> Option<JoinHandle<String>> {
    let mut stderr = child.stderr.take()?;
    Some(std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    }))
}

/// The client's side of the session: each request sent once the answer
/// before it came; the time from `start` to the `search_tools` answer, and
/// the server's peak RSS then (read while its input is open: a server
/// that saw it close may be gone).
fn talk(child: &mut Child, start: Instant) -> Result<(Duration, Option<u64>), String> {
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let mut lines = BufReader::new(stdout);
    send(
        &mut stdin,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "bench", "version": "0"}}}),
    )?;
    answer(&mut lines, 1, "initialize")?;
    send(
        &mut stdin,
        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )?;
    send(
        &mut stdin,
        &json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
    )?;
    let list = answer(&mut lines, 2, "tools/list")?;
    let tools = list["tools"].as_array();
    if !tools.is_some_and(|tools| tools.iter().any(|tool| tool["name"] == "search_tools")) {
        return Err("tools/list has no `search_tools`".to_owned());
    }
    send(
        &mut stdin,
        &json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "search_tools", "arguments": {"query": QUERY}}}),
    )?;
    let found = answer(&mut lines, 3, "search_tools")?;
    let elapsed = start.elapsed();
    if found["isError"] == true || found["content"].as_array().is_none_or(Vec::is_empty) {
        return Err(format!("search_tools failed: {found}"));
    }
    let rss = peak_rss_kib(child.id());
    drop(stdin);
    Ok((elapsed, rss))
}

fn send(stdin: &mut ChildStdin, message: &Value) -> Result<(), String> {
    writeln!(stdin, "{message}")
        .and_then(|()| stdin.flush())
        .map_err(|e| format!("cannot write to the server: {e}"))
}

/// The result of the answer with `id`, skipping the messages before it.
fn answer(lines: &mut impl BufRead, id: u64, what: &str) -> Result<Value, String> {
    let mut line = String::new();
    loop {
        line.clear();
        let read = lines
            .read_line(&mut line)
            .map_err(|e| format!("cannot read the server's answer to {what}: {e}"))?;
        if read == 0 {
            return Err(format!("the server closed stdout before answering {what}"));
        }
        let Ok(mut message) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        if message["id"] != id {
            continue;
        }
        return match message.get_mut("result") {
            Some(result) => Ok(result.take()),
            None => Err(format!("{what} failed: {}", line.trim())),
        };
    }
}

/// The tools the start-up log line `loaded and generated ... tools=N` counts
/// (the smoke test checks it is found).
fn tools_generated(log: &str) -> Option<u64> {
    let line = log.lines().find(|l| l.contains("loaded and generated"))?;
    line.split_whitespace()
        .find_map(|field| field.strip_prefix("tools="))?
        .parse()
        .ok()
}
