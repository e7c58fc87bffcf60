//! Output schemas on a budget: trimming only loosens (checked on small
//! schemas and on GitHub's response examples), and the corpus's largest
//! documents fit the sizes clients can take.

use std::collections::HashMap;
use std::sync::Arc;

use mcp_openapi::generate::{TOOL_SIZE_LIMIT, tool_stats, trimmed_output_schema};
use mcp_openapi::{ClientConfig, OpenApi};
use serde_json::{Map, Value, json};

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

fn len(value: &impl serde::Serialize) -> usize {
    serde_json::to_vec(value).unwrap().len()
}

fn valid(schema: &Map<String, Value>, instance: &Value) -> bool {
    jsonschema::validator_for(&Value::Object(schema.clone()))
        .unwrap()
        .is_valid(instance)
}

/// An object definition about `bytes` long (a long property name: trimming
/// never shortens names, only descriptions).
fn padded(bytes: usize) -> Value {
    let mut properties = Map::new();
    properties.insert("x".repeat(bytes), json!({"type": "string"}));
    properties.insert("id".to_owned(), json!({"type": "string"}));
    json!({"type": "object", "properties": properties})
}

#[test]
fn a_schema_within_budget_is_left_alone() {
    let schema = object(json!({"type": "object", "properties": {"id": {"type": "string"}}}));
    assert_eq!(trimmed_output_schema(&schema, 1000), None);
}

#[test]
fn expandable_unions_become_a_string_or_an_object_and_unreached_defs_go() {
    let schema = object(json!({
        "type": "object",
        "required": ["customer"],
        "properties": {
            "customer": {
                "description": "The customer.",
                "anyOf": [
                    {"anyOf": [{"type": "string", "maxLength": 5000}, {"$ref": "#/$defs/customer"}, {"$ref": "#/$defs/deleted_customer"}]},
                    {"type": "null"}
                ]
            },
            "kind": {"oneOf": [{"type": "string"}, {"type": "integer"}]}
        },
        "$defs": {"customer": padded(500), "deleted_customer": padded(500)}
    }));
    let trimmed = trimmed_output_schema(&schema, 600).unwrap();
    assert_eq!(
        Value::Object(trimmed),
        json!({
            "type": "object",
            "required": ["customer"],
            "properties": {
                "customer": {
                    "description": "The customer.",
                    "anyOf": [
                        {
                            "anyOf": [{"type": "string"}, {"type": "object"}],
                            "description": "Expandable `customer` or `deleted_customer`: its ID, or the object when expanded."
                        },
                        {"type": "null"}
                    ]
                },
                "kind": {"anyOf": [{"type": "string"}, {"type": "integer"}]}
            }
        })
    );
}

#[test]
fn definitions_that_do_not_fit_become_their_type_and_name_breadth_first() {
    let schema = object(json!({
        "type": "object",
        "properties": {
            "near": {"$ref": "#/$defs/near"},
            "list": {"type": "array", "items": {"$ref": "#/$defs/big"}},
            "status": {"$ref": "#/$defs/status"}
        },
        "$defs": {
            "near": {"type": "object", "properties": {"far": {"$ref": "#/$defs/far"}}},
            "far": padded(300),
            "big": padded(2000),
            "status": {"type": "string", "enum": ["a", "b", "y".repeat(400)]}
        }
    }));
    let trimmed = trimmed_output_schema(&schema, 800).unwrap();
    assert!(len(&trimmed) <= 800, "{}", len(&trimmed));
    let defs = trimmed["$defs"].as_object().unwrap();
    // Breadth first: `near` fits, `big` does not, `status` does, and then
    // `far` (one level deeper) no longer does.
    assert_eq!(defs.keys().collect::<Vec<_>>(), ["near", "status"]);
    assert_eq!(
        defs["near"]["properties"]["far"],
        json!({"type": "object", "description": "A `far` (not detailed in this schema)."})
    );
    assert_eq!(
        trimmed["properties"]["list"],
        json!({"type": "array", "items": {"type": "object", "description": "A `big` (not detailed in this schema)."}})
    );
    for instance in [
        json!({"near": {"far": {"id": "1"}}, "list": [{"id": "2"}], "status": "a"}),
        json!({"list": [{}], "status": "b"}),
    ] {
        assert!(valid(&schema, &instance) && valid(&trimmed, &instance));
    }
}

#[test]
fn a_root_too_large_alone_keeps_its_properties_and_required_with_their_types() {
    let mut properties = Map::new();
    for index in 0..20 {
        properties.insert(
            format!("p{index}"),
            json!({"type": "object", "description": "first line\nmore", "properties": {"deep": {"type": "string", "description": "z".repeat(200)}}}),
        );
    }
    let schema =
        object(json!({"type": "object", "required": ["p0", "p19"], "properties": properties}));
    let trimmed = trimmed_output_schema(&schema, 1200).unwrap();
    assert_eq!(trimmed["required"], json!(["p0", "p19"]));
    assert_eq!(trimmed["properties"].as_object().unwrap().len(), 20);
    assert_eq!(
        trimmed["properties"]["p3"],
        json!({"type": "object", "description": "first line"})
    );
}

