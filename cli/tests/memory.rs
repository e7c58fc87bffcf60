//! What a server holds grows with its document, never with tools × shared
//! definitions: documents whose every operation reaches one graph of shared
//! definitions are generated, served in discovery and code mode, searched
//! (with each hit's whole input schema) and called, and the bytes the
//! process holds afterwards are counted by the allocator.
//!
//! The bytes each further operation adds must not grow with the size of
//! the graph it reaches. A test binary of its own: the count is of every
//! allocation of the process, so nothing else may run beside it.

use std::alloc::System;
use std::sync::Arc;

use cap::Cap;
use mcp_core::tool::CallToolRequest;
use mcp_openapi::OpenApi;
use mcp_openapi::call::ClientConfig;
use mcp_server::{CodeMode, Discovery, Server, ToolSource};
use serde_json::{Map, Value, json};

#[global_allocator]
static ALLOCATOR: Cap<System> = Cap::new(System, usize::MAX);

/// A document of `operations` operations whose bodies and answers (ten
/// kinds of them) all reach `definitions` shared definitions (a cyclic
/// graph from `D0`).
fn document(operations: usize, definitions: usize) -> Value {
    let reference =
        |index: usize| json!({"$ref": format!("#/components/schemas/D{}", index % definitions)});
    let schemas: Map<String, Value> = (0..definitions)
        .map(|index| {
            let schema = json!({
                "type": "object",
                "description": format!("Definition {index}, one of a graph every operation reaches."),
                "properties": {
                    "name": {"type": "string", "description": "What the item is called."},
                    "next": reference(index + 1),
                    "other": reference(2 * index + 1)
                }
            });
            (format!("D{index}"), schema)
        })
        .collect();
    let paths: Map<String, Value> = (0..operations)
        .map(|index| {
            let operation = json!({"post": {
                "operationId": format!("createThing{index}"),
                "summary": format!("Create a thing of kind {index}"),
                "tags": [format!("kind{}", index % 20)],
                "parameters": [{"name": "dryRun", "in": "query", "schema": {"type": "boolean"}}],
                "requestBody": {"content": {"application/json": {"schema": {
                    "type": "object", "properties": {"item": reference(0)}}}}},
                "responses": {"200": {"description": "The thing", "content": {"application/json": {
                    "schema": reference(index % 10)}}}}
            }});
            (format!("/things{index}"), operation)
        })
        .collect();
    json!({
        "openapi": "3.1.0",
        "info": {"title": "graph", "version": "1"},
        "servers": [{"url": "http://127.0.0.1:9"}],
        "paths": paths,
        "components": {"schemas": schemas}
    })
}

/// What the process holds of servers of `document` in discovery and code
/// mode, once each has been searched and called.
fn held_bytes(operations: usize, definitions: usize) -> usize {
    let text = serde_json::to_vec(&document(operations, definitions)).expect("a document");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let before = ALLOCATOR.allocated();
    let api = OpenApi::from_slice(&text).expect("the document loads");
    drop(text);
    let config = Arc::new(ClientConfig::builder().build().expect("a client"));
    let tools = api
        .generator()
        .generate()
        .expect("tools")
        .tool_defs(&config)
        .expect("tool definitions");
    drop(api);
    let discovery = Server::builder()
        .source(ToolSource::new("graph", tools.clone()))
        .discovery(Discovery::search())
        .build()
        .expect("a discovery server");
    let code_mode = Server::builder()
        .source(ToolSource::new("graph", tools))
        .code_mode(CodeMode::new())
        .build()
        .expect("a code-mode server");
    runtime.block_on(async {
        for server in [&discovery, &code_mode] {
            let search = server.tool("search_tools").expect("search_tools");
            let arguments = json!({"query": "create a thing", "detail": true});
            let request = CallToolRequest::new("search_tools", arguments.as_object().cloned());
            let answer = search.call(search.context(request, Arc::new(()))).await;
            assert!(!answer.is_error(), "{}", answer.text_content());
            // A call checks its arguments (the upstream is not there).
            let tool = server.tool("createThing1").expect("a generated tool");
            let arguments = json!({"item": {"name": 3}});
            let request = CallToolRequest::new("createThing1", arguments.as_object().cloned());
            let answer = tool.call(tool.context(request, Arc::new(()))).await;
            assert!(
                answer.text_content().contains("/item/name"),
                "{}",
                answer.text_content()
            );
        }
    });
    let held = ALLOCATOR.allocated().saturating_sub(before);
    drop((discovery, code_mode));
    held
}

#[test]
fn held_memory_grows_with_operations_plus_definitions_not_their_product() {
    let (few, many) = (300, 1_200);
    // What the process makes once and keeps (the word tables of search, the
    // runtime's), made before anything is counted.
    held_bytes(10, 5);
    let per_operation = |definitions: usize| {
        let small = held_bytes(few, definitions);
        let large = held_bytes(many, definitions);
        large.saturating_sub(small) / (many - few)
    };
    let narrow = per_operation(20);
    let wide = per_operation(500);
    eprintln!("bytes held per operation: {narrow} reaching 20 definitions, {wide} reaching 500");
    // Kept per tool, 480 more definitions would cost tens of kilobytes per
    // operation (a compiled check, a declaration or a copy of each).
    assert!(
        wide < narrow + narrow / 4,
        "an operation reaching 500 definitions costs {wide} bytes, one reaching 20 {narrow}"
    );
}
