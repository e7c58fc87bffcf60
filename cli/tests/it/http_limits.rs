//! Streamable HTTP under abuse: the live-session cap, idle expiry and
//! `DELETE` (404 afterwards), requests in flight per session, malformed
//! bodies, and the memory of a server flooded with abandoned sessions.

use std::process::{Command, Stdio};
use std::time::Duration;

use mcp_server::{HttpConfig, Server};
use serde_json::{Value, json};

use crate::support::http::{Running, ServerProcess, serve_http};

async fn start(config: HttpConfig) -> Running {
    serve_http(crate::tool_execution::server(), config).await
}

/// A POST with the headers MCP requires; `session` when given.
fn post(http: &reqwest::Client, url: &str, session: Option<&str>) -> reqwest::RequestBuilder {
    let request = http
        .post(url)
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json");
    match session {
        Some(session) => request
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", "2025-11-25"),
        None => request,
    }
}

fn initialize(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}})
}

/// Initializes a session and returns its id.
async fn open_session(http: &reqwest::Client, url: &str) -> String {
    let reply = post(http, url, None)
        .json(&initialize(1))
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 200);
    let session = reply.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let _ = reply.bytes().await;
    let initialized = post(http, url, Some(&session))
        .json(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .send()
        .await
        .unwrap();
    assert_eq!(initialized.status(), 202);
    session
}

/// The status of a `ping` in `session`.
async fn ping(http: &reqwest::Client, url: &str, session: &str) -> u16 {
    let reply = post(http, url, Some(session))
        .json(&json!({"jsonrpc": "2.0", "id": 9, "method": "ping"}))
        .send()
        .await
        .unwrap();
    let status = reply.status().as_u16();
    let _ = reply.bytes().await;
    status
}

/// Opens the standalone SSE stream of `session`, which keeps it busy.
async fn open_stream(http: &reqwest::Client, url: &str, session: &str) -> reqwest::Response {
    let stream = http
        .get(url)
        .header("accept", "text/event-stream")
        .header("mcp-session-id", session)
        .header("mcp-protocol-version", "2025-11-25")
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status(), 200);
    stream
}

/// At the cap an idle session gives way (see `session_flood`); only busy
/// ones, here each with its stream open, make an `initialize` wait.
#[tokio::test]
async fn sessions_beyond_the_cap_are_refused_with_503_and_a_jsonrpc_error() {
    let running = start(HttpConfig::new().max_sessions(2)).await;
    let http = reqwest::Client::new();
    let first = open_session(&http, &running.url).await;
    let second = open_session(&http, &running.url).await;
    let _first_stream = open_stream(&http, &running.url, &first).await;
    let _second_stream = open_stream(&http, &running.url, &second).await;
    let refused = post(&http, &running.url, None)
        .json(&initialize(7))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 503);
    assert!(refused.headers().get("retry-after").is_some());
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["id"], 7, "{body}");
    assert_eq!(body["error"]["code"], -32000, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("2 live sessions"),
        "{body}"
    );
    // Ending a session with DELETE makes room, and its id answers 404.
    let ended = http
        .delete(&running.url)
        .header("mcp-session-id", &first)
        .header("mcp-protocol-version", "2025-11-25")
        .send()
        .await
        .unwrap();
    assert_eq!(ended.status(), 204);
    assert_eq!(ping(&http, &running.url, &first).await, 404);
    open_session(&http, &running.url).await;
}

#[tokio::test]
async fn idle_sessions_expire_and_then_answer_404() {
    let running = start(HttpConfig::new().session_idle_timeout(Duration::from_millis(300))).await;
    let http = reqwest::Client::new();
    let session = open_session(&http, &running.url).await;
    assert_eq!(ping(&http, &running.url, &session).await, 200);
    // Each ping keeps the session alive, so wait ever longer between them
    // until one finds it expired; nothing asserts when that happens.
    let mut status = 200;
    for step in 1..=40 {
        tokio::time::sleep(Duration::from_millis(100 * step)).await;
        status = ping(&http, &running.url, &session).await;
        if status != 200 {
            break;
        }
    }
    assert_eq!(status, 404, "the idle session never expired");
    // The client initializes again and is served.
    let again = open_session(&http, &running.url).await;
    assert_eq!(ping(&http, &running.url, &again).await, 200);
}

#[tokio::test]
async fn requests_beyond_the_per_session_limit_get_429_with_their_id() {
    let (release, released) = tokio::sync::watch::channel(false);
    let wait: mcp_core::ToolDef = mcp_core::tool("wait")
        .run(move || {
            let mut released = released.clone();
            async move {
                let _ = released.wait_for(|released| *released).await;
                "released"
            }
        })
        .unwrap();
    let server = Server::builder().tool(wait).build().unwrap();
    let running = serve_http(server, HttpConfig::new().max_pending_requests(1)).await;
    let http = reqwest::Client::new();
    let session = open_session(&http, &running.url).await;
    let call = |id: u64| {
        post(&http, &running.url, Some(&session))
            .json(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                "params": {"name": "wait", "arguments": {}}}))
            .send()
    };
    let first = call(1).await.unwrap();
    assert_eq!(first.status(), 200);
    let second = call(2).await.unwrap();
    assert_eq!(second.status(), 429);
    let body: Value = second.json().await.unwrap();
    assert_eq!(body["id"], 2, "{body}");
    assert_eq!(body["error"]["code"], -32000, "{body}");
    // At the cap, a notification (cancelling the call, say) still passes.
    let cancel = post(&http, &running.url, Some(&session))
        .json(
            &json!({"jsonrpc": "2.0", "method": "notifications/progress",
            "params": {"progressToken": "t", "progress": 1}}),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(cancel.status(), 202);
    release.send_replace(true);
    let text = first.text().await.unwrap();
    assert!(text.contains("released"), "{text}");
    // The finished call no longer counts.
    let third = call(3).await.unwrap();
    assert_eq!(third.status(), 200);
    assert!(third.text().await.unwrap().contains("released"));
}

