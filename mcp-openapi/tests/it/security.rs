//! What a proxy in front of real credentials must never do: leave a path
//! segment, change host, send a header with CR/LF, follow a redirect to
//! another host, or echo a credential (hostile upstreams: `hostile_upstream`).

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use mcp_openapi::call::{Credential, Credentials, Secret, SecuritySchemes};
use percent_encoding::percent_decode_str;
use serde_json::{Value, json};

use crate::http_fixtures::{binding, config, param, route, tool_def};
use crate::recorder::Recorder;

fn string_input(names: &[&str]) -> Value {
    let properties: serde_json::Map<String, Value> = names
        .iter()
        .map(|n| ((*n).to_owned(), json!({"type": "string"})))
        .collect();
    json!({"type": "object", "properties": properties})
}

#[tokio::test]
async fn path_values_stay_in_their_segment_and_never_change_host() {
    let server = Recorder::start().await;
    let files = route(
        "GET",
        "/files/{name}/meta",
        json!([param("name", "path", "simple", false)]),
        Value::Null,
    );
    let tool = tool_def(
        files,
        binding(&["name"], &[], false, None),
        string_input(&["name"]),
        None,
        config(&server.base).build().expect("config"),
    );
    let attacks = [
        "../admin",
        "a/b",
        "%2e%2e",
        "?x=1",
        "#frag",
        "..%2Fadmin",
        "http://evil.example/x",
        "//evil.example",
        "a\\b",
    ];
    for attack in attacks {
        let result = tool.call_detached(json!({ "name": attack })).await;
        assert!(!result.is_error(), "{attack}: {}", result.text_content());
        let seen = server.last();
        let segments: Vec<&str> = seen.path().split('/').collect();
        assert_eq!(segments.len(), 4, "{attack} -> {}", seen.target);
        assert_eq!(
            (segments[1], segments[3]),
            ("files", "meta"),
            "{attack} -> {}",
            seen.target
        );
        assert_eq!(percent_decode_str(segments[2]).decode_utf8_lossy(), attack);
        assert!(!seen.target.contains('?'), "{attack} -> {}", seen.target);
        assert_eq!(
            seen.header("host"),
            Some(server.base.trim_start_matches("http://").to_owned())
        );
    }
    for dots in ["..", "."] {
        let result = tool.call_detached(json!({ "name": dots })).await;
        assert!(result.is_error(), "a bare `{dots}` segment is refused");
    }
    assert_eq!(server.requests().len(), attacks.len());
}

#[tokio::test]
async fn crlf_in_a_header_value_is_refused_and_nothing_is_sent() {
    let server = Recorder::start().await;
    let headers = route(
        "GET",
        "/h",
        json!([param("X-Trace", "header", "simple", false)]),
        Value::Null,
    );
    let tool = tool_def(
        headers,
        binding(&["X-Trace"], &[], false, None),
        string_input(&["X-Trace"]),
        None,
        config(&server.base).build().expect("config"),
    );
    for attack in ["a\r\nX-Admin: 1", "a\nb", "a\rb", "a\0b"] {
        let result = tool.call_detached(json!({ "X-Trace": attack })).await;
        assert!(result.is_error());
        assert!(
            result.text_content().contains("header `X-Trace`"),
            "{}",
            result.text_content()
        );
    }
    assert!(server.requests().is_empty());
    let result = tool.call_detached(json!({"X-Trace": "fine value"})).await;
    assert!(!result.is_error());
    assert_eq!(
        server.last().header("x-trace").as_deref(),
        Some("fine value")
    );
}

#[tokio::test]
async fn redirects_are_followed_only_on_the_same_origin() {
    let elsewhere = Recorder::start().await;
    let target = format!("{}/stolen", elsewhere.base);
    let server = Recorder::with(move |request| -> Response {
        match request.path() {
            "/away" => (StatusCode::FOUND, [("location", target.clone())]).into_response(),
            "/here" => (StatusCode::FOUND, [("location", "/final")]).into_response(),
            _ => (
                StatusCode::OK,
                [("content-type", "application/json")],
                r#"{"arrived":true}"#,
            )
                .into_response(),
        }
    })
    .await;
    let mut credentials = Credentials::new();
    credentials.insert(
        "token",
        Credential::Bearer(Secret::new("bearer-secret-123")),
    );
    let schemes = SecuritySchemes::from_components(
        json!({"token": {"type": "http", "scheme": "bearer"}})
            .as_object()
            .expect("object"),
    )
    .expect("schemes");
    let cfg = || {
        config(&server.base)
            .security_schemes(schemes.clone())
            .credentials(credentials.clone())
            .build()
            .expect("config")
    };
    let security: Value = json!([{"schemes": {"token": []}}]);
    for (path, followed) in [("/here", true), ("/away", false)] {
        let mut hop = route("GET", path, json!([]), Value::Null);
        hop.security = serde_json::from_value(security.clone()).expect("security");
        let tool = tool_def(
            hop,
            binding(&[], &[], false, None),
            json!({"type": "object"}),
            None,
            cfg(),
        );
        let result = tool.call_detached(json!({})).await;
        if followed {
            assert_eq!(result.structured_content, Some(json!({"arrived": true})));
        } else {
            assert!(result.is_error());
            assert!(
                result
                    .text_content()
                    .contains("302 Found (a redirect to another origin is not followed)")
            );
        }
    }
    assert!(
        elsewhere.requests().is_empty(),
        "the other host never saw a request"
    );
}

