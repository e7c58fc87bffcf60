//! Every OpenAPI document of `testdata/openapi/` loads, and every generated tool
//! validates against the MCP 2025-11-25 `Tool` schema.

use std::time::Instant;

use mcp_openapi::{OpenApi, schema::SchemaProfile};
use serde_json::{Value, json};

fn tool_validator() -> jsonschema::Validator {
    let path = testdata::mcp_schema("2025-11-25");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut spec: Value = serde_json::from_str(&text).unwrap();
    let defs = spec["$defs"].take();
    let schema = json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": "#/$defs/Tool", "$defs": defs});
    jsonschema::validator_for(&schema).unwrap()
}

/// Names behind every `"$ref": "#/$defs/<name>"` (JSON pointer unescaped).
fn collect_def_refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                match (key.as_str(), child) {
                    ("$ref", Value::String(r)) => {
                        if let Some(name) = r.strip_prefix("#/$defs/") {
                            out.push(name.replace("~1", "/").replace("~0", "~"));
                        }
                    }
                    _ => collect_def_refs(child, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect_def_refs(v, out)),
        _ => {}
    }
}

#[test]
fn every_corpus_document_loads_and_every_tool_is_valid() {
    let validator = tool_validator();
    let dir = testdata::openapi_dir();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json" || e == "yaml"))
        .collect();
    files.sort();
    assert!(files.len() >= 19, "corpus not found at {}", dir.display());
    let mut report = String::new();
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&file).unwrap();
        let start = Instant::now();
        let _: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        let plain = start.elapsed();
        let start = Instant::now();
        let api = OpenApi::from_path(&file).unwrap_or_else(|e| panic!("{name}: {e}"));
        let generated = api
            .generator()
            .generate()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let load = start.elapsed();
        for tool in &generated.tools {
            for schema in std::iter::once(&tool.tool.input_schema).chain(&tool.tool.output_schema) {
                let mut refs = Vec::new();
                schema.values().for_each(|v| collect_def_refs(v, &mut refs));
                for name in refs {
                    assert!(
                        schema.get("$defs").and_then(|d| d.get(&name)).is_some(),
                        "{name}: `{}` refers to a missing `$defs/{name}`",
                        tool.tool.name
                    );
                }
            }
            let value = serde_json::to_value(&tool.tool).unwrap();
            if let Err(error) = validator.validate(&value) {
                panic!(
                    "{name}: tool `{}` is not a valid MCP Tool: {error}",
                    tool.tool.name
                );
            }
            assert!(
                tool.tool
                    .description
                    .as_deref()
                    .is_some_and(|d| !d.is_empty())
            );
        }
        let inline = api
            .generator()
            .profile(SchemaProfile::Inline)
            .generate()
            .unwrap();
        assert_eq!(inline.tools.len(), generated.tools.len());
        for tool in &inline.tools {
            let value = serde_json::to_value(&tool.tool).unwrap();
            assert!(
                validator.is_valid(&value),
                "{name}: inline tool `{}` is not a valid MCP Tool",
                tool.tool.name
            );
            for schema in [&value["inputSchema"], &value["outputSchema"]] {
                let text = schema.to_string();
                let root_clean = schema.get("$defs").is_none() && schema.get("$schema").is_none();
                assert!(
                    root_clean && !text.contains("\"$ref\":\"#/$defs/"),
                    "{name}: `{}` is not inline",
                    tool.tool.name
                );
            }
        }
        let skipped: Vec<_> = generated
            .warnings
            .iter()
            .filter(|w| w.message.starts_with("skipped"))
            .collect();
        report.push_str(&format!(
            "{name}: {} operations, {} tools, {} skipped, load+generate {:?} (serde_json::from_slice {:?})\n",
            api.routes().len() + skipped.len(),
            generated.tools.len(),
            skipped.len(),
            load,
            plain
        ));
        for warning in skipped {
            report.push_str(&format!("    {warning}\n"));
        }
    }
    println!("{report}");
}

/// What the fuzz target does, on deterministic mutations of small corpus
/// documents: truncations and byte flips never panic.
#[test]
fn truncated_and_mutated_documents_never_panic() {
    for name in [
        "petstore.yaml",
        "petstore-swagger2.json",
        "tictactoe.yaml",
        "link-example.yaml",
    ] {
        let bytes = std::fs::read(crate::corpus(name)).unwrap();
        let run = |data: &[u8]| {
            if let Ok(api) = OpenApi::from_slice(data) {
                let _ = api.generator().generate();
                let _ = api.generator().profile(SchemaProfile::Inline).generate();
            }
        };
        for cut in (0..bytes.len()).step_by(97) {
            run(&bytes[..cut]);
        }
        let mut state = 0x2545_f491_u32;
        for _ in 0..200 {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let mut copy = bytes.clone();
            let at = state as usize % copy.len();
            copy[at] = b"{}[]:-\"'#&*!|>%@`"[state as usize % 17];
            run(&copy);
        }
    }
}

/// Loading JSON parses only the component schemas some `$ref` reaches
/// (GitHub's operations reach 27% of their bytes): the tools come out the
/// same as from the whole document.
#[test]
fn lazily_parsed_schemas_give_the_same_tools_as_the_whole_document() {
    for name in ["github-api.github.com.json", "box.json"] {
        let bytes = std::fs::read(crate::corpus(name)).unwrap();
        let lazy = OpenApi::from_slice(&bytes).unwrap();
        let whole =
            OpenApi::from_value(mcp_openapi::document::parse_slice(&bytes).unwrap()).unwrap();
        let count = |api: &OpenApi| {
            api.document()["components"]["schemas"]
                .as_object()
                .map_or(0, |schemas| schemas.len())
        };
        if name.starts_with("github") {
            assert!(
                count(&lazy) < count(&whole) * 3 / 4,
                "{} of {}",
                count(&lazy),
                count(&whole)
            );
        }
        let (lazy, whole) = (lazy.tools().unwrap(), whole.tools().unwrap());
        assert_eq!(lazy.len(), whole.len(), "{name}");
        for (lazy, whole) in lazy.iter().zip(&whole) {
            assert_eq!(lazy, whole, "{name}: {}", whole.name);
        }
    }
}