#[test]
fn nothing_is_loosened_where_a_looser_schema_could_reject_more() {
    let schema = object(json!({
        "type": "object",
        "properties": {
            "kept": {"not": {"$ref": "#/$defs/negated"}},
            "open": {"$ref": "#/$defs/open"}
        },
        "$defs": {
            "negated": {"type": "object", "properties": {"inner": {"$ref": "#/$defs/inner"}}, "required": ["inner"]},
            "inner": padded(400),
            "open": padded(400)
        }
    }));
    let trimmed = trimmed_output_schema(&schema, 1000).unwrap();
    let defs = trimmed["$defs"].as_object().unwrap();
    assert_eq!(defs["negated"], schema["$defs"]["negated"]);
    assert_eq!(defs["inner"], schema["$defs"]["inner"]);
    assert!(!defs.contains_key("open"));
    let rejected = json!({"kept": {"inner": {"id": "1"}}});
    assert!(!valid(&schema, &rejected) && !valid(&trimmed, &rejected));
}

#[test]
fn a_reference_into_a_definition_leaves_the_schema_whole() {
    let schema = object(json!({
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/big/properties/id"}},
        "$defs": {"big": padded(1000)}
    }));
    assert_eq!(trimmed_output_schema(&schema, 100), None);
}

/// The served tools (tolerant output schemas, as `tools/list` sends them)
/// of a corpus document, generated with the default budget.
fn served(name: &str) -> (Vec<mcp_core::Tool>, OpenApi) {
    let api = OpenApi::from_path(crate::corpus(name)).unwrap();
    let generated = api.generator().generate().unwrap();
    let config = Arc::new(ClientConfig::builder().build().unwrap());
    let tools = generated
        .tool_defs::<()>(&config)
        .unwrap()
        .iter()
        .map(|def| def.tool().clone())
        .collect();
    (tools, api)
}

/// Checks the list size and that every tool over the size limit is so
/// because of its input schema alone; returns the list's bytes.
fn check_sizes(name: &str, max_list_bytes: usize) -> usize {
    let (tools, _) = served(name);
    let stats = tool_stats(&tools);
    let list = len(&json!({"tools": tools}));
    assert_eq!(
        stats.total_bytes, list,
        "{name}: tool_stats measures the list"
    );
    assert!(list <= max_list_bytes, "{name}: tools/list is {list} bytes");
    for tool in stats.oversized(TOOL_SIZE_LIMIT) {
        assert!(
            tool.input_bytes > TOOL_SIZE_LIMIT,
            "{name}: `{}` is {} bytes with an input schema of {}",
            tool.name,
            tool.bytes,
            tool.input_bytes
        );
    }
    list
}

#[test]
fn stripe_tools_list_fits_in_3_mb() {
    check_sizes("stripe-spec3.json", 3_000_000);
}

#[test]
fn github_tools_list_fits_in_6_mb() {
    check_sizes("github-api.github.com.json", 6_000_000);
}

#[test]
fn kubernetes_tools_over_64_kib_are_so_by_their_input_schema() {
    let (tools, _) = served("kubernetes-apisguru.json");
    let stats = tool_stats(&tools);
    let oversized: Vec<_> = stats.oversized(TOOL_SIZE_LIMIT).collect();
    assert!(!oversized.is_empty());
    assert!(
        oversized
            .iter()
            .all(|tool| tool.input_bytes > TOOL_SIZE_LIMIT)
    );
    let printed = stats.to_string();
    assert!(printed.contains(&format!(
        "tools over {TOOL_SIZE_LIMIT} bytes: {}",
        oversized.len()
    )));
    assert!(printed.contains("its input schema alone is larger"));
}

/// Follows `value`'s `$ref` (local, as `#/a/b`) in `document`, repeatedly.
fn resolved<'a>(document: &'a Value, mut value: &'a Value) -> &'a Value {
    for _ in 0..8 {
        match value.get("$ref").and_then(Value::as_str) {
            Some(reference) => {
                value = reference
                    .strip_prefix('#')
                    .and_then(|pointer| document.pointer(pointer))
                    .unwrap_or(&Value::Null);
            }
            None => break,
        }
    }
    value
}

