//! One document served in one mode by the `mcp-server` binary over stdio,
//! and what came of it.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How a document is served.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    Plain,
    Discovery,
    Code,
}

impl Mode {
    pub(super) const ALL: [Mode; 3] = [Mode::Plain, Mode::Discovery, Mode::Code];

    pub(super) fn name(self) -> &'static str {
        match self {
            Mode::Plain => "plain",
            Mode::Discovery => "discovery",
            Mode::Code => "code mode",
        }
    }

    fn flag(self) -> Option<&'static str> {
        match self {
            Mode::Plain => None,
            Mode::Discovery => Some("--discovery"),
            Mode::Code => Some("--code-mode"),
        }
    }
}

/// What came of serving one document in one mode.
#[derive(Debug)]
pub(super) enum Outcome {
    /// Every request was answered; `tools` were listed on the first page.
    Answered { tools: usize },
    /// The server refused the document with a clear error and exited.
    Refused(String),
    /// The server died: a signal, a panic, or an answer missing.
    Crashed(String),
    /// An answer did not come in time (the server was killed).
    TimedOut,
}

/// The requests of one session, by id; the last is left out in plain mode.
fn requests(mode: Mode) -> Vec<Value> {
    let mut requests = vec![
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "xtask-directory", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
    ];
    if mode != Mode::Plain {
        requests.push(
            json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "search_tools",
            "arguments": {"query": "list all items", "detail": true}}}),
        );
    }
    requests
}

/// Serves `document` in `mode` with `binary` until every request is
/// answered, the server exits, or `timeout` passes.
pub(super) fn serve(binary: &Path, document: &Path, mode: Mode, timeout: Duration) -> Outcome {
    let mut command = Command::new(binary);
    command
        .arg("serve")
        .arg("--openapi")
        .arg(document)
        .args(mode.flag())
        .env("RUST_LOG", "error")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(error) => return Outcome::Crashed(format!("cannot start: {error}")),
    };
    let requests = requests(mode);
    let expected = requests.iter().filter(|r| r.get("id").is_some()).count();
    // A few hundred bytes: the pipe takes them whatever the server does.
    // Its input stays open until the answers are in, since the server ends
    // its session when its input ends.
    let mut stdin = child.stdin.take();
    if let Some(stdin) = stdin.as_mut() {
        for request in &requests {
            let _ = writeln!(stdin, "{request}");
        }
        let _ = stdin.flush();
    }
    let answers = answers(&mut child);
    let stderr = stderr_of(&mut child);
    let deadline = Instant::now() + timeout;
    let mut tools = 0;
    let mut answered = 0;
    while answered < expected {
        let left = deadline.saturating_duration_since(Instant::now());
        match answers.recv_timeout(left) {
            Ok(answer) => {
                if answer["id"] == 2 {
                    tools = answer["result"]["tools"].as_array().map_or(0, Vec::len);
                }
                answered += 1;
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let _ = child.kill();
                let _ = child.wait();
                return Outcome::TimedOut;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    drop(stdin);
    let _ = child.kill();
    let status = child.wait();
    if answered == expected {
        return Outcome::Answered { tools };
    }
    let said = stderr
        .recv_timeout(Duration::from_secs(5))
        .unwrap_or_default();
    let last = said
        .lines()
        .rev()
        .find(|line| !line.trim().is_empty())
        .unwrap_or_default()
        .to_owned();
    match status {
        Ok(status) if status.code().is_some_and(|code| code != 0 && code != 101) => {
            Outcome::Refused(last)
        }
        Ok(status) => Outcome::Crashed(format!("{status}: {last}")),
        Err(error) => Outcome::Crashed(error.to_string()),
    }
}

/// The answers (messages with an `id`) the server writes, as they come.
fn answers(child: &mut Child) -> mpsc::Receiver<Value> {
    let (send, receive) = mpsc::channel();
    if let Some(stdout) = child.stdout.take() {
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else {
                    return;
                };
                if let Ok(message) = serde_json::from_str::<Value>(&line)
                    && message.get("id").is_some()
                    && send.send(message).is_err()
                {
                    return;
                }
            }
        });
    }
    receive
}

/// All the server writes to stderr, once it has closed it.
fn stderr_of(child: &mut Child) -> mpsc::Receiver<String> {
    let (send, receive) = mpsc::channel();
    if let Some(mut stderr) = child.stderr.take() {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            let _ = send.send(text);
        });
    }
    receive
}
