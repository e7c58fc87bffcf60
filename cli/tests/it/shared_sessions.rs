//! Sessions shared by two replicas through one real `redis-server`: a
//! session made on one is served by the other (its version, level and
//! subscriptions), SSE streams resume across them, `DELETE` reaches both,
//! and a Redis outage is a clear error that ends when Redis returns.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use futures_util::StreamExt;
use mcp_core::client::{ElicitRequest, LoggingLevel};
use mcp_core::resource::resource;
use mcp_server::store::RedisStore;
use mcp_server::{HttpConfig, Server};
use serde_json::{Value, json};

use crate::support::http::{Running, ServerProcess, serve_http, sse_events};
use crate::support::meta_2026;
use crate::support::redis::TestRedis;

const DOC: &str = "test://doc";

/// Set when a `wait_cancel` call starts, and when its handler is dropped
/// (one test calls it).
static WAIT_CANCEL_STARTED: AtomicBool = AtomicBool::new(false);
static WAIT_CANCEL_ENDED: AtomicBool = AtomicBool::new(false);

/// One replica on a free loopback port; dropping it stops it.
struct Replica {
    url: String,
    server: Server,
    _running: Running,
}

fn server(store: RedisStore) -> Server {
    let log_both: mcp_core::ToolDef = mcp_core::tool("log_both")
        .run(
            |_: mcp_core::JsonObject, cx: mcp_core::ToolCallContext| async move {
                let _ = cx.log(LoggingLevel::Info, "an info line").await;
                let _ = cx.log(LoggingLevel::Warning, "a warning line").await;
                "logged"
            },
        )
        .unwrap();
    let poll_later: mcp_core::ToolDef = mcp_core::tool("poll_later")
        .run(
            |_: mcp_core::JsonObject, cx: mcp_core::ToolCallContext| async move {
                let closed = cx.close_sse_stream(Duration::from_millis(50)).await;
                tokio::time::sleep(Duration::from_millis(200)).await;
                format!("closed: {}", closed.is_ok())
            },
        )
        .unwrap();
    let ask_name: mcp_core::ToolDef = mcp_core::tool("ask_name")
        .run(
            |_: mcp_core::JsonObject, cx: mcp_core::ToolCallContext| async move {
                let schema = json!({"type": "object", "properties": {"name": {"type": "string"}}});
                let request = ElicitRequest::new("Name?", schema).map_err(|e| e.to_string())?;
                let answer = cx.elicit(request).await.map_err(|e| e.to_string())?;
                Ok::<_, String>(format!(
                    "hello {}",
                    Value::Object(answer.content.unwrap_or_default())
                ))
            },
        )
        .unwrap();
    let wait_cancel: mcp_core::ToolDef = mcp_core::tool("wait_cancel")
        .run(|| async {
            /// Marks the call ended when its handler is dropped.
            struct Ended;
            impl Drop for Ended {
                fn drop(&mut self) {
                    WAIT_CANCEL_ENDED.store(true, Ordering::SeqCst);
                }
            }
            let _ended = Ended;
            WAIT_CANCEL_STARTED.store(true, Ordering::SeqCst);
            tokio::time::sleep(Duration::from_secs(60)).await;
            "not cancelled"
        })
        .unwrap();
    let doc = resource(DOC, "doc").read(|| async { "text" }).unwrap();
    Server::builder()
        .tools([log_both, poll_later, ask_name, wait_cancel])
        .resource(doc)
        .store(store)
        .build()
        .unwrap()
}

async fn replica(redis: &TestRedis) -> Replica {
    replica_with(redis, HttpConfig::new()).await
}

async fn replica_with(redis: &TestRedis, config: HttpConfig) -> Replica {
    let store = RedisStore::connect(&redis.url()).await.unwrap();
    let server = server(store);
    let running = serve_http(server.clone(), config).await;
    Replica {
        url: running.url.clone(),
        server,
        _running: running,
    }
}

/// Two replicas sharing a fresh Redis, or `None` (skipped) without one.
async fn two_replicas() -> Option<(TestRedis, Replica, Replica)> {
    let redis = TestRedis::start().await?;
    let a = replica(&redis).await;
    let b = replica(&redis).await;
    Some((redis, a, b))
}

