//! The generated-tool handler end to end against a local server: argument
//! validation, response mapping, the output-schema policy, retries,
//! timeouts, cancellation and authentication.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use mcp_core::{
    BoxFuture,
    client::{CallChannel, ChannelError, Progress},
    content::Content,
    tool::CallToolRequest,
};
use mcp_openapi::call::{
    Credential, Credentials, HttpToolHandler, Secret, SecuritySchemes, tolerant_output_schema,
    with_incoming_authorization,
};
use serde_json::{Value, json};

use crate::http_fixtures::{binding, config, param, route, tool_def};
use crate::recorder::Recorder;

fn get_route() -> mcp_openapi::ir::HttpRoute {
    route(
        "GET",
        "/pets/{id}",
        json!([
            param("id", "path", "simple", false),
            param("limit", "query", "form", true)
        ]),
        Value::Null,
    )
}

fn input() -> Value {
    json!({"type": "object", "properties": {"id": {"type": "integer"}, "limit": {"type": "integer", "maximum": 10}}, "required": ["id"]})
}

fn json_response(status: StatusCode, body: &'static str) -> Response {
    (status, [("content-type", "application/json")], body).into_response()
}

#[tokio::test]
async fn invalid_arguments_list_every_violation_and_send_nothing() {
    let server = Recorder::start().await;
    let tool = tool_def(
        get_route(),
        binding(&["id", "limit"], &[], false, None),
        input(),
        None,
        config(&server.base).build().expect("config"),
    );
    let result = tool.call_detached(json!({"limit": 50})).await;
    assert!(result.is_error());
    let text = result.text_content();
    assert!(
        text.contains("(root): \"id\" is a required property"),
        "{text}"
    );
    assert!(
        text.contains("/limit: 50 is greater than the maximum of 10"),
        "{text}"
    );
    let result = tool.call_detached(json!({"id": "seven"})).await;
    assert!(
        result
            .text_content()
            .contains("/id: \"seven\" is not of type \"integer\"")
    );
    assert!(server.requests().is_empty());
}

#[tokio::test]
async fn argument_errors_read_like_every_other_tool_and_unknown_ones_are_refused() {
    let server = Recorder::start().await;
    let tool = tool_def(
        get_route(),
        binding(&["id", "limit"], &[], false, None),
        input(),
        None,
        config(&server.base).build().expect("config"),
    );
    let result = tool.call_detached(json!({"limit": 50, "limt": 3})).await;
    assert_eq!(
        result.text_content(),
        "invalid arguments for tool `test_tool`:\n\
         (root): \"id\" is a required property\n\
         /limit: 50 is greater than the maximum of 10\n\
         /limt: unknown argument `limt`; did you mean `limit`?"
    );
    assert!(server.requests().is_empty());

    let lenient = mcp_core::ToolDef::<()>::new(
        tool.tool().clone(),
        HttpToolHandler::new(
            Arc::new(get_route()),
            binding(&["id", "limit"], &[], false, None),
            Arc::new(config(&server.base).build().expect("config")),
        )
        .allow_unknown_arguments(true),
    )
    .expect("tool def");
    let result = lenient.call_detached(json!({"id": 7, "trace": true})).await;
    assert!(!result.is_error(), "{}", result.text_content());
    assert_eq!(server.requests().len(), 1);
    assert_eq!(server.last().path(), "/pets/7");
}

#[tokio::test]
async fn a_connection_error_names_the_url_without_credentials() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = closed.local_addr().expect("address").port();
    drop(closed);
    let tool = tool_def(
        get_route(),
        binding(&["id", "limit"], &[], false, None),
        input(),
        None,
        config(&format!("http://ada:s3cret@127.0.0.1:{port}/api"))
            .build()
            .expect("config"),
    );
    let result = tool.call_detached(json!({"id": 1, "limit": 3})).await;
    assert!(result.is_error());
    let text = result.text_content();
    assert!(
        text.starts_with(&format!(
            "request to http://127.0.0.1:{port}/api/pets/1 failed: connection failed"
        )),
        "{text}"
    );
    assert!(
        !text.contains("s3cret") && !text.contains("limit=3"),
        "{text}"
    );
}

