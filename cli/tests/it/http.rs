//! Streamable HTTP: sessions, stateless mode, Host/Origin, bearer token,
//! body limit, and `execution` through the body rewrite.

use std::net::SocketAddr;

use futures_util::StreamExt;
use mcp_server::{HttpConfig, Server};
use reqwest::header::{HeaderMap, HeaderValue};
use serde_json::{Value, json};
use tokio::sync::oneshot;

use crate::support::http::{Running, serve_http, sse_reply};
use crate::support::meta_2026;

impl Running {
    /// A POST of `body` to the endpoint with the headers MCP requires.
    fn request(&self, http: &reqwest::Client, body: &Value) -> reqwest::RequestBuilder {
        http.post(&self.url).headers(headers()).json(body)
    }

    /// [`Running::request`] in the 2025-11-25 `session`.
    fn request_in(
        &self,
        http: &reqwest::Client,
        session: &HeaderValue,
        body: &Value,
    ) -> reqwest::RequestBuilder {
        self.request(http, body)
            .header("mcp-session-id", session.clone())
            .header("mcp-protocol-version", "2025-11-25")
    }
}

fn headers() -> HeaderMap {
    let mut headers = HeaderMap::new();
    headers.insert(
        "accept",
        HeaderValue::from_static("application/json, text/event-stream"),
    );
    headers.insert("content-type", HeaderValue::from_static("application/json"));
    headers
}

/// The JSON-RPC message of a response body (JSON, or the SSE event with an id).
async fn message(response: reqwest::Response) -> Value {
    let is_sse = response
        .headers()
        .get("content-type")
        .is_some_and(|v| v.to_str().unwrap().starts_with("text/event-stream"));
    let text = response.text().await.unwrap();
    if !is_sse {
        return serde_json::from_str(&text).unwrap();
    }
    sse_reply(&text)
}

fn initialize() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}})
}

#[tokio::test]
async fn stateful_sessions_carry_execution_through_the_body_rewrite() {
    let running = serve_http(crate::tool_execution::server(), HttpConfig::new()).await;
    let http = reqwest::Client::new();
    let init = running.request(&http, &initialize()).send().await.unwrap();
    assert_eq!(init.status(), 200);
    let session = init
        .headers()
        .get("mcp-session-id")
        .expect("a session id")
        .clone();
    assert_eq!(
        message(init).await["result"]["serverInfo"]["name"],
        "mcp-toolkit-server"
    );
    let notified = running
        .request(
            &http,
            &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        )
        .header("mcp-session-id", session.clone())
        .header("mcp-protocol-version", "2025-11-25")
        .send()
        .await
        .unwrap();
    assert_eq!(notified.status(), 202);
    let list = running
        .request(
            &http,
            &json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
        )
        .header("mcp-session-id", session.clone())
        .header("mcp-protocol-version", "2025-11-25")
        .send()
        .await
        .unwrap();
    let list = message(list).await;
    assert_eq!(
        list["result"]["tools"][1]["execution"],
        json!({"taskSupport": "forbidden"}),
        "{list}"
    );
    assert!(!list.to_string().contains("rs.mcp-toolkit/execution"));
    // A 2025-11-25 task over HTTP: `params.task` and `tasks/get` get past
    // rmcp's parser through the request rewrite.
    let post = |body: Value| running.request_in(&http, &session, &body).send();
    let created = post(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "wants_tasks", "arguments": {}, "task": {"ttl": 30000}}}));
    let created = message(created.await.unwrap()).await;
    let task_id = created["result"]["task"]["taskId"].clone();
    assert!(task_id.is_string(), "{created}");
    assert_eq!(created["result"]["task"]["ttl"], 30000);
    let result = post(json!({"jsonrpc": "2.0", "id": 4, "method": "tasks/result",
        "params": {"taskId": task_id}}));
    let result = message(result.await.unwrap()).await;
    assert_eq!(result["result"]["content"][0]["text"], "ok", "{result}");
    let got = post(json!({"jsonrpc": "2.0", "id": 5, "method": "tasks/get",
        "params": {"taskId": task_id}}));
    let got = message(got.await.unwrap()).await;
    assert_eq!(got["result"]["status"], "completed", "{got}");
    assert!(!format!("{created}{result}{got}").contains("rs.mcp-toolkit/"));
    let ended = http
        .delete(&running.url)
        .header("mcp-session-id", session)
        .header("mcp-protocol-version", "2025-11-25")
        .send()
        .await
        .unwrap();
    assert_eq!(ended.status(), 204);
}

#[tokio::test]
async fn stateless_mode_keeps_no_session_and_omits_execution_for_2026() {
    let running = serve_http(
        crate::tool_execution::server(),
        HttpConfig::new().stateless(true),
    )
    .await;
    let http = reqwest::Client::new();
    let list = running
        .request(&http, &json!({"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": {"_meta": meta_2026()}}))
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/list")
        .send()
        .await
        .unwrap();
    assert_eq!(list.status(), 200);
    assert!(list.headers().get("mcp-session-id").is_none());
    let list = message(list).await;
    assert_eq!(
        list["result"]["tools"].as_array().unwrap().len(),
        3,
        "{list}"
    );
    assert!(
        list["result"]["tools"][1].get("execution").is_none(),
        "{list}"
    );
}

