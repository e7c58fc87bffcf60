//! OpenTelemetry from the real `mcp-server` binary: a loopback OTLP
//! receiver decodes the exported spans and metrics with
//! `opentelemetry-proto`, a loopback upstream API records the
//! `traceparent` it is sent, and the Prometheus endpoint is scraped and
//! checked line by line.

use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

use crate::support::http::{ServerProcess, stops_cleanly_on_sigterm};
use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::routing::{get, post};
use axum::{Json, Router};
use opentelemetry_proto::tonic::collector::metrics::v1::ExportMetricsServiceRequest;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value as AnyValue;
use opentelemetry_proto::tonic::trace::v1::Span;
use opentelemetry_proto::tonic::trace::v1::span::SpanKind;
use prost::Message as _;
use serde_json::{Value, json};

const PETSTORE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/cli/petstore.yaml");
/// The client's trace context, sent in `params._meta`.
const TRACE_ID: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const CLIENT_SPAN_ID: &str = "00f067aa0ba902b7";

/// What the OTLP receiver got.
#[derive(Default)]
struct Received {
    spans: Vec<Span>,
    metric_names: Vec<String>,
}

type Shared<T> = Arc<Mutex<T>>;

/// Serves `router` on a free loopback port; returns its base URL.
async fn serve(router: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await });
    format!("http://{addr}")
}

/// An OTLP/HTTP receiver of traces and metrics (protobuf bodies).
async fn otlp_receiver(received: Shared<Received>) -> String {
    async fn traces(State(received): State<Shared<Received>>, body: Bytes) -> Vec<u8> {
        let request = ExportTraceServiceRequest::decode(body).expect("an OTLP trace export");
        let spans = request
            .resource_spans
            .into_iter()
            .flat_map(|resource| resource.scope_spans)
            .flat_map(|scope| scope.spans);
        received.lock().unwrap().spans.extend(spans);
        Vec::new()
    }
    async fn metrics(State(received): State<Shared<Received>>, body: Bytes) -> Vec<u8> {
        let request = ExportMetricsServiceRequest::decode(body).expect("an OTLP metrics export");
        let names = request
            .resource_metrics
            .into_iter()
            .flat_map(|resource| resource.scope_metrics)
            .flat_map(|scope| scope.metrics)
            .map(|metric| metric.name);
        received.lock().unwrap().metric_names.extend(names);
        Vec::new()
    }
    serve(
        Router::new()
            .route("/v1/traces", post(traces))
            .route("/v1/metrics", post(metrics))
            .with_state(received),
    )
    .await
}

/// The Petstore API: `GET /pets` is busy (503) once, then answers; `GET
/// /pets/{id}` is 404. Every `traceparent` `GET /pets` is sent is kept.
async fn upstream(traceparents: Shared<Vec<String>>) -> String {
    async fn list(
        State(seen): State<Shared<Vec<String>>>,
        headers: HeaderMap,
    ) -> (axum::http::StatusCode, Json<Value>) {
        let mut seen = seen.lock().unwrap();
        let traceparent = headers
            .get("traceparent")
            .map(|value| value.to_str().unwrap());
        seen.push(traceparent.unwrap_or("(none)").to_owned());
        if seen.len() == 1 {
            let busy = json!({"message": "busy"});
            return (axum::http::StatusCode::SERVICE_UNAVAILABLE, Json(busy));
        }
        (
            axum::http::StatusCode::OK,
            Json(json!([{"id": 1, "name": "Rex"}])),
        )
    }
    async fn missing() -> (axum::http::StatusCode, Json<Value>) {
        let body = json!({"code": 404, "message": "no such pet"});
        (axum::http::StatusCode::NOT_FOUND, Json(body))
    }
    serve(
        Router::new()
            .route("/pets", get(list))
            .route("/pets/{id}", get(missing))
            .with_state(traceparents),
    )
    .await
}

/// The server process; killed on drop if it is still running.
type Served = ServerProcess;

fn start_server(api: &str, otlp: &str, metrics_port: u16) -> Served {
    let child = Command::new(env!("CARGO_BIN_EXE_mcp-server"))
        .args(["serve", "--transport", "http", "--bind", "127.0.0.1:0"])
        .args(["--openapi", PETSTORE, "--base-url", api])
        .args(["--metrics-bind", &format!("127.0.0.1:{metrics_port}")])
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp)
        .env("OTEL_SERVICE_NAME", "petstore-mcp")
        .env("OTEL_BSP_SCHEDULE_DELAY", "100")
        .env("OTEL_METRIC_EXPORT_INTERVAL", "200")
        .env("RUST_LOG", "error")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the server starts");
    ServerProcess::new(child)
}

