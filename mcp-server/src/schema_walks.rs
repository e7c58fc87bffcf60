//! Every reader of schemas, on random schemas that refer to themselves
//! through random keywords: generation in both profiles (with `fields` and
//! output budgets), the argument check, result trimming, discovery's index
//! text and compact schemas, and code mode's declarations. Each must end,
//! without exhausting the stack of a test thread, and say something of
//! every argument.

use std::sync::Arc;

use mcp_core::arguments::ArgumentCheck;
use mcp_core::tool;
use mcp_core::transform::from_tool;
use mcp_openapi::OpenApi;
use mcp_openapi::call::ClientConfig;
use mcp_openapi::schema::SchemaProfile;
use proptest::prelude::*;
use serde_json::{Map, Value, json};

use crate::code_mode::typescript::declaration;
use crate::discovery::compact::compact_schema;
use crate::discovery::document::ToolText;
use crate::discovery::toolsets::Toolsets;

/// How many component schemas a document has at most.
const DEFINITIONS: usize = 5;

/// A reference to component schema `index`.
fn reference(index: usize) -> Value {
    json!({"$ref": format!("#/components/schemas/D{index}")})
}

/// A leaf schema: a type, anything, nothing, or a reference.
fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!({"type": "string"})),
        Just(json!({"type": "integer"})),
        Just(json!({"type": "object"})),
        Just(json!({})),
        Just(json!(true)),
        (0..DEFINITIONS).prop_map(reference),
        (0..DEFINITIONS).prop_map(reference),
    ]
}

/// A schema whose subschemas sit under one random keyword (or two, for
/// the pairs), around `inner`.
fn applied(inner: BoxedStrategy<Value>) -> impl Strategy<Value = Value> {
    let pair = (inner.clone(), inner.clone());
    prop_oneof![
        pair.clone()
            .prop_map(|(a, b)| json!({"type": "object", "properties": {"a": a, "b": b}})),
        inner
            .clone()
            .prop_map(|a| json!({"type": "array", "items": a})),
        pair.clone()
            .prop_map(|(a, b)| json!({"prefixItems": [a, b]})),
        inner
            .clone()
            .prop_map(|a| json!({"type": "object", "additionalProperties": a})),
        inner
            .clone()
            .prop_map(|a| json!({"patternProperties": {"^x": a}})),
        pair.clone().prop_map(|(a, b)| json!({"anyOf": [a, b]})),
        pair.clone().prop_map(|(a, b)| json!({"oneOf": [a, b]})),
        pair.clone().prop_map(|(a, b)| json!({"allOf": [a, b]})),
        inner.clone().prop_map(|a| json!({"not": a})),
        pair.clone()
            .prop_map(|(a, b)| json!({"if": a, "then": b, "else": {"properties": {"e": b}}})),
        inner.clone().prop_map(|a| json!({"contains": a})),
        inner
            .clone()
            .prop_map(|a| json!({"dependentSchemas": {"a": a}})),
        inner.prop_map(|a| json!({"propertyNames": a, "unevaluatedProperties": a})),
    ]
}

/// A schema tree a few levels deep of random keywords over leaves.
fn schema() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(3, 24, 2, |inner| applied(inner.boxed()))
}

/// A document whose one operation takes `D0` as its body's `value` and
/// `D1` as a query parameter, and answers with `D2` (or a list of them).
fn document() -> impl Strategy<Value = Value> {
    (
        proptest::collection::vec(schema(), DEFINITIONS),
        any::<bool>(),
    )
        .prop_map(|(definitions, list)| {
            let schemas: Map<String, Value> = definitions
                .into_iter()
                .enumerate()
                .map(|(index, schema)| (format!("D{index}"), schema))
                .collect();
            let answer = if list {
                json!({"type": "array", "items": reference(2)})
            } else {
                reference(2)
            };
            json!({
                "openapi": "3.1.0",
                "info": {"title": "walks", "version": "1"},
                "paths": {"/things": {"post": {
                    "operationId": "createThing",
                    "parameters": [{"name": "filter", "in": "query", "schema": reference(1)}],
                    "requestBody": {"content": {"application/json": {"schema": {
                        "type": "object", "properties": {"value": reference(0)}}}}},
                    "responses": {"200": {"description": "ok", "content": {
                        "application/json": {"schema": answer}}}}
                }}},
                "components": {"schemas": schemas}
            })
        })
}

/// Runs every schema reader on the tools of `document`.
fn read_everything(document: Value) -> Result<(), TestCaseError> {
    let api = OpenApi::from_value(document).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let config = Arc::new(
        ClientConfig::builder()
            .base_url("http://127.0.0.1:9")
            .build()
            .map_err(|e| TestCaseError::fail(e.to_string()))?,
    );
    let mut defs: Vec<mcp_core::ToolDef> = Vec::new();
    for generator in [
        api.generator().result_fields(true),
        api.generator().output_budget(Some(200)),
        api.generator().profile(SchemaProfile::Inline),
    ] {
        let Ok(generated) = generator.generate() else {
            continue;
        };
        defs.extend(generated.tool_defs(&config).unwrap_or_default());
    }
    prop_assert!(!defs.is_empty(), "no tools generated");
    let toolsets = Toolsets::default();
    for def in &defs {
        let tool = def.tool();
        let text = ToolText::of(tool, 0, &toolsets);
        prop_assert!(!text.fields[0].is_empty());
        let compact = compact_schema(&tool.input_schema, 900);
        for name in tool.input_schema.root()["properties"]
            .as_object()
            .into_iter()
            .flat_map(|properties| properties.keys())
        {
            prop_assert!(
                compact["properties"].get(name).is_some()
                    || compact["description"]
                        .as_str()
                        .is_some_and(|d| d.contains(name.as_str())),
                "the compact schema leaves out `{name}`: {compact}"
            );
        }
        let declared = declaration(tool, "createThing");
        prop_assert!(declared.starts_with("createThing(") || declared.contains("\ncreateThing("));
        if let Ok(check) = ArgumentCheck::new(&tool.input_schema) {
            let arguments = json!({"value": {"a": [1, "x", {"b": null}]}, "filter": "x"});
            let _ = check.check(&tool.name, arguments.as_object().cloned());
        }
        if tool.output_schema.is_some() {
            let _ = from_tool(def.clone()).keep_fields(["a", "b"]).build();
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn every_schema_reader_ends_on_self_referring_schemas(document in document()) {
        read_everything(document)?;
    }
}

/// The hand-written tool path: a tool whose own input schema refers to
/// itself goes through the same readers.
#[test]
fn a_hand_written_self_referring_schema_is_read() {
    let schema = json!({
        "type": "object",
        "properties": {"tree": {"$ref": "#/$defs/Tree"}},
        "$defs": {"Tree": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"$ref": "#/$defs/Tree"}}, {"allOf": [{"$ref": "#/$defs/Tree"}]}]}}
    });
    let def: mcp_core::ToolDef = tool("grow")
        .input_schema(schema.as_object().cloned().unwrap_or_default())
        .run(|_: Map<String, Value>| async { "" })
        .expect("the tool builds");
    let text = ToolText::of(def.tool(), 0, &Toolsets::default());
    assert!(text.fields[7].contains("tree"));
    assert_eq!(
        compact_schema(&def.tool().input_schema, 900)["properties"]["tree"]["type"],
        json!(["string", "array"])
    );
    assert!(declaration(def.tool(), "grow").contains("type Tree = string | Tree[];"));
}