#[tokio::test]
async fn malformed_bodies_get_the_jsonrpc_errors_the_specification_names() {
    let running = start(HttpConfig::new()).await;
    let http = reqwest::Client::new();
    let session = open_session(&http, &running.url).await;
    for session in [None, Some(session.as_str())] {
        let not_json = post(&http, &running.url, session)
            .body("{not json")
            .send()
            .await
            .unwrap();
        assert_eq!(not_json.status(), 400, "session {session:?}");
        let body: Value = not_json.json().await.unwrap();
        assert_eq!(body["error"]["code"], -32700, "{body}");
        assert_eq!(body["id"], Value::Null, "{body}");
        assert!(
            body["error"]["message"]
                .as_str()
                .unwrap()
                .contains("line 1"),
            "{body}"
        );
        let not_jsonrpc = post(&http, &running.url, session)
            .body(r#"{"id": 4, "hello": "world"}"#)
            .send()
            .await
            .unwrap();
        assert_eq!(not_jsonrpc.status(), 400, "session {session:?}");
        let body: Value = not_jsonrpc.json().await.unwrap();
        assert_eq!(body["error"]["code"], -32600, "{body}");
        assert_eq!(body["id"], 4, "{body}");
    }
}

/// The demo server as a child process, killed on drop.
struct Demo(ServerProcess);

impl Demo {
    fn start(args: &[&str]) -> Self {
        let child = Command::new(env!("CARGO_BIN_EXE_mcp-server"))
            .args(["demo", "--bind", "127.0.0.1:0"])
            .args(args)
            .env("RUST_LOG", "off")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the demo starts");
        Demo(ServerProcess::new(child))
    }

    /// The resident set size, in KiB, from `/proc`.
    fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.0.child.id()))
            .expect("/proc is readable");
        status
            .lines()
            .find_map(|line| line.strip_prefix("VmRSS:"))
            .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("a VmRSS line")
    }
}

/// Opens `count` sessions, 32 at a time, and never uses them; returns how
/// many were accepted and how many refused with 503.
async fn flood(url: &str, count: u64) -> (u64, u64) {
    let http = reqwest::Client::new();
    let mut accepted = 0;
    let mut refused = 0;
    for batch in 0..count.div_ceil(32) {
        let replies = (batch * 32..count.min(batch * 32 + 32))
            .map(|i| post(&http, url, None).json(&initialize(i)).send());
        for reply in futures_util::future::join_all(replies).await {
            let reply = reply.expect("the server answers");
            match reply.status().as_u16() {
                200 => accepted += 1,
                503 => refused += 1,
                other => panic!("unexpected status {other}"),
            }
            let _ = reply.bytes().await;
        }
    }
    (accepted, refused)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_abandoned_session_flood_stays_under_a_fixed_memory_bound() {
    let demo = Demo::start(&["--max-sessions", "200"]);
    // Warm up (allocator arenas, first sessions), then measure growth.
    let _ = flood(&demo.0.url, 64).await;
    let before = demo.rss_kib();
    let (accepted, refused) = flood(&demo.0.url, 3000).await;
    let after = demo.rss_kib();
    // At the cap, each new session ends an older one never used.
    assert_eq!(refused, 0);
    assert_eq!(accepted, 3000);
    let grown_kib = after.saturating_sub(before);
    eprintln!("RSS {before} KiB -> {after} KiB after 3000 session attempts (cap 200)");
    assert!(
        grown_kib < 32 * 1024,
        "RSS grew by {grown_kib} KiB ({before} -> {after})"
    );
}

#[tokio::test]
async fn tasks_beyond_the_per_session_limit_are_a_jsonrpc_error() {
    let running = start(HttpConfig::new().max_tasks_per_session(1)).await;
    let http = reqwest::Client::new();
    let session = open_session(&http, &running.url).await;
    let create = |id: u64| {
        post(&http, &running.url, Some(&session))
            .json(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                "params": {"name": "wants_tasks", "arguments": {}, "task": {"ttl": 60000}}}))
            .send()
    };
    let first = create(1).await.unwrap().text().await.unwrap();
    assert!(first.contains("taskId"), "{first}");
    let second = create(2).await.unwrap().text().await.unwrap();
    assert!(second.contains("-32000"), "{second}");
    assert!(second.contains("keeps 1 tasks"), "{second}");
    // Another session has its own allowance.
    let other = open_session(&http, &running.url).await;
    let third = post(&http, &running.url, Some(&other))
        .json(&json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
            "params": {"name": "wants_tasks", "arguments": {}, "task": {"ttl": 60000}}}))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(third.contains("taskId"), "{third}");
}

#[tokio::test]
async fn the_body_limit_holds_whatever_the_spelling_of_the_content_type() {
    let running = start(HttpConfig::new().max_body_bytes(1024)).await;
    let mut big = initialize(1);
    big["params"]["clientInfo"]["name"] = json!("x".repeat(4096));
    let reply = reqwest::Client::new()
        .post(&running.url)
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "Application/JSON")
        .body(big.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 413);
}
