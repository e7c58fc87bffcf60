//! Code mode through a real session: a hand-written and a generated tool
//! in one script, OAuth scopes inside a script, cancellation of a running
//! `execute`, and hostile scripts that each end in a clear error result
//! while the server keeps serving.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use mcp_core::auth::AuthInfo;
use mcp_core::tool::CallToolRequest;
use mcp_core::{JsonObject, RequestScope, ToolDef, tool};
use mcp_openapi::OpenApi;
use mcp_openapi::call::ClientConfig;
use mcp_server::{CodeMode, Server, ToolSource};
use serde_json::{Value, json};

use crate::support::Raw;

/// The time limit of the hostile scripts.
const LIMIT: Duration = Duration::from_secs(2);

/// Adds two integers (its input schema checks the types).
#[mcp_core::tool]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn echo() -> ToolDef {
    tool("echo")
        .description("Repeats its arguments.")
        .run(|args: JsonObject| async move { Value::Object(args).to_string() })
        .unwrap()
}

/// A tool counting its calls in `ticks`.
fn tick(ticks: Arc<AtomicUsize>) -> ToolDef {
    tool("tick")
        .description("Counts.")
        .run(move || {
            let ticks = ticks.clone();
            async move { ticks.fetch_add(1, Ordering::SeqCst).to_string() }
        })
        .unwrap()
}

fn code_mode() -> CodeMode {
    CodeMode::new().timeout(LIMIT).memory_limit(32 << 20)
}

/// Sends `execute` with `code` as request `id`, without waiting.
async fn start(raw: &mut Raw, id: i64, code: &str) {
    raw.send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "execute", "arguments": {"code": code}}}))
        .await;
}