/// A POST of `body` in `session` (if any).
fn post(url: &str, session: Option<&str>, body: &Value) -> reqwest::RequestBuilder {
    let request = reqwest::Client::new()
        .post(url)
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .json(body);
    match session {
        Some(session) => request
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", "2025-11-25"),
        None => request,
    }
}

/// The JSON-RPC messages of a response (JSON or SSE).
async fn messages(response: reqwest::Response) -> Vec<Value> {
    let text = response.text().await.unwrap();
    match serde_json::from_str::<Value>(&text) {
        Ok(message) => vec![message],
        Err(_) => sse_events(&text)
            .into_iter()
            .filter_map(|(_, data)| data)
            .collect(),
    }
}

/// The reply (the message with an id) of a request in `session`.
async fn request(url: &str, session: &str, id: u64, method: &str, params: Value) -> Value {
    let response = post(
        url,
        Some(session),
        &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}),
    )
    .send()
    .await
    .unwrap();
    assert_eq!(response.status(), 200, "{method}");
    messages(response)
        .await
        .into_iter()
        .find(|message| message.get("id").is_some())
        .unwrap_or_else(|| panic!("no reply to {method}"))
}

/// Asserts that every replica of `urls` answers 404 to a ping in `session`.
async fn assert_session_gone(urls: &[&str], session: &str) {
    for url in urls {
        let ping = post(
            url,
            Some(session),
            &json!({"jsonrpc": "2.0", "id": 3, "method": "ping"}),
        )
        .send()
        .await
        .unwrap();
        assert_eq!(ping.status(), 404, "{url}");
    }
}

/// Initializes a 2025-11-25 session on `url` and returns its id.
async fn open_session(url: &str) -> String {
    open_session_with(url, json!({})).await
}

/// Initializes a 2025-11-25 session declaring `capabilities`.
async fn open_session_with(url: &str, capabilities: Value) -> String {
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": capabilities, "clientInfo": {"name": "t", "version": "0"}}});
    let response = post(url, None, &init).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let session = response.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let reply = messages(response).await;
    assert_eq!(reply[0]["result"]["protocolVersion"], "2025-11-25");
    let initialized = post(
        url,
        Some(&session),
        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )
    .send()
    .await
    .unwrap();
    assert_eq!(initialized.status(), 202);
    session
}

/// A `GET` stream in `session`, resumed after `last_event_id` if given.
async fn listen(url: &str, session: &str, last_event_id: Option<&str>) -> reqwest::Response {
    let mut request = reqwest::Client::new()
        .get(url)
        .header("accept", "text/event-stream")
        .header("mcp-session-id", session)
        .header("mcp-protocol-version", "2025-11-25");
    if let Some(id) = last_event_id {
        request = request.header("last-event-id", id);
    }
    let response = request.send().await.unwrap();
    assert_eq!(response.status(), 200);
    response
}

/// Reads `stream` until its text contains `wanted` (10 s at most).
async fn read_until(stream: reqwest::Response, wanted: &str) -> String {
    let mut body = stream.bytes_stream();
    let mut seen = String::new();
    while let Ok(Some(Ok(chunk))) = tokio::time::timeout(Duration::from_secs(10), body.next()).await
    {
        seen.push_str(&String::from_utf8_lossy(&chunk));
        if seen.contains(wanted) {
            return seen;
        }
    }
    panic!("`{wanted}` never came: {seen}");
}

/// A `tools/call` of `name` (no arguments) in `session`, as sent.
async fn call_tool(url: &str, session: &str, id: u64, name: &str) -> reqwest::Response {
    post(
        url,
        Some(session),
        &json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": {}}}),
    )
    .send()
    .await
    .unwrap()
}

/// Reads `body` into `seen` until `pick` finds what it wants among the SSE
/// events read so far (10 s at most for each chunk).
async fn next_event<T>(
    body: &mut (impl futures_util::Stream<Item = reqwest::Result<bytes::Bytes>> + Unpin),
    seen: &mut String,
    what: &str,
    mut pick: impl FnMut(Vec<(Option<String>, Option<Value>)>) -> Option<T>,
) -> T {
    loop {
        let chunk = tokio::time::timeout(Duration::from_secs(10), body.next())
            .await
            .unwrap_or_else(|_| panic!("{what} in time"))
            .unwrap_or_else(|| panic!("{what} before the end"))
            .unwrap();
        seen.push_str(&String::from_utf8_lossy(&chunk));
        if let Some(found) = pick(sse_events(seen)) {
            return found;
        }
    }
}

