//! Every tool the suite builds validates against the official MCP schema.

use std::sync::OnceLock;

use mcp_core::Tool;
use serde_json::{Value, json};

fn tool_validator() -> &'static jsonschema::Validator {
    static VALIDATOR: OnceLock<jsonschema::Validator> = OnceLock::new();
    VALIDATOR.get_or_init(|| {
        let path = testdata::mcp_schema("2025-11-25");
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let spec: Value = serde_json::from_str(&text).unwrap();
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$defs": spec["$defs"],
            "$ref": "#/$defs/Tool",
        });
        jsonschema::draft202012::new(&schema).unwrap()
    })
}

/// Asserts that `tool` serializes to a valid `Tool` of MCP 2025-11-25.
pub(crate) fn assert_valid_tool(tool: &Tool) {
    let value = serde_json::to_value(tool).unwrap();
    let errors: Vec<String> = tool_validator()
        .iter_errors(&value)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "tool `{}` is not a valid MCP Tool: {errors:#?}\n{value:#}",
        tool.name
    );
}

#[test]
fn the_validator_rejects_what_the_spec_rejects() {
    let bad = json!({"name": "x", "inputSchema": {"type": "array"}});
    assert!(!tool_validator().is_valid(&bad));
    let bad = json!({"name": "x", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "sometimes"}});
    assert!(!tool_validator().is_valid(&bad));
    let bad = json!({"name": "x", "inputSchema": {"type": "object"}, "icons": [{"mimeType": "image/png"}]});
    assert!(!tool_validator().is_valid(&bad));
}

#[test]
fn every_tool_the_suite_builds_is_valid() {
    let tools = crate::builder::every_tool_the_suite_builds();
    assert!(tools.len() >= 8);
    for tool in &tools {
        assert_valid_tool(tool);
    }
}
