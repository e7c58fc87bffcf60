//! Every example runs, driven by a real MCP client (rmcp) over its stdio or
//! HTTP; what each one lists in `tools/list` is a reviewed snapshot
//! (`snapshots/it__*_tools.snap`).

mod code_mode;
mod everything;
mod github_curated;
mod openapi_examples;
mod quickstart;
mod readme_snippets;
mod stdio_examples;

use serde_json::{Value, json};

/// Output schemas larger than this are summarized in the snapshots (their
/// size and `$defs` names), so that a snapshot stays reviewable.
const OUTPUT_SCHEMA_SHOWN_UP_TO: usize = 4 * 1024;

/// Checks `tools` (as `tools/list` returned them) against the golden
/// snapshot `<example>_tools`.
pub(crate) fn assert_tools_snapshot(example: &str, tools: &[rmcp::model::Tool]) {
    let mut listed = json!({ "tools": tools });
    for tool in listed["tools"].as_array_mut().into_iter().flatten() {
        if let Some(schema) = tool.get_mut("outputSchema") {
            summarize_large(schema);
        }
    }
    insta::assert_json_snapshot!(format!("{example}_tools"), listed);
}

/// Replaces a schema over [`OUTPUT_SCHEMA_SHOWN_UP_TO`] bytes by its size,
/// top-level keys and `$defs` names.
fn summarize_large(schema: &mut Value) {
    let size = schema.to_string().len();
    if size <= OUTPUT_SCHEMA_SHOWN_UP_TO {
        return;
    }
    let keys: Vec<&String> = schema
        .as_object()
        .into_iter()
        .flat_map(|o| o.keys())
        .collect();
    let defs: Vec<&String> = schema
        .get("$defs")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|d| d.keys())
        .collect();
    *schema = json!({ "summarized": { "bytes": size, "keys": keys, "$defs": defs } });
}