/// Waits until `flag` is set (10 s at most); `what` names it in the panic.
async fn until_set(flag: &AtomicBool, what: &str) {
    let set = async {
        while !flag.load(Ordering::SeqCst) {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(10), set)
        .await
        .expect(what);
}

#[tokio::test]
async fn a_session_made_on_one_replica_is_served_by_the_other() {
    let Some((_redis, a, b)) = two_replicas().await else {
        return;
    };
    let session = open_session(&a.url).await;

    let listed = request(&b.url, &session, 2, "tools/list", json!({})).await;
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["log_both", "poll_later", "ask_name", "wait_cancel"]);

    // The level set through B filters the messages of a call on A, which
    // reach the session's stream held by B.
    let set = request(
        &b.url,
        &session,
        3,
        "logging/setLevel",
        json!({"level": "warning"}),
    )
    .await;
    assert_eq!(set["result"], json!({}), "{set}");
    let stream = listen(&b.url, &session, None).await;
    let called = request(
        &a.url,
        &session,
        4,
        "tools/call",
        json!({"name": "log_both", "arguments": {}}),
    )
    .await;
    assert_eq!(called["result"]["content"][0]["text"], "logged", "{called}");
    let seen = read_until(stream, "a warning line").await;
    assert!(!seen.contains("an info line"), "{seen}");

    // And a call on B, the replica that restored the session, too.
    let called = request(
        &b.url,
        &session,
        5,
        "tools/call",
        json!({"name": "log_both", "arguments": {}}),
    )
    .await;
    assert_eq!(called["result"]["content"][0]["text"], "logged", "{called}");
}

#[tokio::test]
async fn an_sse_stream_closed_on_one_replica_resumes_on_the_other() {
    let Some((_redis, a, b)) = two_replicas().await else {
        return;
    };
    let session = open_session(&a.url).await;
    let call = call_tool(&a.url, &session, 7, "poll_later").await;
    let text = call.text().await.unwrap();
    assert!(
        !text.contains("\"result\""),
        "the stream ended before the result: {text}"
    );
    let last_id = sse_events(&text)
        .into_iter()
        .filter_map(|(id, _)| id)
        .next_back()
        .unwrap_or_else(|| panic!("no event id in {text}"));

    let resumed = listen(&b.url, &session, Some(&last_id)).await;
    let seen = read_until(resumed, "closed: true").await;
    assert!(
        !seen.contains(&format!("id: {last_id}\n")),
        "replayed the event resumed from: {seen}"
    );
}

#[tokio::test]
async fn a_2026_07_28_stream_dropped_on_one_replica_resumes_on_the_other() {
    let Some((_redis, a, b)) = two_replicas().await else {
        return;
    };
    let call = post(
        &a.url,
        None,
        &json!({"jsonrpc": "2.0", "id": 8, "method": "tools/call",
            "params": {"name": "poll_later", "arguments": {}, "_meta": meta_2026()}}),
    )
    .header("mcp-protocol-version", "2026-07-28")
    .header("mcp-method", "tools/call")
    .header("mcp-name", "poll_later")
    .send()
    .await
    .unwrap();
    assert_eq!(call.status(), 200);
    // Read up to the first event id, then drop the connection.
    let mut body = call.bytes_stream();
    let mut seen = String::new();
    let first_id = next_event(&mut body, &mut seen, "an event", |events| {
        events.into_iter().find_map(|(id, _)| id)
    })
    .await;
    assert!(
        !seen.contains("closed:"),
        "the result came before the drop: {seen}"
    );
    drop(body);

    let resumed = reqwest::Client::new()
        .get(&b.url)
        .header("accept", "text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("last-event-id", &first_id)
        .send()
        .await
        .unwrap();
    assert_eq!(resumed.status(), 200);
    let seen = read_until(resumed, "closed: false").await;
    assert!(seen.contains("\"id\":8"), "{seen}");
}

#[tokio::test]
async fn a_question_asked_on_one_replica_is_answered_through_the_other() {
    let Some((_redis, a, b)) = two_replicas().await else {
        return;
    };
    let session = open_session_with(&a.url, json!({"elicitation": {}})).await;
    let call = call_tool(&a.url, &session, 9, "ask_name").await;
    let mut body = call.bytes_stream();
    let mut seen = String::new();
    let question = next_event(&mut body, &mut seen, "the question", |events| {
        events
            .into_iter()
            .filter_map(|(_, data)| data)
            .find(|message| message["method"] == "elicitation/create")
    })
    .await;

    let answer = json!({"jsonrpc": "2.0", "id": question["id"], "result": {"action": "accept", "content": {"name": "Grace"}}});
    let answered = post(&b.url, Some(&session), &answer).send().await.unwrap();
    assert_eq!(answered.status(), 202);

    while let Ok(Some(Ok(chunk))) = tokio::time::timeout(Duration::from_secs(10), body.next()).await
    {
        seen.push_str(&String::from_utf8_lossy(&chunk));
        if seen.contains("hello {") {
            assert!(seen.contains(r#"\"name\":\"Grace\""#), "{seen}");
            return;
        }
    }
    panic!("the answer given through B never reached the call on A: {seen}");
}

#[tokio::test]
async fn a_call_running_on_one_replica_is_cancelled_through_the_other() {
    let Some((_redis, a, b)) = two_replicas().await else {
        return;
    };
    let session = open_session(&a.url).await;
    let call = call_tool(&a.url, &session, 11, "wait_cancel").await;
    until_set(&WAIT_CANCEL_STARTED, "the call starts").await;

    let cancel =
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 11}});
    let sent = post(&b.url, Some(&session), &cancel).send().await.unwrap();
    assert_eq!(sent.status(), 202);
    until_set(
        &WAIT_CANCEL_ENDED,
        "the cancellation sent through B ends the call on A",
    )
    .await;
    drop(call);
}

