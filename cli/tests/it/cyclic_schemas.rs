//! Documents whose schemas refer to themselves, through every keyword that
//! holds a subschema, and documents nested deep without a cycle: each one
//! served in plain mode, discovery and code mode, listed, searched with
//! `detail`, and called (directly, through `call_tool` and from a script),
//! with the inline profile, `fields` and a transform that trims results.
//! Every request ends in an answer or a clear error, and the server keeps
//! serving.

use std::sync::Arc;

use mcp_core::ToolDef;
use mcp_core::transform::from_tool;
use mcp_openapi::OpenApi;
use mcp_openapi::call::ClientConfig;
use mcp_openapi::schema::SchemaProfile;
use mcp_server::{CodeMode, Discovery, Server, ToolSource};
use serde_json::{Value, json};

use crate::support::Raw;

/// One schema shape: the component schemas, the one the operation uses, and
/// an argument value for it.
struct Case {
    name: &'static str,
    schemas: Value,
    entry: &'static str,
    argument: Value,
}

fn reference(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

/// A schema that refers to itself through each keyword, a JSON value, a
/// mutual cycle, a `$ref` chain, and deep nesting without a cycle.
fn cases() -> Vec<Case> {
    let me = |name: &str| reference(name);
    let mut cases = vec![
        Case {
            name: "items",
            schemas: json!({"Items": {"type": "array", "items": me("Items")}}),
            entry: "Items",
            argument: json!([[], [[]]]),
        },
        Case {
            name: "prefixItems",
            schemas: json!({"Prefix": {"type": "array", "prefixItems": [{"type": "string"}, me("Prefix")]}}),
            entry: "Prefix",
            argument: json!(["a", ["b"]]),
        },
        Case {
            name: "anyOf",
            schemas: json!({"AnyOf": {"anyOf": [{"type": "string"}, me("AnyOf")]}}),
            entry: "AnyOf",
            argument: json!("a"),
        },
        Case {
            name: "oneOf",
            schemas: json!({"OneOf": {"oneOf": [{"type": "integer"}, {"type": "array", "items": me("OneOf")}]}}),
            entry: "OneOf",
            argument: json!([1, [2]]),
        },
        Case {
            name: "allOf",
            schemas: json!({"AllOf": {"allOf": [me("AllOf")]}}),
            entry: "AllOf",
            argument: json!({"x": 1}),
        },
        Case {
            name: "additionalProperties",
            schemas: json!({"Map": {"type": "object", "additionalProperties": me("Map")}}),
            entry: "Map",
            argument: json!({"a": {"b": {}}}),
        },
        Case {
            name: "patternProperties",
            schemas: json!({"Pattern": {"type": "object", "patternProperties": {"^x": me("Pattern")}}}),
            entry: "Pattern",
            argument: json!({"x1": {"x2": {}}}),
        },
        Case {
            name: "not",
            schemas: json!({"Not": {"type": "object", "properties": {"n": {"not": me("Not")}}}}),
            entry: "Not",
            argument: json!({"n": 1}),
        },
        Case {
            name: "if/then/else",
            schemas: json!({"Cond": {"type": "object", "if": me("Cond"), "then": me("Cond"), "else": {"properties": {"e": me("Cond")}}}}),
            entry: "Cond",
            argument: json!({}),
        },
        Case {
            name: "contains",
            schemas: json!({"Contains": {"type": "array", "contains": me("Contains")}}),
            entry: "Contains",
            argument: json!([[[]]]),
        },
        Case {
            name: "dependentSchemas",
            schemas: json!({"Dependent": {"type": "object", "dependentSchemas": {"a": me("Dependent")}}}),
            entry: "Dependent",
            argument: json!({"b": 1}),
        },
        Case {
            name: "a property",
            schemas: json!({"Node": {"type": "object", "properties": {"value": {"type": "string"}, "next": me("Node")}}}),
            entry: "Node",
            argument: json!({"value": "a", "next": {"value": "b"}}),
        },
        Case {
            name: "a $ref chain",
            schemas: json!({"A": me("B"), "B": me("A")}),
            entry: "A",
            argument: json!(1),
        },
        Case {
            name: "a mutual cycle",
            schemas: json!({"A": {"type": "array", "items": me("B")}, "B": {"anyOf": [{"type": "boolean"}, me("A")]}}),
            entry: "A",
            argument: json!([true, [false]]),
        },
        Case {
            name: "a JSON value",
            schemas: json!({"Json": {"anyOf": [
                {"type": "string"}, {"type": "number"}, {"type": "boolean"}, {"type": "null"},
                {"type": "array", "items": me("Json")},
                {"type": "object", "additionalProperties": me("Json")}
            ]}}),
            entry: "Json",
            argument: json!({"a": [1, "b", null, {"c": true}]}),
        },
    ];
    cases.push(deep_chain());
    cases.push(deep_nesting());
    cases
}

/// 200 definitions, each an object holding the next: deep, no cycle.
fn deep_chain() -> Case {
    let mut schemas = serde_json::Map::new();
    for level in 0..200 {
        let next = if level == 199 {
            json!({"type": "string"})
        } else {
            reference(&format!("D{}", level + 1))
        };
        schemas.insert(
            format!("D{level}"),
            json!({"type": "object", "properties": {"child": next}, "anyOf": [{"required": ["child"]}, {}]}),
        );
    }
    Case {
        name: "200 definitions deep",
        schemas: Value::Object(schemas),
        entry: "D0",
        argument: json!({"child": {"child": {}}}),
    }
}

/// One schema nested 50 levels through alternating keywords: about 90
/// levels of JSON, near what a JSON parser reads of a document (128).
fn deep_nesting() -> Case {
    let mut schema = json!({"type": "string"});
    for level in 0..50 {
        schema = match level % 4 {
            0 => json!({"type": "array", "items": schema}),
            1 => json!({"anyOf": [schema, {"type": "null"}]}),
            2 => json!({"type": "object", "properties": {"inner": schema}}),
            _ => json!({"allOf": [schema]}),
        };
    }
    Case {
        name: "50 levels inline",
        schemas: json!({"Deep": schema}),
        entry: "Deep",
        argument: json!(null),
    }
}

/// An OpenAPI document with one operation taking the case's schema as its
/// body and a query parameter, and answering with it.
fn document(case: &Case, base_url: &str) -> Value {
    let entry = reference(case.entry);
    json!({
        "openapi": "3.1.0",
        "info": {"title": case.name, "version": "1"},
        "servers": [{"url": base_url}],
        "paths": {"/things": {"post": {
            "operationId": "createThing",
            "summary": "Create a thing",
            "parameters": [{"name": "filter", "in": "query", "schema": entry}],
            "requestBody": {"content": {"application/json": {"schema": {
                "type": "object", "properties": {"value": entry}}}}},
            "responses": {"200": {"description": "ok", "content": {"application/json": {
                "schema": entry}}}}
        }}},
        "components": {"schemas": case.schemas}
    })
}

/// A local upstream that answers every `POST /things` with `body`.
async fn upstream(body: Value) -> String {
    let app = axum::Router::new().route(
        "/things",
        axum::routing::post(move || {
            let body = body.clone();
            async move { axum::Json(body) }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{address}")
}

/// The tools of `document`: in the standard and the inline profile, with
/// `fields`, and a transform of the first that keeps one field of results.
fn tools(document: &Value, base_url: &str) -> Vec<ToolDef> {
    let api = OpenApi::from_value(document.clone()).expect("the document loads");
    let config = Arc::new(ClientConfig::builder().base_url(base_url).build().unwrap());
    let standard = api
        .generator()
        .result_fields(true)
        .generate()
        .expect("tools in the standard profile")
        .tool_defs(&config)
        .unwrap();
    let inline = api
        .generator()
        .profile(SchemaProfile::Inline)
        .mcp_names([("createThing", "inline_createThing")])
        .generate()
        .expect("tools in the inline profile")
        .tool_defs(&config)
        .unwrap();
    let trimmed = from_tool(standard[0].clone())
        .name("trimmed")
        .keep_fields(["value"])
        .build()
        .expect("the transform applies");
    standard
        .into_iter()
        .chain(inline)
        .chain([trimmed])
        .collect()
}

#[derive(Clone, Copy, Debug)]
enum Mode {
    Plain,
    Discovery,
    Code,
}

fn server(mode: Mode, tools: Vec<ToolDef>) -> Server {
    let builder = Server::builder().source(ToolSource::new("cyclic", tools));
    match mode {
        Mode::Plain => builder,
        Mode::Discovery => builder.discovery(Discovery::search()),
        Mode::Code => builder.code_mode(CodeMode::new()),
    }
    .build()
    .expect("the server builds")
}

/// Whether `response` is a result (possibly an error result with a text)
/// or a JSON-RPC error with a message: an answer either way.
fn answered(response: &Value) -> bool {
    let text = response["result"]["content"][0]["text"].as_str();
    let tools = response["result"]["tools"].as_array();
    let error = response["error"]["message"].as_str();
    text.is_some_and(|t| !t.is_empty()) || tools.is_some() || error.is_some_and(|e| !e.is_empty())
}

async fn serve_case(case: &Case, mode: Mode) {
    let base_url = upstream(case.argument.clone()).await;
    let document = document(case, &base_url);
    let mut raw = Raw::new(server(mode, tools(&document, &base_url)));
    raw.initialize_2025().await;
    let context = format!("{} in {mode:?} mode", case.name);
    let list = raw.request(1, "tools/list", json!({})).await;
    assert!(answered(&list), "{context}: tools/list: {list}");
    let mut calls = vec![
        json!({"name": "createThing", "arguments": {"value": case.argument, "filter": case.argument}}),
        json!({"name": "inline_createThing", "arguments": {"value": case.argument}}),
        json!({"name": "createThing", "arguments": {"value": case.argument, "fields": ["child"]}}),
        json!({"name": "trimmed", "arguments": {"value": case.argument}}),
    ];
    match mode {
        Mode::Plain => {}
        Mode::Discovery => {
            calls.push(json!({"name": "search_tools", "arguments": {"query": "create a thing", "detail": true}}));
            calls.push(json!({"name": "search_tools", "arguments": {"query": "thing"}}));
            calls.push(json!({"name": "call_tool", "arguments": {"name": "createThing", "arguments": {"value": case.argument}}}));
        }
        Mode::Code => {
            calls.push(json!({"name": "search_tools", "arguments": {"query": "create a thing", "detail": true}}));
            calls.push(json!({"name": "search_tools", "arguments": {"query": "thing"}}));
            let code = format!(
                "const a = await tools.createThing({{ value: {0} }});\n\
                 const b = await tools.trimmed({{ value: {0} }});\n\
                 return [a, b];",
                case.argument
            );
            calls.push(json!({"name": "execute", "arguments": {"code": code}}));
        }
    }
    for (id, call) in (2..).zip(calls) {
        let answer = raw.request(id, "tools/call", call.clone()).await;
        assert!(answered(&answer), "{context}: {call}: {answer}");
    }
    // The server still serves.
    let again = raw.request(100, "tools/list", json!({})).await;
    assert!(answered(&again), "{context}: the server stopped serving");
}

#[tokio::test]
async fn cyclic_and_deep_schemas_are_served_in_plain_mode() {
    for case in cases() {
        serve_case(&case, Mode::Plain).await;
    }
}

#[tokio::test]
async fn cyclic_and_deep_schemas_are_served_in_discovery_mode() {
    for case in cases() {
        serve_case(&case, Mode::Discovery).await;
    }
}

#[tokio::test]
async fn cyclic_and_deep_schemas_are_served_in_code_mode() {
    for case in cases() {
        serve_case(&case, Mode::Code).await;
    }
}
