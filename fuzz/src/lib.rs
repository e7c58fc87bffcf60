//! What the fuzz targets share: a small OpenAPI document, a few tools, a
//! server built of them, and one runtime that drives its sessions.
//!
//! Each target in `fuzz_targets/` feeds arbitrary bytes to one parser of
//! untrusted input; `cargo xtask fuzz` seeds and runs them all.

use std::path::PathBuf;
use std::sync::LazyLock;
use std::time::Duration;

use axum::Router;
use mcp_core::ToolDef;
use mcp_core::resource::{ResourceDef, ResourceRequest, resource, resource_template};
use mcp_core::tool;
use mcp_server::{HttpConfig, Server};
use serde_json::{Map, Value, json};
use tower::ServiceExt;

/// A small OpenAPI 3.1 document: path, query and body parameters, a `$ref`,
/// tags, and a security scheme.
pub const SMALL_DOCUMENT: &str = r##"{
  "openapi": "3.1.0",
  "info": {"title": "pets", "version": "1"},
  "servers": [{"url": "http://127.0.0.1:9/v1"}],
  "components": {
    "schemas": {"Pet": {"type": "object", "required": ["name"],
      "properties": {"name": {"type": "string"}, "tag": {"type": ["string", "null"]}}}},
    "securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-Key"}}
  },
  "security": [{"key": []}],
  "paths": {
    "/pets": {
      "get": {"operationId": "listPets", "tags": ["pets"],
        "parameters": [{"name": "limit", "in": "query", "schema": {"type": "integer"}}],
        "responses": {"200": {"description": "ok", "content": {"application/json":
          {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Pet"}}}}}}},
      "post": {"operationId": "createPet", "tags": ["pets", "admin"],
        "requestBody": {"required": true, "content": {"application/json":
          {"schema": {"$ref": "#/components/schemas/Pet"}}}},
        "responses": {"201": {"description": "made"}}}
    },
    "/pets/{petId}": {
      "parameters": [{"name": "petId", "in": "path", "required": true, "schema": {"type": "string"}}],
      "get": {"operationId": "showPet", "tags": ["pets"],
        "responses": {"200": {"description": "ok", "content": {"application/json":
          {"schema": {"$ref": "#/components/schemas/Pet"}}}}}},
      "delete": {"operationId": "deletePet", "responses": {"204": {"description": "gone"}}}
    }
  }
}"##;

/// [`SMALL_DOCUMENT`] as a JSON value.
pub fn small_document() -> Value {
    serde_json::from_str(SMALL_DOCUMENT).unwrap_or(Value::Null)
}

/// A few tools: one with typed arguments, one without.
pub fn tools() -> Vec<ToolDef> {
    let schema = json!({
        "type": "object",
        "properties": {
            "text": {"type": "string", "description": "What to echo."},
            "count": {"type": "integer", "minimum": 0, "maximum": 5}
        },
        "required": ["text"]
    });
    let Value::Object(schema) = schema else {
        return Vec::new();
    };
    let echo = tool("echo")
        .description("Echoes its text.")
        .input_schema(schema)
        .run(|args: Map<String, Value>| async move { Value::Object(args).to_string() });
    let ping = tool("ping")
        .description("Answers pong.")
        .run(|| async { "pong" });
    [echo, ping].into_iter().filter_map(Result::ok).collect()
}

/// A static resource and a resource template.
fn resources() -> Vec<ResourceDef> {
    let note = resource("file:///notes/readme", "readme").read(|| async { "read me" });
    let log = resource_template("file:///logs/{date}/{+path}{?lines,level}", "log").read(
        |request: ResourceRequest| async move {
            format!(
                "{:?} {:?}",
                request.variable("date"),
                request.variable("path")
            )
        },
    );
    [note, log].into_iter().filter_map(Result::ok).collect()
}

/// A server of [`tools`] and the resources.
fn server() -> Option<Server> {
    Server::builder()
        .name("fuzz")
        .tools(tools())
        .resources(resources())
        .build()
        .ok()
}

/// The runtime every target runs its futures on.
static RUNTIME: LazyLock<tokio::runtime::Runtime> = LazyLock::new(|| {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|error| panic!("cannot start a tokio runtime: {error}"))
});

/// Runs `future` to completion on the shared runtime.
pub fn block_on<F: Future>(future: F) -> F::Output {
    RUNTIME.block_on(future)
}

/// A file of this process's own under the temporary directory.
pub fn scratch_file(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("mcp-fuzz-{}-{name}", std::process::id()))
}

/// Serves one stdio session whose client wrote `input`, until it ends.
pub fn serve_stdio(input: &[u8]) {
    let Some(server) = server() else {
        return;
    };
    let reader = std::io::Cursor::new(input.to_vec());
    block_on(async move {
        let _ = server.serve_io(reader, tokio::io::sink()).await;
    });
}

/// The HTTP endpoint of the fuzz server: stateless, or with sessions.
static ROUTERS: LazyLock<Option<(Router, Router)>> = LazyLock::new(|| {
    block_on(async {
        let stateless = server()?.router(&HttpConfig::new().stateless(true)).ok()?;
        let stateful = server()?.router(&HttpConfig::new()).ok()?;
        Some((stateless, stateful))
    })
});

/// The most bytes of a response body read.
const RESPONSE_LIMIT: usize = 1 << 20;
/// Longer than any answer of the fuzz server takes.
const ANSWER_TIME: Duration = Duration::from_secs(5);

/// POSTs `body` to `/mcp`: `mode`'s low bit picks the stateful endpoint,
/// where the body is sent in a freshly initialized session (its next bit
/// leaves the session id out), and the session is ended afterwards.
pub fn post_mcp(mode: u8, body: &[u8]) {
    let Some((stateless, stateful)) = ROUTERS.as_ref() else {
        return;
    };
    block_on(async {
        if mode & 1 == 0 {
            send(stateless, "POST", None, body.to_vec()).await;
            return;
        }
        let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "fuzz", "version": "1"}}});
        let Some(session) = send(stateful, "POST", None, initialize.to_string().into_bytes()).await
        else {
            return;
        };
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        send(
            stateful,
            "POST",
            Some(&session),
            initialized.to_string().into_bytes(),
        )
        .await;
        let id = (mode & 2 == 0).then_some(session.as_str());
        send(stateful, "POST", id, body.to_vec()).await;
        send(stateful, "DELETE", Some(&session), Vec::new()).await;
    });
}