/// Every example of a 2xx JSON response of the operation at `pointer`:
/// inline `example`s and named `examples` (resolved through
/// `components.examples`).
fn response_examples<'a>(document: &'a Value, pointer: &str) -> Vec<&'a Value> {
    let operation = pointer
        .strip_prefix('#')
        .and_then(|pointer| document.pointer(pointer))
        .unwrap_or(&Value::Null);
    let mut out = Vec::new();
    let Some(responses) = operation.get("responses").and_then(Value::as_object) else {
        return out;
    };
    for (status, response) in responses {
        if !status.starts_with('2') {
            continue;
        }
        let Some(content) = resolved(document, response)
            .get("content")
            .and_then(Value::as_object)
        else {
            continue;
        };
        for (media, item) in content {
            if !media.contains("json") {
                continue;
            }
            out.extend(item.get("example"));
            if let Some(named) = item.get("examples").and_then(Value::as_object) {
                out.extend(
                    named
                        .values()
                        .filter_map(|example| resolved(document, example).get("value")),
                );
            }
        }
    }
    out
}

#[test]
fn github_examples_valid_against_full_output_schemas_stay_valid_when_trimmed() {
    let path = crate::corpus("github-api.github.com.json");
    let document = mcp_openapi::document::parse_slice(&std::fs::read(&path).unwrap()).unwrap();
    let api = OpenApi::from_path(&path).unwrap();
    let full = api.generator().output_budget(None).generate().unwrap();
    let trimmed = api.generator().generate().unwrap();
    assert_eq!(full.tools.len(), trimmed.tools.len());
    let mut validators: HashMap<*const (), jsonschema::Validator> = HashMap::new();
    let validator = |validators: &mut HashMap<_, _>, schema: &mcp_core::ToolSchema| {
        let address = schema.as_ptr();
        validators.entry(address).or_insert_with(|| {
            jsonschema::validator_for(&Value::Object((*schema.to_arc()).clone())).unwrap()
        });
        address
    };
    let (mut examples, mut valid_full, mut checked_trimmed) = (0, 0, 0);
    let mut failures = Vec::new();
    for (whole, budgeted) in full.tools.iter().zip(&trimmed.tools) {
        assert_eq!(whole.tool.name, budgeted.tool.name);
        let (Some(whole_schema), Some(budgeted_schema)) =
            (&whole.tool.output_schema, &budgeted.tool.output_schema)
        else {
            assert!(budgeted.tool.output_schema.is_none());
            continue;
        };
        let found = response_examples(&document, &whole.route.pointer);
        if found.is_empty() {
            continue;
        }
        let whole_key = validator(&mut validators, whole_schema);
        let budgeted_key =
            (whole_schema != budgeted_schema).then(|| validator(&mut validators, budgeted_schema));
        for example in found {
            examples += 1;
            let instance = if whole.binding.output_wrapped {
                json!({"result": example})
            } else {
                example.clone()
            };
            if !validators[&whole_key].is_valid(&instance) {
                continue;
            }
            valid_full += 1;
            if let Some(key) = budgeted_key {
                checked_trimmed += 1;
                if !validators[&key].is_valid(&instance) {
                    failures.push(whole.tool.name.clone());
                }
            }
        }
    }
    eprintln!(
        "GitHub: {examples} response examples, {valid_full} valid against the full output schema, \
         {checked_trimmed} of those checked against a trimmed one"
    );
    assert!(
        failures.is_empty(),
        "examples rejected by trimmed schemas: {failures:?}"
    );
    assert!(
        valid_full > 500 && checked_trimmed > 200,
        "{valid_full} / {checked_trimmed}"
    );
}

/// Generates `name` with output schemas on `budget` and whole, and checks
/// that each budgeted schema is exactly what [`trimmed_output_schema`]
/// makes of the whole one (the run shares work between schemas; the
/// result may not differ). Returns how many schemas were trimmed.
fn run_trims_like_whole(name: &str, budget: usize) -> usize {
    let api = OpenApi::from_path(testdata::openapi(name)).unwrap();
    let budgeted = api
        .generator()
        .output_budget(Some(budget))
        .generate()
        .unwrap();
    let whole = api.generator().output_budget(None).generate().unwrap();
    assert_eq!(budgeted.tools.len(), whole.tools.len());
    let mut trimmed = 0;
    for (ours, full) in budgeted.tools.iter().zip(&whole.tools) {
        let (Some(ours), Some(full)) = (&ours.tool.output_schema, &full.tool.output_schema) else {
            assert!(ours.tool.output_schema.is_none() && full.tool.output_schema.is_none());
            continue;
        };
        let expected = trimmed_output_schema(full, budget);
        trimmed += usize::from(expected.is_some());
        let expected = expected.unwrap_or_else(|| Map::clone(full));
        assert_eq!(
            serde_json::to_string(ours).unwrap(),
            serde_json::to_string(&expected).unwrap(),
            "{}",
            full.len()
        );
    }
    trimmed
}

#[test]
fn a_generation_run_trims_each_schema_as_trimming_it_whole_does() {
    assert!(run_trims_like_whole("stripe-apisguru.json", 4096) > 100);
    assert!(run_trims_like_whole("swagger-petstore3.yaml", 200) > 0);
}