#[tokio::test]
async fn credentials_are_never_echoed() {
    // The upstream echoes the whole request back, on success and on error.
    let server = Recorder::with(|request| {
        let headers: serde_json::Map<String, Value> = request
            .headers
            .iter()
            .map(|(k, v)| (k.to_string(), json!(String::from_utf8_lossy(v.as_bytes()))))
            .collect();
        let echo = json!({"target": request.target, "headers": headers}).to_string();
        let status = if request.path() == "/fail" {
            StatusCode::FORBIDDEN
        } else {
            StatusCode::OK
        };
        (status, [("content-type", "application/json")], echo).into_response()
    })
    .await;
    let components = json!({
        "key": {"type": "apiKey", "name": "X-Api-Key", "in": "header"},
        "qkey": {"type": "apiKey", "name": "api_key", "in": "query"},
        "ckey": {"type": "apiKey", "name": "session", "in": "cookie"},
        "basic": {"type": "http", "scheme": "basic"}
    });
    let schemes =
        SecuritySchemes::from_components(components.as_object().expect("object")).expect("schemes");
    let mut credentials = Credentials::new();
    credentials.insert("key", Credential::ApiKey(Secret::new("header-secret-1")));
    credentials.insert("qkey", Credential::ApiKey(Secret::new("query secret/2")));
    credentials.insert("ckey", Credential::ApiKey(Secret::new("cookie-secret-3")));
    credentials.insert(
        "basic",
        Credential::Basic {
            username: "user".to_owned(),
            password: Secret::new("basic-secret-4"),
        },
    );
    let security = json!([{"schemes": {"key": [], "qkey": [], "ckey": [], "basic": []}}]);
    let forbidden = [
        "header-secret-1",
        "query secret/2",
        "query%20secret%2F2",
        "cookie-secret-3",
        "basic-secret-4",
        "dXNlcjpiYXNpYy1zZWNyZXQtNA==",
    ];
    for path in ["/ok", "/fail"] {
        let mut secured = route("GET", path, json!([]), Value::Null);
        secured.security = serde_json::from_value(security.clone()).expect("security");
        let cfg = config(&server.base)
            .security_schemes(schemes.clone())
            .credentials(credentials.clone())
            .build()
            .expect("config");
        let tool = tool_def(
            secured,
            binding(&[], &[], false, None),
            json!({"type": "object"}),
            None,
            cfg,
        );
        let result = tool.call_detached(json!({})).await;
        let seen = server.last();
        assert_eq!(
            seen.header("x-api-key").as_deref(),
            Some("header-secret-1"),
            "the credential was sent"
        );
        assert_eq!(seen.query(), "api_key=query%20secret%2F2");
        assert_eq!(
            seen.header("cookie").as_deref(),
            Some("session=cookie-secret-3")
        );
        let wire = serde_json::to_string(&result).expect("json");
        assert!(wire.contains("[redacted]"), "{wire}");
        for secret in forbidden {
            assert!(
                !wire.contains(secret),
                "{path}: `{secret}` leaked in {wire}"
            );
        }
    }
    // Transport errors name no URL (which would hold the query key).
    let (closed, dead) = crate::http_fixtures::local_listener().await;
    drop(closed);
    let mut secured = route("POST", "/x", json!([]), Value::Null);
    secured.security = serde_json::from_value(security).expect("security");
    let cfg = config(&dead)
        .security_schemes(schemes)
        .credentials(credentials)
        .build()
        .expect("config");
    let tool = tool_def(
        secured,
        binding(&[], &[], false, None),
        json!({"type": "object"}),
        None,
        cfg,
    );
    let result = tool.call_detached(json!({})).await;
    assert!(result.is_error());
    let wire = serde_json::to_string(&result).expect("json");
    assert!(wire.contains("connection failed"), "{wire}");
    for secret in forbidden {
        assert!(!wire.contains(secret), "`{secret}` leaked in {wire}");
    }
}
