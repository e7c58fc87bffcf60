//! The `execute` tool's protocol value: what the model reads about running
//! a script.

use mcp_core::{Hint, Tool, ToolError};
use serde_json::json;

use super::CodeMode;
use super::execute_example::example;
use crate::discovery::view::object;

/// The meta-tool that runs a script.
pub const EXECUTE: &str = "execute";

/// The `execute` tool's protocol value over `tools` (with their
/// identifiers, in the same order), whose example calls some of them.
pub(crate) fn execute_tool(
    settings: &CodeMode,
    tools: &[&Tool],
    identifiers: &[String],
) -> Result<Tool, ToolError> {
    let limits = settings.limits();
    let mut description = format!(
        "Run JavaScript that calls this server's tools; only what it returns comes back. \
`code` is an async arrow function or a function body that may `await` and `return`. \
Call a tool with `await tools.<identifier>(input)` (declarations from `search_tools`) or \
`await callTool(name, input)`: it resolves to the tool's result value, and a failed call throws an \
Error with the tool's message (catch it to go on). `catalog` lists every tool as {{name, \
tool, title, description, tags, method, path}} (`name` as in `tools.<name>`; `tool`, the tool's own name, where it differs). Run calls in parallel with \
`Promise.all`; `console.log` goes to `logs`. Limits per run: {} s, {} MiB, {} calls, a result \
of {} KB. A fresh sandbox each run: nothing persists, and there is no fetch, require, import, \
timer or environment.",
        limits.time.as_secs(),
        limits.memory_bytes / (1024 * 1024),
        limits.calls,
        limits.result_bytes / 1000,
    );
    if let Some(example) = example(tools, identifiers) {
        description.push_str(
            "\n\nExample with this server's tools (`search_tools` gives their inputs):\n",
        );
        description.push_str(&example);
    }
    let input = json!({
        "type": "object",
        "properties": {
            "code": {"type": "string", "description": "JavaScript: an async arrow function, or a body that may await and return"}
        },
        "required": ["code"],
        "additionalProperties": false
    });
    let output = json!({
        "type": "object",
        "properties": {
            "result": {"description": "What the script returned"},
            "logs": {"type": "array", "items": {"type": "string"}},
            "calls": {"type": "integer", "description": "The tool calls it made"}
        },
        "required": ["result", "logs", "calls"]
    });
    mcp_core::tool(EXECUTE)
        .description(description)
        .input_schema(object(input))
        .output_schema(object(output))
        .annotations([Hint::Write, Hint::OpenWorld])
        .build()
}
