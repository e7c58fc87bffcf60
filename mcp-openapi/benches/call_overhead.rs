//! Overhead of a generated tool call over a direct `reqwest` call to the
//! same local upstream, in the same run.
//!
//! `cargo bench -p mcp-openapi --bench call_overhead` prints the mean time
//! per call of each and their ratio. The direct call sends the same GET and
//! parses the JSON body; the tool call adds argument validation, request
//! building, response mapping (`structuredContent` + text) and redaction.
//!
//! Without `--bench` (as `cargo test --benches` runs it) it is a smoke test:
//! a few calls of each, nothing timed.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Json;
use axum::routing::get;
use mcp_core::ToolDef;
use mcp_openapi::{
    ClientConfig,
    call::{Credentials, HttpToolHandler},
    ir::{HttpRoute, RequestBinding},
};
use serde_json::{Value, json};

/// Calls per round and rounds: `(3000, 5)` measured, `(20, 1)` as a smoke test.
fn sizes() -> (u32, usize) {
    if std::env::args().any(|a| a == "--bench") {
        (3_000, 5)
    } else {
        (20, 1)
    }
}

fn route() -> HttpRoute {
    let parameter = |name: &str, location: &str| {
        json!({
            "name": name, "location": location, "required": location == "path",
            "style": if location == "path" { "simple" } else { "form" }, "explode": location != "path",
            "allow_reserved": false, "schema": {"type": "integer"}, "description": null,
            "deprecated": false, "content_type": null
        })
    };
    let route = json!({
        "method": "GET", "path": "/pets/{petId}", "pointer": "#/paths/~1pets~1{petId}/get",
        "operation_id": "getPet", "summary": null, "description": null, "tags": [], "deprecated": false,
        "parameters": [parameter("petId", "path"), parameter("limit", "query")], "request_body": null,
        "responses": [], "security": [], "servers": [], "extensions": {}
    });
    serde_json::from_value(route).unwrap_or_else(|e| panic!("route: {e}"))
}

fn tool(base: &str) -> ToolDef {
    let binding: RequestBinding = serde_json::from_value(json!({
        "arguments": [
            {"property": "petId", "target": {"Parameter": 0}},
            {"property": "limit", "target": {"Parameter": 1}}
        ],
        "body_media_type": null, "output_wrapped": false
    }))
    .unwrap_or_else(|e| panic!("binding: {e}"));
    let input = json!({
        "type": "object",
        "properties": {"petId": {"type": "integer"}, "limit": {"type": "integer", "minimum": 1}},
        "required": ["petId"]
    });
    let output = json!({"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}});
    let config = ClientConfig::builder()
        .base_url(base)
        .credentials(Credentials::new())
        .build()
        .unwrap_or_else(|e| panic!("config: {e}"));
    let tool = mcp_core::tool("get_pet")
        .input_schema(input.as_object().cloned().unwrap_or_default())
        .output_schema(output.as_object().cloned().unwrap_or_default())
        .build()
        .unwrap_or_else(|e| panic!("tool: {e}"));
    ToolDef::new(
        tool,
        HttpToolHandler::new(Arc::new(route()), binding, Arc::new(config)),
    )
    .unwrap_or_else(|e| panic!("tool def: {e}"))
}

async fn direct(client: &reqwest::Client, base: &str, calls: u32) -> Duration {
    let started = Instant::now();
    for _ in 0..calls {
        let response = client
            .get(format!("{base}/pets/7?limit=3"))
            .send()
            .await
            .unwrap_or_else(|e| panic!("direct: {e}"));
        let body = response
            .bytes()
            .await
            .unwrap_or_else(|e| panic!("direct body: {e}"));
        let value: Value =
            serde_json::from_slice(&body).unwrap_or_else(|e| panic!("direct json: {e}"));
        assert_eq!(value["id"], 7);
    }
    started.elapsed()
}

async fn generated(tool: &ToolDef, calls: u32) -> Duration {
    let started = Instant::now();
    for _ in 0..calls {
        let result = tool.call_detached(json!({"petId": 7, "limit": 3})).await;
        assert_eq!(
            result.structured_content.as_ref().map(|v| &v["id"]),
            Some(&json!(7))
        );
    }
    started.elapsed()
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap_or_else(|e| panic!("runtime: {e}"));
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .unwrap_or_else(|e| panic!("bind: {e}"));
        let base = format!(
            "http://{}",
            listener
                .local_addr()
                .unwrap_or_else(|e| panic!("addr: {e}"))
        );
        let app = axum::Router::new().route(
            "/pets/{id}",
            get(
                |axum::extract::Path(id): axum::extract::Path<u64>| async move {
                    Json(json!({"id": id, "name": "Rex", "tag": "dog"}))
                },
            ),
        );
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        // The generated tool's configuration installs the TLS crypto
        // provider a reqwest client needs: made first.
        let tool = tool(&base);
        let client = reqwest::Client::new();
        // Warm both connection pools and caches.
        let (calls, rounds) = sizes();
        direct(&client, &base, calls).await;
        generated(&tool, calls).await;
        if rounds == 1 {
            println!("call_overhead smoke test: {calls} calls each, ok");
            return;
        }
        let (mut direct_best, mut tool_best) = (Duration::MAX, Duration::MAX);
        for _ in 0..rounds {
            direct_best = direct_best.min(direct(&client, &base, calls).await);
            tool_best = tool_best.min(generated(&tool, calls).await);
        }
        let per_call = |d: Duration| d.as_secs_f64() * 1e9 / f64::from(calls);
        println!(
            "{}",
            json!({
                "bench": "call_overhead",
                "calls": calls,
                "rounds": rounds,
                "direct_ns_per_call": per_call(direct_best),
                "tool_ns_per_call": per_call(tool_best),
                "ratio": tool_best.as_secs_f64() / direct_best.as_secs_f64(),
            })
        );
    });
}