/// Posts a JSON-RPC message in `session`; the JSON answer, from a JSON body
/// or the first SSE `data:` line that holds one.
async fn rpc(http: &reqwest::Client, url: &str, session: Option<&str>, message: Value) -> Value {
    let mut request = http
        .post(url)
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .json(&message);
    if let Some(session) = session {
        request = request
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", "2025-11-25");
    }
    let reply = request.send().await.unwrap();
    assert!(reply.status().is_success(), "{}", reply.status());
    let session = reply
        .headers()
        .get("mcp-session-id")
        .map(|value| value.to_str().unwrap().to_owned());
    let body = reply.text().await.unwrap();
    let mut answer = body
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .find_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
        .or_else(|| serde_json::from_str(&body).ok())
        .unwrap_or(Value::Null);
    if let Some(session) = session {
        answer["session"] = Value::String(session);
    }
    answer
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

fn attribute<'a>(span: &'a Span, key: &str) -> Option<&'a AnyValue> {
    span.attributes
        .iter()
        .find(|attribute| attribute.key == key)
        .and_then(|attribute| attribute.value.as_ref()?.value.as_ref())
}

fn string_attribute<'a>(span: &'a Span, key: &str) -> Option<&'a str> {
    match attribute(span, key)? {
        AnyValue::StringValue(value) => Some(value),
        _ => None,
    }
}

fn span_named<'a>(spans: &'a [Span], name: &str) -> &'a Span {
    let names: Vec<&str> = spans.iter().map(|span| span.name.as_str()).collect();
    spans
        .iter()
        .find(|span| span.name == name)
        .unwrap_or_else(|| panic!("no span `{name}` among {names:?}"))
}

