//! Upstreams that misbehave on purpose, on loopback: each generated tool
//! call ends in a clear error result within the configured timeout, reads
//! no more than the response cap, and sends no credential to another host.

mod raw;

use std::time::{Duration, Instant};

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use mcp_core::{CallToolResult, ToolDef};
use mcp_openapi::call::{Credential, Credentials, Secret, SecuritySchemes};
use serde_json::{Value, json};

use crate::http_fixtures::{binding, config, route, tool_def};
use crate::recorder::Recorder;
use raw::{RawUpstream, Reply};

/// The timeout the calls are configured with.
const TIMEOUT: Duration = Duration::from_secs(1);
/// What a call may take beyond its timeout on a loaded machine.
const SLACK: Duration = Duration::from_secs(3);

/// A `GET /data` tool against `base` with `TIMEOUT` and `cap`.
fn get_tool(base: &str, cap: usize) -> ToolDef {
    tool_def(
        route("GET", "/data", json!([]), Value::Null),
        binding(&[], &[], false, None),
        json!({"type": "object"}),
        None,
        config(base)
            .timeout(TIMEOUT)
            .max_response_bytes(cap)
            .build()
            .expect("config"),
    )
}

/// Calls `tool` and checks that it failed within the timeout (and slack):
/// the result's text.
async fn failed_in_time(tool: &ToolDef) -> String {
    let started = Instant::now();
    let result: CallToolResult = tool.call_detached(json!({})).await;
    let elapsed = started.elapsed();
    assert!(
        elapsed < TIMEOUT + SLACK,
        "the call took {elapsed:?}, beyond its timeout"
    );
    assert!(result.is_error(), "not an error: {result:?}");
    result.text_content()
}

#[tokio::test]
async fn an_upstream_that_never_answers_times_out() {
    let upstream = RawUpstream::start(Reply::Silence).await;
    let text = failed_in_time(&get_tool(&upstream.base, 1024)).await;
    assert_eq!(text, "request timed out after 1000 ms");
}

#[tokio::test]
async fn an_upstream_sending_one_byte_a_second_times_out() {
    for reply in [Reply::TrickleHead, Reply::TrickleBody] {
        let upstream = RawUpstream::start(reply).await;
        let text = failed_in_time(&get_tool(&upstream.base, 1024)).await;
        assert_eq!(text, "request timed out after 1000 ms", "{reply:?}");
    }
}

#[tokio::test]
async fn two_gigabytes_are_refused_after_at_most_the_cap() {
    let cap = 1024 * 1024;
    let two_gigabytes: u64 = 2 << 30;
    for announced in [true, false] {
        let upstream = RawUpstream::start(Reply::Flood {
            total: two_gigabytes,
            announced,
        })
        .await;
        let text = failed_in_time(&get_tool(&upstream.base, cap)).await;
        assert_eq!(
            text,
            "the upstream response is larger than 1048576 bytes, the most this server reads \
             from it; none of it is used"
        );
        let sent = upstream.finished_sending().await;
        // What the kernel buffers on both ends of a loopback connection is
        // far below this; reading on would have taken the whole 2 GB.
        let bound = cap as u64 + (64 << 20);
        assert!(
            sent < bound,
            "announced {announced}: the upstream got {sent} bytes out, over {bound}"
        );
    }
}

#[tokio::test]
async fn a_reset_mid_body_is_a_transport_error() {
    let upstream = RawUpstream::start(Reply::ResetMidBody).await;
    let text = failed_in_time(&get_tool(&upstream.base, 1024 * 1024)).await;
    assert!(
        text.starts_with(&format!(
            "request to {}/data failed: reading the response body failed",
            upstream.base
        )),
        "{text}"
    );
}