#[tokio::test]
async fn responses_map_by_status_and_media_type() {
    let server = Recorder::with(|request| match request.query() {
        "kind=json" => json_response(StatusCode::OK, r#"{"name":"Rex"}"#),
        "kind=array" => json_response(StatusCode::OK, r#"[1,2]"#),
        "kind=text" => (StatusCode::OK, [("content-type", "text/plain")], "hello").into_response(),
        "kind=xml" => (
            StatusCode::OK,
            [("content-type", "application/xml")],
            "<a/>",
        )
            .into_response(),
        "kind=image" => (
            StatusCode::OK,
            [("content-type", "image/png")],
            vec![0x89u8, b'P'],
        )
            .into_response(),
        "kind=binary" => (
            StatusCode::OK,
            [("content-type", "application/pdf")],
            vec![1u8, 2],
        )
            .into_response(),
        "kind=empty" => StatusCode::NO_CONTENT.into_response(),
        _ => json_response(StatusCode::NOT_FOUND, r#"{"message":"no such pet"}"#),
    })
    .await;
    let route = route(
        "GET",
        "/x",
        json!([param("kind", "query", "form", true)]),
        Value::Null,
    );
    let schema = json!({"type": "object", "properties": {"kind": {"type": "string"}}});
    let tool = tool_def(
        route,
        binding(&["kind"], &[], false, None),
        schema,
        None,
        config(&server.base).build().expect("config"),
    );
    let call = |kind: &str| tool.call_detached(json!({ "kind": kind }));

    let result = call("json").await;
    assert_eq!(result.structured_content, Some(json!({"name": "Rex"})));
    assert_eq!(result.text_content(), r#"{"name":"Rex"}"#);
    let result = call("array").await;
    assert_eq!(
        (result.structured_content.clone(), result.text_content()),
        (None, "[1,2]".to_owned())
    );
    assert_eq!(call("text").await.text_content(), "hello");
    assert_eq!(call("xml").await.text_content(), "<a/>");
    assert!(
        matches!(&call("image").await.content[..], [Content::Image(image)] if image.data == "iVA=" && image.mime_type == "image/png")
    );
    let binary = serde_json::to_value(call("binary").await).expect("json");
    assert_eq!(binary["content"][0]["resource"]["blob"], "AQI=");
    assert_eq!(
        binary["content"][0]["resource"]["uri"],
        format!("{}/x", server.base)
    );
    let empty = call("empty").await;
    assert!(!empty.is_error() && empty.content.is_empty());
    let missing = call("gone").await;
    assert!(missing.is_error());
    assert!(
        missing
            .text_content()
            .starts_with("the upstream API answered 404 Not Found:\n{\"message\":\"no such pet\"}")
    );
    assert_eq!(
        missing.structured_content,
        Some(json!({"status": 404, "reason": "Not Found", "body": {"message": "no such pet"}}))
    );
}

#[tokio::test]
async fn output_schema_policy_keeps_results_valid_for_validating_clients() {
    let server = Recorder::with(|request| match request.query() {
        "kind=good" => json_response(StatusCode::OK, r#"[{"id":1}]"#),
        "kind=bad" => json_response(StatusCode::OK, r#"[{"id":"one"}]"#),
        _ => (
            StatusCode::OK,
            [("content-type", "text/html")],
            "<p>maintenance</p>",
        )
            .into_response(),
    })
    .await;
    let declared = json!({
        "type": "object",
        "$defs": {"Pet": {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}},
        "properties": {"result": {"type": "array", "items": {"$ref": "#/$defs/Pet"}}},
        "required": ["result"]
    });
    let output = Value::Object(tolerant_output_schema(
        declared.as_object().expect("object"),
    ));
    let route = route(
        "GET",
        "/pets",
        json!([param("kind", "query", "form", true)]),
        Value::Null,
    );
    let mut binding = binding(&["kind"], &[], false, None);
    binding.output_wrapped = true;
    let input = json!({"type": "object", "properties": {"kind": {"type": "string"}}});
    let tool = tool_def(
        route,
        binding,
        input,
        Some(output.clone()),
        config(&server.base).build().expect("config"),
    );
    let validator = jsonschema::validator_for(&output).expect("the tolerant schema compiles");

    let good = tool.call_detached(json!({"kind": "good"})).await;
    assert_eq!(
        good.structured_content,
        Some(json!({"result": [{"id": 1}]}))
    );
    let bad = tool.call_detached(json!({"kind": "bad"})).await;
    assert!(!bad.is_error());
    let structured = bad.structured_content.clone().expect("structured");
    assert_eq!(structured["unvalidatedResponse"], json!([{"id": "one"}]));
    assert_eq!(
        structured["schemaViolations"],
        json!(["/result/0/id: \"one\" is not of type \"integer\""])
    );
    assert!(
        bad.text_content()
            .contains("does not match the documented output schema")
    );
    let html = tool.call_detached(json!({"kind": "html"})).await;
    assert!(!html.is_error());
    assert_eq!(
        html.structured_content
            .as_ref()
            .map(|s| s["unvalidatedResponse"].clone()),
        Some(json!("<p>maintenance</p>"))
    );
    for result in [good, bad, html] {
        let structured = result.structured_content.expect("structured");
        assert!(
            validator.is_valid(&structured),
            "{structured} must validate against the tool's outputSchema"
        );
    }
}

#[tokio::test]
async fn idempotent_calls_are_retried_and_posts_are_not() {
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = hits.clone();
    let server = Recorder::with(move |_| {
        if counter.fetch_add(1, Ordering::SeqCst) % 3 < 2 {
            (
                StatusCode::SERVICE_UNAVAILABLE,
                [("retry-after", "0")],
                "busy",
            )
                .into_response()
        } else {
            json_response(StatusCode::OK, r#"{"ok":true}"#)
        }
    })
    .await;
    let schema = json!({"type": "object"});
    let get = tool_def(
        route("GET", "/a", json!([]), Value::Null),
        binding(&[], &[], false, None),
        schema.clone(),
        None,
        config(&server.base).build().expect("config"),
    );
    assert!(!get.call_detached(json!({})).await.is_error());
    assert_eq!(server.requests().len(), 3, "two retries, then success");

    let post = tool_def(
        route("POST", "/a", json!([]), Value::Null),
        binding(&[], &[], false, None),
        schema,
        None,
        config(&server.base).build().expect("config"),
    );
    let result = post.call_detached(json!({})).await;
    assert!(result.is_error() && result.text_content().contains("503"));
    assert_eq!(server.requests().len(), 4, "a POST is sent once");
}

#[derive(Debug)]
struct CancelledChannel;

impl CallChannel for CancelledChannel {
    fn notify_progress(&self, _progress: Progress) -> BoxFuture<'_, Result<(), ChannelError>> {
        Box::pin(async { Ok(()) })
    }
    fn is_cancelled(&self) -> bool {
        true
    }
    fn cancelled(&self) -> BoxFuture<'_, ()> {
        Box::pin(async {})
    }
}

#[tokio::test]
async fn timeouts_and_cancellation_end_the_call() {
    let (listener, base) = crate::http_fixtures::local_listener().await;
    // A server that accepts and never answers.
    tokio::spawn(async move {
        let mut open = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            open.push(socket);
        }
    });
    let slow = route("GET", "/slow", json!([]), Value::Null);
    let schema = json!({"type": "object"});
    let tool = tool_def(
        slow.clone(),
        binding(&[], &[], false, None),
        schema.clone(),
        None,
        config(&base)
            .timeout(Duration::from_millis(200))
            .build()
            .expect("config"),
    );
    let started = std::time::Instant::now();
    let result = tool.call_detached(json!({})).await;
    assert_eq!(result.text_content(), "request timed out after 200 ms");
    assert!(started.elapsed() < Duration::from_secs(5));

    let tool = tool_def(
        slow,
        binding(&[], &[], false, None),
        schema,
        None,
        config(&base).build().expect("config"),
    );
    let cx = tool
        .context(CallToolRequest::new("test_tool", None), Arc::new(()))
        .channel(Arc::new(CancelledChannel));
    let started = std::time::Instant::now();
    let result = tool.call(cx).await;
    assert_eq!(result.text_content(), "the call was cancelled");
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[tokio::test]
async fn oauth2_client_credentials_token_is_cached_and_refreshed() {
    let tokens = Arc::new(AtomicUsize::new(0));
    let issued = tokens.clone();
    let server = Recorder::with(move |request| {
        if request.path() == "/token" {
            let n = issued.fetch_add(1, Ordering::SeqCst) + 1;
            let body =
                format!(r#"{{"access_token":"tok{n}","token_type":"bearer","expires_in":3600}}"#);
            return (StatusCode::OK, [("content-type", "application/json")], body).into_response();
        }
        match request.header("authorization").as_deref() {
            Some("Bearer tok1") if request.query() == "expire=1" => {
                StatusCode::UNAUTHORIZED.into_response()
            }
            Some(auth) if auth.starts_with("Bearer tok") => {
                json_response(StatusCode::OK, r#"{"ok":true}"#)
            }
            _ => StatusCode::UNAUTHORIZED.into_response(),
        }
    })
    .await;
    let components = json!({"cc": {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "/token", "scopes": {"read": ""}}}}});
    let schemes =
        SecuritySchemes::from_components(components.as_object().expect("object")).expect("schemes");
    let mut credentials = Credentials::new();
    credentials.insert(
        "cc",
        Credential::ClientCredentials {
            client_id: "app".to_owned(),
            client_secret: Secret::new("shh-very-secret"),
            scopes: vec![],
        },
    );
    let mut secured = route(
        "GET",
        "/me",
        json!([param("expire", "query", "form", true)]),
        Value::Null,
    );
    secured.security =
        serde_json::from_value(json!([{"schemes": {"cc": ["read"]}}])).expect("security");
    let cfg = config(&server.base)
        .security_schemes(schemes)
        .credentials(credentials)
        .build()
        .expect("config");
    let tool = tool_def(
        secured,
        binding(&["expire"], &[], false, None),
        json!({"type": "object"}),
        None,
        cfg,
    );
    assert!(!tool.call_detached(json!({})).await.is_error());
    assert!(!tool.call_detached(json!({})).await.is_error());
    assert_eq!(tokens.load(Ordering::SeqCst), 1, "the token is cached");
    let token_request = server
        .requests()
        .into_iter()
        .find(|r| r.path() == "/token")
        .expect("token request");
    assert_eq!(
        std::str::from_utf8(&token_request.body).ok(),
        Some("grant_type=client_credentials&scope=read")
    );
    assert_eq!(
        token_request.header("authorization").as_deref(),
        Some("Basic YXBwOnNoaC12ZXJ5LXNlY3JldA==")
    );
    // The API refuses the cached token: it is fetched again and the call repeated once.
    assert!(!tool.call_detached(json!({"expire": 1})).await.is_error());
    assert_eq!(tokens.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn incoming_authorization_is_forwarded_only_when_opted_in() {
    let server = Recorder::with(|request| {
        let echo = json!({ "saw": request.header("authorization") }).to_string();
        (StatusCode::OK, [("content-type", "application/json")], echo).into_response()
    })
    .await;
    for (opt_in, expected) in [(false, None), (true, Some("Bearer incoming-token-9"))] {
        let cfg = config(&server.base)
            .passthrough_authorization(opt_in)
            .build()
            .expect("config");
        let tool = tool_def(
            route("GET", "/me", json!([]), Value::Null),
            binding(&[], &[], false, None),
            json!({"type": "object"}),
            None,
            cfg,
        );
        let call = tool.call_detached(json!({}));
        let result =
            with_incoming_authorization(Some("Bearer incoming-token-9".to_owned()), call).await;
        assert!(!result.is_error());
        assert_eq!(server.last().header("authorization").as_deref(), expected);
        let wire = serde_json::to_string(&result).expect("json");
        assert!(!wire.contains("incoming-token-9"), "{wire}");
    }
}

#[tokio::test]
async fn servers_variables_static_headers_and_user_agent() {
    let server = Recorder::start().await;
    let port = server.base.rsplit(':').next().expect("port").to_owned();
    let mut routed = route("GET", "/ping", json!([]), Value::Null);
    routed.servers = serde_json::from_value(json!([{
        "url": "http://127.0.0.1:{port}/{version}",
        "description": null,
        "variables": {
            "port": {"default": port, "allowed": [], "description": null},
            "version": {"default": "v1", "allowed": ["v1", "v2"], "description": null}
        }
    }]))
    .expect("servers");
    let cfg = mcp_openapi::ClientConfig::builder()
        .credentials(Credentials::new())
        .server_variable("version", "v2")
        .header("X-Tenant", "acme")
        .build()
        .expect("config");
    let tool = tool_def(
        routed,
        binding(&[], &[], false, None),
        json!({"type": "object"}),
        None,
        cfg,
    );
    assert!(!tool.call_detached(json!({})).await.is_error());
    let seen = server.last();
    assert_eq!(seen.target, "/v2/ping");
    assert_eq!(seen.header("x-tenant").as_deref(), Some("acme"));
    assert_eq!(
        seen.header("user-agent").as_deref(),
        Some(mcp_openapi::call::USER_AGENT)
    );
    assert!(mcp_openapi::call::USER_AGENT.starts_with("mcp-openapi/"));
}