#[tokio::test]
async fn a_subscription_made_through_one_replica_hears_an_update_on_the_other() {
    let Some((_redis, a, b)) = two_replicas().await else {
        return;
    };
    let session = open_session(&a.url).await;
    let subscribed = request(
        &a.url,
        &session,
        2,
        "resources/subscribe",
        json!({"uri": DOC}),
    )
    .await;
    assert_eq!(subscribed["result"], json!({}), "{subscribed}");
    let stream = listen(&a.url, &session, None).await;

    b.server.resource_updated("test://other");
    b.server.resource_updated(DOC);

    let seen = read_until(stream, "notifications/resources/updated").await;
    assert!(seen.contains(DOC), "{seen}");
    assert!(!seen.contains("test://other"), "{seen}");
}

#[tokio::test]
async fn a_2026_07_28_listen_stream_on_one_replica_hears_an_update_on_the_other() {
    let Some((_redis, a, b)) = two_replicas().await else {
        return;
    };
    let stream = post(
        &a.url,
        None,
        &json!({"jsonrpc": "2.0", "id": 3, "method": "subscriptions/listen",
            "params": {"notifications": {"resourceSubscriptions": [DOC]}, "_meta": meta_2026()}}),
    )
    .header("mcp-protocol-version", "2026-07-28")
    .header("mcp-method", "subscriptions/listen")
    .send()
    .await
    .unwrap();
    assert_eq!(stream.status(), 200);
    // The stream follows other replicas once its Redis subscription stands,
    // shortly after the acknowledgement: B keeps publishing until heard.
    let publisher = b.server.clone();
    let publishing = tokio::spawn(async move {
        loop {
            publisher.resource_updated("test://other");
            publisher.resource_updated(DOC);
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    });

    let seen = read_until(stream, "notifications/resources/updated").await;
    publishing.abort();
    assert!(seen.contains(DOC), "{seen}");
    assert!(!seen.contains("test://other"), "{seen}");
}

#[tokio::test]
async fn delete_on_one_replica_ends_the_session_on_the_other() {
    let Some((_redis, a, b)) = two_replicas().await else {
        return;
    };
    let session = open_session(&a.url).await;
    // B now holds the session too.
    request(&b.url, &session, 2, "ping", json!({})).await;

    let deleted = reqwest::Client::new()
        .delete(&a.url)
        .header("mcp-session-id", &session)
        .header("mcp-protocol-version", "2025-11-25")
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), 204);

    assert_session_gone(&[&b.url, &a.url], &session).await;
}