#[tokio::test]
async fn invalid_json_with_a_json_content_type_is_an_error() {
    let upstream = Recorder::with(|_| {
        (
            StatusCode::OK,
            [("content-type", "application/json; charset=utf-8")],
            r#"{"name": "Rex", "#,
        )
            .into_response()
    })
    .await;
    let text = failed_in_time(&get_tool(&upstream.base, 1024)).await;
    assert_eq!(
        text,
        "the upstream API answered 200 OK with `application/json` content that is not valid \
         JSON (EOF while parsing a value at line 1 column 16):\n{\"name\": \"Rex\", "
    );
}

#[tokio::test]
async fn a_redirect_loop_ends_after_ten_hops() {
    let upstream =
        Recorder::with(|_| (StatusCode::FOUND, [("location", "/data")]).into_response()).await;
    let text = failed_in_time(&get_tool(&upstream.base, 1024)).await;
    assert_eq!(
        text,
        format!(
            "request to {}/data failed: redirect failed: more than 10 redirects (a redirect loop?)",
            upstream.base
        )
    );
    assert_eq!(
        upstream.requests().len(),
        11,
        "the first request and ten hops"
    );
}

#[tokio::test]
async fn a_redirect_to_another_host_carries_no_credential() {
    // 127.0.0.2 is another host of the loopback network; the same address on
    // another port is another origin too.
    let thief_host = Recorder::on("127.0.0.2", |_| StatusCode::OK.into_response()).await;
    let thief_port = Recorder::start().await;
    for thief in [&thief_host, &thief_port] {
        for status in [301, 302, 303, 307, 308] {
            let target = format!("{}/stolen", thief.base);
            let upstream = Recorder::with(move |_| -> Response {
                let status = StatusCode::from_u16(status).expect("status");
                (status, [("location", target.clone())]).into_response()
            })
            .await;
            let text = failed_in_time(&secured_tool(&upstream.base)).await;
            assert!(
                text.contains("(a redirect to another origin is not followed)"),
                "{status}: {text}"
            );
            let sent = upstream.last();
            assert_eq!(sent.header("x-api-key").as_deref(), Some("header-key-1"));
            assert_eq!(sent.query(), "api_key=query-key-2");
            assert_eq!(
                sent.header("cookie").as_deref(),
                Some("session=cookie-key-3")
            );
            assert_eq!(
                sent.header("authorization").as_deref(),
                Some("Bearer bearer-token-4")
            );
            for secret in [
                "header-key-1",
                "query-key-2",
                "cookie-key-3",
                "bearer-token-4",
            ] {
                assert!(!text.contains(secret), "{secret} leaked in {text}");
            }
        }
        assert!(
            thief.requests().is_empty(),
            "the other host got {:?}",
            thief.requests()
        );
    }
}

/// A `GET /data` tool sending an API key in a header, the query and a
/// cookie, and a bearer token.
fn secured_tool(base: &str) -> ToolDef {
    let schemes = SecuritySchemes::from_components(
        json!({
            "key": {"type": "apiKey", "name": "X-Api-Key", "in": "header"},
            "qkey": {"type": "apiKey", "name": "api_key", "in": "query"},
            "ckey": {"type": "apiKey", "name": "session", "in": "cookie"},
            "token": {"type": "http", "scheme": "bearer"}
        })
        .as_object()
        .expect("object"),
    )
    .expect("schemes");
    let mut credentials = Credentials::new();
    credentials.insert("key", Credential::ApiKey(Secret::new("header-key-1")));
    credentials.insert("qkey", Credential::ApiKey(Secret::new("query-key-2")));
    credentials.insert("ckey", Credential::ApiKey(Secret::new("cookie-key-3")));
    credentials.insert("token", Credential::Bearer(Secret::new("bearer-token-4")));
    let mut secured = route("GET", "/data", json!([]), Value::Null);
    secured.security = serde_json::from_value(
        json!([{"schemes": {"key": [], "qkey": [], "ckey": [], "token": []}}]),
    )
    .expect("security");
    tool_def(
        secured,
        binding(&[], &[], false, None),
        json!({"type": "object"}),
        None,
        config(base)
            .timeout(TIMEOUT)
            .security_schemes(schemes)
            .credentials(credentials)
            .build()
            .expect("config"),
    )
}