/// Sends one request and reads its answer; the session id it names, if any.
async fn send(
    router: &Router,
    method: &str,
    session: Option<&str>,
    body: Vec<u8>,
) -> Option<String> {
    let mut request = http::Request::builder()
        .method(method)
        .uri("/mcp")
        .header("host", "localhost")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-11-25");
    if let Some(session) = session {
        request = request.header("mcp-session-id", session);
    }
    let request = request.body(axum::body::Body::from(body)).ok()?;
    let response = router.clone().oneshot(request).await.ok()?;
    let session = response
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let read = axum::body::to_bytes(response.into_body(), RESPONSE_LIMIT);
    match tokio::time::timeout(ANSWER_TIME, read).await {
        Ok(_) => session,
        Err(_) => panic!("the endpoint did not finish its answer within {ANSWER_TIME:?}"),
    }
}

/// A search of every kind a client makes in discovery and code mode: the
/// categories, then a query with each result's whole input schema.
const SEARCH_SESSION: [&str; 5] = [
    r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
    r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_tools","arguments":{"categories":true}}}"#,
    r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"search_tools","arguments":{"query":"list create get update delete","limit":50,"detail":true}}}"#,
];

/// Serves the tools of the OpenAPI document `document` (if it loads) in
/// discovery mode and in code mode, and searches each as [`SEARCH_SESSION`]
/// does: the discovery index and the TypeScript declarations are made of
/// whatever schemas the document holds.
pub fn search_modes(document: &[u8]) {
    let Ok(api) = mcp_openapi::OpenApi::from_slice(document) else {
        return;
    };
    let Ok(tools) = api.tools() else {
        return;
    };
    let defs: Vec<ToolDef> = tools
        .into_iter()
        .filter_map(|generated| {
            let def = tool(generated.name.clone())
                .run(|_: Map<String, Value>| async { "" })
                .ok()?;
            Some(def.map_tool(|value| *value = generated))
        })
        .collect();
    let discovery = Server::builder()
        .tools(defs.clone())
        .discovery(mcp_server::Discovery::search())
        .build();
    let code_mode = Server::builder()
        .tools(defs)
        .code_mode(mcp_server::CodeMode::new())
        .build();
    for server in [discovery, code_mode].into_iter().filter_map(Result::ok) {
        block_on(search(server));
    }
}

/// Runs [`SEARCH_SESSION`] against `server` until its last answer.
async fn search(server: Server) {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let (reader, writer) = tokio::io::split(server_end);
    let serving = tokio::spawn(async move { server.serve_io(reader, writer).await });
    let (client_reader, mut client_writer) = tokio::io::split(client_end);
    let session = async move {
        for message in SEARCH_SESSION {
            client_writer.write_all(message.as_bytes()).await.ok()?;
            client_writer.write_all(b"\n").await.ok()?;
        }
        let mut lines = BufReader::new(client_reader).lines();
        while let Some(line) = lines.next_line().await.ok()? {
            let answer: Value = serde_json::from_str(&line).ok()?;
            if answer["id"] == 4 {
                return Some(client_writer);
            }
        }
        None
    };
    match tokio::time::timeout(ANSWER_TIME * 4, session).await {
        Ok(writer) => drop(writer),
        Err(_) => panic!("the search was not answered within {:?}", ANSWER_TIME * 4),
    }
    serving.abort();
}