#[tokio::test]
async fn an_idle_session_expires_by_its_redis_ttl_on_every_replica() {
    let Some(redis) = TestRedis::start().await else {
        return;
    };
    let idle = Duration::from_millis(800);
    let a = replica_with(&redis, HttpConfig::new().session_idle_timeout(idle)).await;
    let b = replica_with(&redis, HttpConfig::new().session_idle_timeout(idle)).await;
    let session = open_session(&a.url).await;
    request(&b.url, &session, 2, "ping", json!({})).await;

    let client = redis::Client::open(redis.url()).unwrap();
    let mut connection = client.get_multiplexed_async_connection().await.unwrap();
    let ttl: i64 = redis::cmd("PTTL")
        .arg(format!("mcp:session:{session}"))
        .query_async(&mut connection)
        .await
        .unwrap();
    assert!(ttl > 0 && ttl <= 800, "the session key's TTL is {ttl} ms");

    tokio::time::sleep(idle * 3).await;
    assert_session_gone(&[&b.url, &a.url], &session).await;
}

#[tokio::test]
async fn without_redis_sessions_get_a_clear_error_and_come_back_with_it() {
    let Some((mut redis, a, b)) = two_replicas().await else {
        return;
    };
    let session = open_session(&a.url).await;
    redis.stop();

    let refused = post(
        &b.url,
        Some(&session),
        &json!({"jsonrpc": "2.0", "id": 3, "method": "ping"}),
    )
    .send()
    .await
    .unwrap();
    assert_eq!(refused.status(), 503);
    let error: Value = refused.json().await.unwrap();
    assert_eq!(error["id"], 3, "{error}");
    assert_eq!(error["error"]["code"], -32001, "{error}");
    let message = error["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("Session store unavailable") && message.contains(&redis.url()),
        "{message}"
    );

    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}});
    let refused = post(&a.url, None, &init).send().await.unwrap();
    assert_eq!(refused.status(), 503);

    // A request of no session needs no Redis.
    let stateless = post(
        &a.url,
        None,
        &json!({"jsonrpc": "2.0", "id": 4, "method": "tools/list", "params": {"_meta": meta_2026()}}),
    )
    .header("mcp-protocol-version", "2026-07-28")
    .header("mcp-method", "tools/list")
    .send()
    .await
    .unwrap();
    assert_eq!(stateless.status(), 200);
    let listed = messages(stateless).await;
    assert!(
        listed
            .iter()
            .any(|message| message["id"] == 4 && message["result"]["tools"].is_array()),
        "{listed:?}"
    );

    redis.restart().await;
    // The restarted Redis kept nothing: the client starts a new session,
    // which both replicas serve, without a restart of either.
    let session = open_session(&b.url).await;
    let pong = request(&a.url, &session, 5, "ping", json!({})).await;
    assert_eq!(pong["result"], json!({}), "{pong}");
}

/// `mcp-server serve --transport http --state URL` on a free port.
fn serve_with_state(url: &str) -> ServerProcess {
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-server"))
        .args([
            "serve",
            "--transport",
            "http",
            "--bind",
            "127.0.0.1:0",
            "--state",
            url,
        ])
        .env("RUST_LOG", "off")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("mcp-server starts");
    ServerProcess::new(child)
}

#[tokio::test]
async fn two_processes_serve_one_session_through_the_state_flag() {
    let Some(redis) = TestRedis::start().await else {
        return;
    };
    let a = serve_with_state(&redis.url());
    let b = serve_with_state(&redis.url());
    let session = open_session(&a.url).await;
    let pong = request(&b.url, &session, 2, "ping", json!({})).await;
    assert_eq!(pong["result"], json!({}), "{pong}");
}

#[test]
fn the_state_flag_needs_http_and_a_redis_that_answers() {
    let run = |args: &[&str]| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-server"))
            .arg("serve")
            .args(args)
            .env("RUST_LOG", "off")
            .output()
            .expect("mcp-server runs");
        assert!(!output.status.success(), "{args:?} succeeded");
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let stdio = run(&["--state", "redis://127.0.0.1:6379"]);
    assert!(
        stdio.contains("--state") && stdio.contains("--transport http"),
        "{stdio}"
    );
    let http = ["--transport", "http", "--bind", "127.0.0.1:0", "--state"];
    let not_redis = run(&[&http[..], &["http://127.0.0.1:6379"]].concat());
    assert!(
        not_redis.contains("invalid Redis URL `http://127.0.0.1:6379`"),
        "{not_redis}"
    );
    let nobody = run(&[&http[..], &["redis://127.0.0.1:1/0"]].concat());
    assert!(
        nobody.contains("redis://127.0.0.1:1/0 is unreachable"),
        "{nobody}"
    );
}