fn text(response: &Value) -> String {
    response["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// A local Petstore upstream: `GET /pets` lists two pets.
async fn petstore_upstream() -> String {
    let app = axum::Router::new().route(
        "/pets",
        axum::routing::get(|| async {
            axum::Json(json!([{"id": 1, "name": "Rex"}, {"id": 2, "name": "Tom", "tag": "cat"}]))
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{address}")
}

fn petstore_tools(base_url: &str) -> Vec<ToolDef> {
    let api = OpenApi::from_path(testdata::openapi("petstore.yaml")).unwrap();
    let config = ClientConfig::builder().base_url(base_url).build().unwrap();
    api.generator()
        .generate()
        .unwrap()
        .tool_defs(&Arc::new(config))
        .unwrap()
}

#[tokio::test]
async fn one_script_chains_a_hand_written_and_a_generated_tool() {
    let upstream = petstore_upstream().await;
    let server = Server::builder()
        .tool(add_tool().unwrap())
        .source(ToolSource::new("petstore", petstore_tools(&upstream)))
        .code_mode(CodeMode::new())
        .build()
        .unwrap();
    let mut raw = Raw::new(server);
    raw.initialize_2025().await;
    let list = raw.request(1, "tools/list", json!({})).await;
    let names: Vec<&str> = list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["search_tools", "execute"]);
    assert!(list["result"].to_string().len() <= 4096);
    let code = "const pets = await tools.listPets({ limit: 2 });\n\
        const total = await tools.add({ a: pets.length, b: 40 });\n\
        console.log('pets', pets.length);\n\
        return { names: pets.map((pet) => pet.name), total };";
    start(&mut raw, 2, code).await;
    let answer = raw.response(2).await;
    let result = &answer["result"];
    assert_eq!(result["isError"], Value::Null, "{answer}");
    assert_eq!(
        result["structuredContent"],
        json!({"result": {"names": ["Rex", "Tom"], "total": 42}, "logs": ["pets 2"], "calls": 2})
    );
    assert_eq!(text(&answer), r#"{"names":["Rex","Tom"],"total":42}"#);
    // Every tool stays callable directly.
    let direct = raw
        .request(
            3,
            "tools/call",
            json!({"name": "add", "arguments": {"a": 1, "b": 2}}),
        )
        .await;
    assert_eq!(direct["result"]["structuredContent"], json!({"result": 3}));
}

#[tokio::test]
async fn a_tool_scope_the_token_lacks_is_refused_inside_a_script() {
    let admin = tool("purge")
        .description("Deletes everything.")
        .scopes(["admin"])
        .run(|| async { "purged" })
        .unwrap();
    let server = Server::builder()
        .tool(admin)
        .tool(echo())
        .code_mode(CodeMode::new())
        .build()
        .unwrap();
    let execute = server.tool("execute").unwrap();
    let run = |scope: &'static str, code: &'static str| {
        let execute = execute.clone();
        async move {
            let arguments = json!({"code": code}).as_object().cloned();
            let request = CallToolRequest::new("execute", arguments);
            let claims = json!({"sub": "ann", "scope": scope})
                .as_object()
                .cloned()
                .unwrap();
            let cx = execute.context(request, Arc::new(())).in_scope(
                RequestScope::new().authenticated(Arc::new(AuthInfo::from_claims(claims))),
            );
            execute.call(cx).await
        }
    };
    let denied = run(
        "mcp",
        "try { await tools.purge() } catch (e) { return e.message }",
    )
    .await;
    assert_eq!(
        denied.structured_content.unwrap()["result"],
        "insufficient scope: tool `purge` needs the OAuth scope `admin`, which this session's token lacks"
    );
    let uncaught = run("mcp", "await tools.echo({}); await tools.purge();").await;
    assert!(uncaught.is_error());
    assert!(
        uncaught
            .text_content()
            .contains("needs the OAuth scope `admin`")
    );
    let granted = run("mcp admin", "return await tools.purge()").await;
    assert_eq!(granted.structured_content.unwrap()["result"], "purged");
}

#[tokio::test]
async fn cancelling_execute_stops_the_script() {
    let ticks = Arc::new(AtomicUsize::new(0));
    let server = Server::builder()
        .tool(tick(ticks.clone()))
        .code_mode(CodeMode::new().max_calls(1_000_000))
        .build()
        .unwrap();
    let mut raw = Raw::new(server);
    raw.initialize_2025().await;
    start(&mut raw, 5, "for (;;) { await tools.tick() }").await;
    let started = Instant::now();
    while ticks.load(Ordering::SeqCst) < 10 {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the script never ran"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    raw.send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 5}}),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let after_cancel = ticks.load(Ordering::SeqCst);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        ticks.load(Ordering::SeqCst),
        after_cancel,
        "the script kept calling"
    );
    // The server goes on serving.
    let list = raw.request(6, "tools/list", json!({})).await;
    assert_eq!(list["result"]["tools"][1]["name"], "execute");
}

/// Each hostile script ends in an error result naming what happened within
/// the limit plus 3 s, while `tools/list` answers within 2 s.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_scripts_end_in_clear_errors_while_the_server_serves() {
    let ticks = Arc::new(AtomicUsize::new(0));
    let server = Server::builder()
        .tool(add_tool().unwrap())
        .tool(echo())
        .tool(tick(ticks))
        .code_mode(code_mode())
        .build()
        .unwrap();
    let mut raw = Raw::new(server);
    raw.initialize_2025().await;
    let cases: [(&str, &str); 14] = [
        ("for (;;) {}", "time limit of 2 s exceeded after 0 calls"),
        (
            "const hoard = []; for (;;) hoard.push('x'.repeat(4096) + hoard.length);",
            "memory limit of 32 MiB exceeded",
        ),
        (
            "const deeper = (n) => deeper(n + 1) + 1; return deeper(0);",
            "RangeError",
        ),
        ("await new Promise(() => {}); return 1;", "never settles"),
        (
            "for (let i = 0; i < 10000; i++) await tools.tick();",
            "call limit of 100 tool calls per run exceeded",
        ),
        ("return 'x'.repeat(64 * 1024 * 1024);", "limit of"),
        (
            "let deep = []; for (let i = 0; i < 1000; i++) deep = [deep]; return deep;",
            "cannot be read back as JSON",
        ),
        (
            "return await fetch('http://127.0.0.1:1/');",
            "fetch is not defined",
        ),
        ("return require('fs');", "require is not defined"),
        ("return process.env;", "process is not defined"),
        ("return std.getenv('HOME');", "std is not defined"),
        ("return await import('os');", "uncaught"),
        (
            "const a = 1;\nconst b = ;\nreturn a;",
            "SyntaxError at line 2",
        ),
        (
            "return await tools.ech({});",
            "unknown tool tools.ech; did you mean tools.echo",
        ),
    ];
    let mut id = 100;
    for (code, expected) in cases {
        id += 1;
        let started = Instant::now();
        start(&mut raw, id, code).await;
        let list = raw.request(id + 1000, "tools/list", json!({})).await;
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "tools/list took {:?} while running {code}",
            started.elapsed()
        );
        assert_eq!(list["result"]["tools"][0]["name"], "search_tools");
        let answer = raw.response(id).await;
        let took = started.elapsed();
        assert_eq!(answer["result"]["isError"], true, "{code} gave {answer}");
        assert!(
            text(&answer).contains(expected),
            "{code} gave {}",
            text(&answer)
        );
        assert!(
            took < LIMIT + Duration::from_secs(3),
            "{code} took {took:?}"
        );
    }
    // Bad arguments: the tool's own argument check, as an error to catch.
    start(
        &mut raw,
        1,
        "try { await tools.add({ a: 'one' }) } catch (e) { return e.message }",
    )
    .await;
    let bad = raw.response(1).await;
    let message = bad["result"]["structuredContent"]["result"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(message.contains('a') && message.contains("b"), "{message}");
    // Globals and prototypes do not carry into the next run.
    start(
        &mut raw,
        2,
        "globalThis.leak = 1; Object.prototype.polluted = 2; Array.prototype.map = null; return 0;",
    )
    .await;
    assert_eq!(
        raw.response(2).await["result"]["structuredContent"]["result"],
        0
    );
    start(
        &mut raw,
        3,
        "return [typeof leak, typeof {}.polluted, typeof [].map];",
    )
    .await;
    assert_eq!(
        raw.response(3).await["result"]["structuredContent"]["result"],
        json!(["undefined", "undefined", "function"])
    );
}