/// One line of the Prometheus text format: a `# HELP`/`# TYPE` comment or
/// a sample `name{label="value",...} number`.
fn check_prometheus_line(line: &str) {
    let comment =
        regex::Regex::new(r"^# (HELP [a-zA-Z_:][a-zA-Z0-9_:]* .*|TYPE [a-zA-Z_:][a-zA-Z0-9_:]* (counter|gauge|histogram|summary|untyped))$")
            .unwrap();
    let sample = regex::Regex::new(
        r#"^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*",?)*\})? (-?[0-9.eE+-]+|\+Inf|-Inf|NaN)$"#,
    )
    .unwrap();
    assert!(
        comment.is_match(line) || sample.is_match(line),
        "not Prometheus text format: {line}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_generated_call_is_one_trace_from_the_client_to_the_upstream_api() {
    let received = Shared::<Received>::default();
    let traceparents = Shared::<Vec<String>>::default();
    let otlp = otlp_receiver(received.clone()).await;
    let api = upstream(traceparents.clone()).await;
    let metrics_port = crate::support::http::free_port();
    let mut server = start_server(&api, &otlp, metrics_port);
    let http = reqwest::Client::new();

    let initialized = rpc(
        &http,
        &server.url,
        None,
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "telemetry-test", "version": "0"}}}),
    )
    .await;
    let session = initialized["session"]
        .as_str()
        .expect("a session")
        .to_owned();
    let _ = rpc(
        &http,
        &server.url,
        Some(&session),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )
    .await;
    let listed = rpc(
        &http,
        &server.url,
        Some(&session),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "listPets", "arguments": {},
            "_meta": {"traceparent": format!("00-{TRACE_ID}-{CLIENT_SPAN_ID}-01")}}}),
    )
    .await;
    assert_eq!(
        listed["result"]["structuredContent"]["result"][0]["name"], "Rex",
        "{listed}"
    );
    assert_ne!(listed["result"]["isError"], Value::Bool(true), "{listed}");
    let missing = rpc(
        &http,
        &server.url,
        Some(&session),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "showPetById", "arguments": {"petId": "7"}}}),
    )
    .await;
    assert_eq!(missing["result"]["isError"], Value::Bool(true), "{missing}");
    let unknown = rpc(
        &http,
        &server.url,
        Some(&session),
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {
            "name": "noSuchTool", "arguments": {}}}),
    )
    .await;
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");

    // The Prometheus endpoint, while the server runs.
    let scraped = http
        .get(format!("http://127.0.0.1:{metrics_port}/metrics"))
        .send()
        .await
        .unwrap();
    assert_eq!(scraped.status(), 200);
    assert!(
        scraped.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain; version=0.0.4")
    );
    let text = scraped.text().await.unwrap();
    text.lines().for_each(check_prometheus_line);
    let sample = |prefix: &str, labels: &[&str]| {
        text.lines()
            .any(|line| line.starts_with(prefix) && labels.iter().all(|label| line.contains(label)))
    };
    assert!(
        sample(
            "mcp_server_tool_calls_total{",
            &[r#"gen_ai_tool_name="listPets""#]
        ),
        "{text}"
    );
    assert!(
        sample(
            "mcp_server_tool_calls_total{",
            &[
                r#"error_type="tool_error""#,
                r#"gen_ai_tool_name="showPetById""#
            ]
        ),
        "{text}"
    );
    assert!(
        sample(
            "mcp_server_requests_total{",
            &[r#"mcp_method_name="initialize""#]
        ),
        "{text}"
    );
    assert!(
        sample(
            "mcp_server_operation_duration_seconds_bucket{",
            &[r#"gen_ai_tool_name="listPets""#, r#"le="+Inf""#]
        ),
        "{text}"
    );
    assert!(
        sample(
            "mcp_server_requests_total{",
            &[r#"error_type="-32602""#, r#"mcp_method_name="tools/call""#]
        ),
        "{text}"
    );
    assert!(
        !text.contains("noSuchTool"),
        "a name the client chose became a series: {text}"
    );
    assert!(
        sample(
            "http_client_request_duration_seconds_count{",
            &[r#"url_template="/pets""#, r#"http_request_method="GET""#]
        ),
        "{text}"
    );

    // Exiting flushes what the exporters still hold.
    tokio::task::spawn_blocking(move || {
        stops_cleanly_on_sigterm(&mut server.child);
        drop(server);
    })
    .await
    .unwrap();

    let received = received.lock().unwrap();
    let spans = &received.spans;
    let call = span_named(spans, "tools/call listPets");
    assert_eq!(call.kind, SpanKind::Server as i32);
    assert_eq!(hex(&call.trace_id), TRACE_ID, "the client's trace");
    assert_eq!(
        hex(&call.parent_span_id),
        CLIENT_SPAN_ID,
        "the client's span"
    );
    assert_eq!(
        string_attribute(call, "mcp.method.name"),
        Some("tools/call")
    );
    assert_eq!(string_attribute(call, "gen_ai.tool.name"), Some("listPets"));
    assert_eq!(
        string_attribute(call, "mcp.session.id"),
        Some(session.as_str())
    );
    assert_eq!(string_attribute(call, "jsonrpc.request.id"), Some("2"));
    assert_eq!(string_attribute(call, "error.type"), None);

    let upstream = span_named(spans, "GET /pets");
    assert_eq!(upstream.kind, SpanKind::Client as i32);
    assert_eq!(upstream.trace_id, call.trace_id, "one trace");
    assert_eq!(upstream.parent_span_id, call.span_id, "a child of the call");
    assert_eq!(
        string_attribute(upstream, "http.request.method"),
        Some("GET")
    );
    assert_eq!(string_attribute(upstream, "url.template"), Some("/pets"));
    assert_eq!(
        attribute(upstream, "http.response.status_code"),
        Some(&AnyValue::IntValue(200))
    );
    assert_eq!(
        attribute(upstream, "http.request.resend_count"),
        Some(&AnyValue::IntValue(1)),
        "the 503 was retried once"
    );
    let sent = traceparents.lock().unwrap();
    let context = format!("00-{TRACE_ID}-{}-01", hex(&upstream.span_id));
    assert_eq!(
        *sent,
        [context.clone(), context],
        "the upstream span's context, sent upstream with each attempt"
    );

    let failed = span_named(spans, "tools/call showPetById");
    assert_eq!(string_attribute(failed, "error.type"), Some("tool_error"));
    assert_ne!(failed.trace_id, call.trace_id, "a trace of its own");
    assert!(failed.parent_span_id.is_empty(), "a root span");
    let lookup = span_named(spans, "GET /pets/{petId}");
    assert_eq!(lookup.parent_span_id, failed.span_id);
    assert_eq!(
        attribute(lookup, "http.response.status_code"),
        Some(&AnyValue::IntValue(404))
    );
    let initialize = span_named(spans, "initialize");
    assert_eq!(
        string_attribute(initialize, "mcp.method.name"),
        Some("initialize")
    );

    for name in [
        "mcp.server.operation.duration",
        "mcp.server.requests",
        "mcp.server.tool.calls",
        "http.client.request.duration",
    ] {
        assert!(
            received.metric_names.iter().any(|metric| metric == name),
            "no metric `{name}` among {:?}",
            received.metric_names
        );
    }
}
