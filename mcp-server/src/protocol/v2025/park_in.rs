//! 2025-11-25 task requests through rmcp's parser.
//!
//! rmcp 3.11 models only the 2026-07-28 tasks extension: its
//! `CallToolRequestParams` has no `task` field (the parser would drop it),
//! and it reads `tasks/get` and `tasks/cancel` as the extension's requests
//! (refused to a client that did not declare the extension). As a message
//! enters the process the transports therefore [rewrite](park_in_message)
//! it: `params.task` is parked under a private `_meta` key, where the
//! handler [finds](take_parked) it, and a `tasks/get` or `tasks/cancel`
//! without the 2026-07-28 per-request protocol version (a request of a
//! 2025-11-25 session) gets a private method name the handler serves as a
//! custom request. [`ParkingReader`] rewrites newline-delimited messages
//! (stdio and other byte streams), [`park_in_bytes`] the JSON body of an
//! HTTP `POST`. Neither name ever leaves the process.

#[cfg(feature = "stdio")]
mod reader;

use bytes::Bytes;
use rmcp::model::RequestMetaObject;
use serde_json::Value;

use super::wire::TaskParam;
#[cfg(feature = "stdio")]
pub(crate) use reader::ParkingReader;

/// The private `_meta` key `params.task` is parked under.
const PARKED_TASK_KEY: &str = "rs.mcp-toolkit/task";

/// The private method a 2025-11-25 `tasks/get` arrives as.
pub(crate) const GET_2025: &str = "rs.mcp-toolkit/tasks/get";

/// The private method a 2025-11-25 `tasks/cancel` arrives as.
pub(crate) const CANCEL_2025: &str = "rs.mcp-toolkit/tasks/cancel";

/// The `_meta` key every 2026-07-28 request carries.
const PROTOCOL_VERSION_META_KEY: &str = "io.modelcontextprotocol/protocolVersion";

/// Takes the `params.task` a request carried out of its `_meta` (the
/// params' own, or the copy rmcp keeps in the request context).
pub(crate) fn take_parked(
    meta: &mut Option<RequestMetaObject>,
    context_meta: &mut RequestMetaObject,
) -> Option<TaskParam> {
    let from_params = meta
        .as_mut()
        .and_then(|meta| meta.0.remove(PARKED_TASK_KEY));
    if meta.as_ref().is_some_and(|meta| meta.0.is_empty()) {
        *meta = None;
    }
    let from_context = context_meta.0.remove(PARKED_TASK_KEY);
    let value = from_params.or(from_context)?;
    Some(serde_json::from_value(value).unwrap_or_default())
}

/// Moves `params.task` of a `tools/call` request into its `params._meta`,
/// or renames a 2025-11-25 `tasks/get` or `tasks/cancel`; returns whether
/// anything changed.
fn park_in_message(message: &mut Value) -> bool {
    let method = message.get("method").and_then(Value::as_str);
    let renamed = match method {
        Some("tasks/get") => GET_2025,
        Some("tasks/cancel") => CANCEL_2025,
        Some("tools/call") => return park_task_param(message),
        _ => return false,
    };
    let modern = message
        .pointer("/params/_meta")
        .and_then(Value::as_object)
        .is_some_and(|meta| meta.contains_key(PROTOCOL_VERSION_META_KEY));
    if modern {
        return false;
    }
    message["method"] = Value::from(renamed);
    true
}

fn park_task_param(message: &mut Value) -> bool {
    let Some(params) = message.get_mut("params").and_then(Value::as_object_mut) else {
        return false;
    };
    let Some(task) = params.remove("task") else {
        return false;
    };
    let meta = params
        .entry("_meta")
        .or_insert_with(|| Value::Object(Default::default()));
    match meta.as_object_mut() {
        Some(meta) => {
            meta.insert(PARKED_TASK_KEY.to_owned(), task);
            true
        }
        None => false,
    }
}

/// `bytes` with a parked `params.task`, or unchanged.
pub(crate) fn park_in_bytes(bytes: Bytes) -> Bytes {
    // `"task` starts both `"task"` and `"tasks/`.
    let mentions = |needle: &[u8]| memchr::memmem::find(&bytes, needle).is_some();
    if !mentions(b"\"task") || (!mentions(b"\"task\"") && !mentions(b"\"tasks/")) {
        return bytes;
    }
    let Ok(mut message) = serde_json::from_slice::<Value>(&bytes) else {
        return bytes;
    };
    if !park_in_message(&mut message) {
        return bytes;
    }
    serde_json::to_vec(&message)
        .map(Bytes::from)
        .unwrap_or(bytes)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn parks_the_task_of_a_tools_call_only() {
        let mut call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "t", "task": {"ttl": 5000}}});
        assert!(park_in_message(&mut call));
        assert_eq!(
            call["params"],
            json!({"name": "t", "_meta": {PARKED_TASK_KEY: {"ttl": 5000}}})
        );
        let mut meta: Option<RequestMetaObject> =
            serde_json::from_value(call["params"]["_meta"].clone()).unwrap();
        let mut context_meta = RequestMetaObject::default();
        assert_eq!(
            take_parked(&mut meta, &mut context_meta),
            Some(TaskParam { ttl: Some(5000) })
        );
        assert!(meta.is_none());

        let mut other = json!({"jsonrpc": "2.0", "id": 2, "method": "prompts/get",
            "params": {"name": "p", "task": {}}});
        assert!(!park_in_message(&mut other));
    }

    #[test]
    fn renames_the_task_requests_of_2025_sessions_only() {
        let mut old =
            json!({"jsonrpc": "2.0", "id": 1, "method": "tasks/get", "params": {"taskId": "t"}});
        assert!(park_in_message(&mut old));
        assert_eq!(old["method"], GET_2025);
        let mut new = json!({"jsonrpc": "2.0", "id": 1, "method": "tasks/cancel",
            "params": {"taskId": "t", "_meta": {PROTOCOL_VERSION_META_KEY: "2026-07-28"}}});
        assert!(!park_in_message(&mut new));
        assert_eq!(new["method"], "tasks/cancel");
    }

    #[cfg(feature = "stdio")]
    #[tokio::test]
    async fn the_reader_rewrites_lines_and_passes_others_through() {
        use tokio::io::AsyncReadExt;

        let input = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\",\"task\":{}}}\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";
        let mut reader = ParkingReader::new(&input[..]);
        let mut out = String::new();
        reader.read_to_string(&mut out).await.unwrap();
        let lines: Vec<Value> = out
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        assert_eq!(lines[0]["params"]["_meta"][PARKED_TASK_KEY], json!({}));
        assert_eq!(lines[1]["method"], "notifications/initialized");
    }
}