#[tokio::test]
async fn foreign_host_and_origin_are_forbidden() {
    let running = serve_http(crate::tool_execution::server(), HttpConfig::new()).await;
    let http = reqwest::Client::new();
    let origin = running
        .request(&http, &initialize())
        .header("origin", "https://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(origin.status(), 403);
    let host = running
        .request(&http, &initialize())
        .header("host", "evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(host.status(), 403);
    // Every method is checked, not only a POST of JSON.
    let stream = http
        .get(&running.url)
        .header("host", "evil.example")
        .header("accept", "text/event-stream")
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status(), 403);
    // A `Host` that is not a host at all is a bad request.
    let malformed = running
        .request(&http, &initialize())
        .header("host", "not a host")
        .send()
        .await
        .unwrap();
    assert_eq!(malformed.status(), 400);
    let local = running
        .request(&http, &initialize())
        .header("origin", "http://localhost:3000")
        .send()
        .await
        .unwrap();
    assert_eq!(local.status(), 200);
}

#[tokio::test]
async fn a_bearer_token_is_required_when_configured() {
    let running = serve_http(
        crate::tool_execution::server(),
        HttpConfig::new().bearer_token("s3cret"),
    )
    .await;
    let http = reqwest::Client::new();
    let missing = running.request(&http, &initialize()).send().await.unwrap();
    assert_eq!(missing.status(), 401);
    assert_eq!(missing.headers()["www-authenticate"], "Bearer");
    let wrong = running
        .request(&http, &initialize())
        .bearer_auth("guess")
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), 401);
    let right = running
        .request(&http, &initialize())
        .bearer_auth("s3cret")
        .send()
        .await
        .unwrap();
    assert_eq!(right.status(), 200);
}

#[tokio::test]
async fn oversized_bodies_are_rejected() {
    let running = serve_http(
        crate::tool_execution::server(),
        HttpConfig::new().max_body_bytes(1024),
    )
    .await;
    let mut big = initialize();
    big["params"]["clientInfo"]["name"] = json!("x".repeat(4096));
    let reply = running
        .request(&reqwest::Client::new(), &big)
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 413);
}

#[tokio::test]
async fn shutdown_lets_in_flight_calls_finish() {
    let slow: mcp_core::ToolDef = mcp_core::tool("slow")
        .run(|| async {
            tokio::time::sleep(std::time::Duration::from_millis(400)).await;
            "finished"
        })
        .unwrap();
    let server = Server::builder().tool(slow).build().unwrap();
    let addr: SocketAddr = "127.0.0.1:0".parse().unwrap();
    let http = server
        .bind_http(addr, HttpConfig::new().stateless(true))
        .await
        .unwrap();
    let url = http.url();
    let (stop, stopped) = oneshot::channel::<()>();
    let serving = tokio::spawn(http.run_until(async move {
        let _ = stopped.await;
    }));
    let call = tokio::spawn(
        reqwest::Client::new()
            .post(url.clone())
            .headers(headers())
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", "tools/call")
            .header("mcp-name", "slow")
            .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "slow", "arguments": {}, "_meta": meta_2026()}}))
            .send(),
    );
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    stop.send(()).unwrap();
    let reply = call.await.unwrap().unwrap();
    assert_eq!(reply.status(), 200);
    let reply = message(reply).await;
    assert_eq!(reply["result"]["content"][0]["text"], "finished", "{reply}");
    tokio::time::timeout(std::time::Duration::from_secs(5), serving)
        .await
        .expect("the server stops after the in-flight call")
        .unwrap()
        .unwrap();
    assert!(
        reqwest::Client::new()
            .post(&url)
            .headers(headers())
            .json(&initialize())
            .send()
            .await
            .is_err()
    );
}

#[tokio::test]
async fn a_handler_closes_its_sse_stream_and_the_client_resumes_with_last_event_id() {
    let poll: mcp_core::ToolDef = mcp_core::tool("poll_later")
        .run(
            |_: mcp_core::JsonObject, cx: mcp_core::ToolCallContext| async move {
                let closed = cx
                    .close_sse_stream(std::time::Duration::from_millis(50))
                    .await;
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                format!("closed: {}", closed.is_ok())
            },
        )
        .unwrap();
    let server = Server::builder().tool(poll).build().unwrap();
    let running = serve_http(server, HttpConfig::new()).await;
    let http = reqwest::Client::new();
    let init = running.request(&http, &initialize()).send().await.unwrap();
    let session = init.headers()["mcp-session-id"].clone();
    let post = |body: Value| running.request_in(&http, &session, &body).send();
    post(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await
        .unwrap();
    let call = post(json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "poll_later", "arguments": {}}}))
    .await
    .unwrap();
    // The POST's stream ends without the result: only priming events.
    let events = call.text().await.unwrap();
    assert!(!events.contains("\"result\""), "{events}");
    let last_id = events
        .lines()
        .filter_map(|line| line.strip_prefix("id:"))
        .map(str::trim)
        .next_back()
        .expect("an event id")
        .to_owned();
    let resumed = http
        .get(&running.url)
        .header("accept", "text/event-stream")
        .header("mcp-session-id", session.clone())
        .header("mcp-protocol-version", "2025-11-25")
        .header("last-event-id", last_id)
        .send()
        .await
        .unwrap();
    assert_eq!(resumed.status(), 200);
    let mut body = resumed.bytes_stream();
    let mut seen = String::new();
    while let Ok(Some(Ok(chunk))) =
        tokio::time::timeout(std::time::Duration::from_secs(10), body.next()).await
    {
        seen.push_str(&String::from_utf8_lossy(&chunk));
        if seen.contains("closed: true") {
            return;
        }
    }
    panic!("the result never came on the resumed stream: {seen}");
}
