//! `Tool.execution` on the wire for 2025-11-25 clients.
//!
//! rmcp 3.11's `Tool` has no `execution` field (the 2026-07-28 protocol moved
//! tasks into an extension). The handler therefore parks a tool's execution
//! under a private `_meta` key when it lists tools for a 2025-11-25 client,
//! and the transports lift it to the top-level `execution` field as the
//! message leaves the process (a typed rewrite on stdio, a body rewrite on
//! HTTP). Clients of other versions never get the key, so no rewrite happens
//! for them and nothing private reaches any wire.

use serde_json::Value;

/// The private `_meta` key the handler parks `execution` under.
pub(crate) const EXECUTION_MARKER: &str = "rs.mcp-toolkit/execution";

/// Moves every parked execution of a `tools/list` result to its tool's
/// `execution`; returns whether anything moved.
pub(crate) fn lift_in_result(result: &mut Value) -> bool {
    let Some(tools) = result.get_mut("tools").and_then(Value::as_array_mut) else {
        return false;
    };
    let mut lifted = false;
    for tool in tools.iter_mut().filter_map(Value::as_object_mut) {
        let Some(meta) = tool.get_mut("_meta").and_then(Value::as_object_mut) else {
            continue;
        };
        let Some(execution) = meta.remove(EXECUTION_MARKER) else {
            continue;
        };
        if meta.is_empty() {
            tool.remove("_meta");
        }
        tool.insert("execution".to_owned(), execution);
        lifted = true;
    }
    lifted
}

/// Lifts parked executions in a JSON-RPC message (its `result`).
pub(crate) fn lift_in_message(message: &mut Value) -> bool {
    message.get_mut("result").is_some_and(lift_in_result)
}

/// Whether `bytes` may hold a parked execution (a cheap pre-check).
pub(crate) fn mentions_marker(bytes: &[u8]) -> bool {
    bytes
        .windows(EXECUTION_MARKER.len())
        .any(|window| window == EXECUTION_MARKER.as_bytes())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn lifts_the_marker_and_drops_an_emptied_meta() {
        let mut message = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [
            {"name": "a", "inputSchema": {"type": "object"}, "_meta": {EXECUTION_MARKER: {"taskSupport": "forbidden"}}},
            {"name": "b", "inputSchema": {"type": "object"}, "_meta": {"x.y/z": 1, EXECUTION_MARKER: {"taskSupport": "forbidden"}}},
            {"name": "c", "inputSchema": {"type": "object"}}
        ]}});
        assert!(lift_in_message(&mut message));
        assert_eq!(
            message["result"]["tools"],
            json!([
                {"name": "a", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "forbidden"}},
                {"name": "b", "inputSchema": {"type": "object"}, "_meta": {"x.y/z": 1}, "execution": {"taskSupport": "forbidden"}},
                {"name": "c", "inputSchema": {"type": "object"}}
            ])
        );
    }

    #[test]
    fn leaves_other_messages_alone() {
        let mut message = json!({"jsonrpc": "2.0", "id": 1, "result": {"content": []}});
        let before = message.clone();
        assert!(!lift_in_message(&mut message));
        assert_eq!(message, before);
    }
}
