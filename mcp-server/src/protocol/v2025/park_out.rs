//! `Tool.execution` and the `tasks` server capability on the wire for
//! 2025-11-25 clients.
//!
//! rmcp 3.11's `Tool` has no `execution` field (the 2026-07-28 protocol moved
//! tasks into an extension). When the handler lists tools for a 2025-11-25
//! client it therefore [parks](park) each tool's execution under a private
//! `_meta` key, and the transports restore it to the top-level `execution`
//! field as the message leaves the process: [`RestoringTransport`] rewrites
//! typed messages (stdio and other byte streams),
//! [`restore_in_json`] and [`SseRestorer`] rewrite HTTP bodies (JSON, SSE
//! events).
//! Clients of other versions never get the key, so no rewrite happens for
//! them and nothing private reaches any wire. The `tasks` capability of an
//! `initialize` result travels the same way ([`park_tasks_capability`]).

// Without a transport feature some helpers have no caller.
#![cfg_attr(
    not(all(feature = "stdio", feature = "http")),
    allow(dead_code, unused_imports)
)]

use std::future::Future;

#[cfg(feature = "http")]
use bytes::Bytes;
use rmcp::model::{
    CustomResult, InitializeResult, ServerJsonRpcMessage, ServerResult, Tool as WireTool,
};
use rmcp::service::{RoleServer, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::Value;

/// The private `_meta` key a tool's execution is parked under.
const PARKED_EXECUTION_KEY: &str = "rs.mcp-toolkit/execution";

/// The private `_meta` key a whole 2025-11-25 result rmcp has no type for
/// (a `CreateTaskResult`) is parked under, in a tool result.
const PARKED_RESULT_KEY: &str = "rs.mcp-toolkit/result";

/// A tool result that carries `result`, for a transport to put in its place.
pub(crate) fn park_result(result: Value) -> rmcp::model::CallToolResult {
    let mut carrier = rmcp::model::CallToolResult::success(Vec::new());
    let mut meta = rmcp::model::MetaObject::default();
    meta.0.insert(PARKED_RESULT_KEY.to_owned(), result);
    carrier.meta = Some(meta);
    carrier
}

/// Replaces a result carrying a parked result with that result; returns
/// whether it did.
fn restore_result(result: &mut Value) -> bool {
    let parked = result
        .get_mut("_meta")
        .and_then(Value::as_object_mut)
        .and_then(|meta| meta.remove(PARKED_RESULT_KEY));
    match parked {
        Some(parked) => {
            *result = parked;
            true
        }
        None => false,
    }
}

/// The private `_meta` key the `tasks` capability is parked under.
const PARKED_TASKS_KEY: &str = "rs.mcp-toolkit/tasks-capability";

/// Parks the `tasks` capability in an `initialize` result's `_meta`, for a
/// transport to restore into `capabilities.tasks`.
pub(crate) fn park_tasks_capability(result: &mut InitializeResult, tasks: Value) {
    result
        .meta
        .get_or_insert_with(Default::default)
        .0
        .insert(PARKED_TASKS_KEY.to_owned(), tasks);
}

/// Moves a parked `tasks` capability into `capabilities.tasks`; returns
/// whether it moved.
fn restore_capability(result: &mut Value) -> bool {
    let Some(object) = result.as_object_mut() else {
        return false;
    };
    let Some(meta) = object.get_mut("_meta").and_then(Value::as_object_mut) else {
        return false;
    };
    let Some(tasks) = meta.remove(PARKED_TASKS_KEY) else {
        return false;
    };
    if meta.is_empty() {
        object.remove("_meta");
    }
    if let Some(capabilities) = object
        .get_mut("capabilities")
        .and_then(Value::as_object_mut)
    {
        capabilities.insert("tasks".to_owned(), tasks);
    }
    true
}

/// Parks `execution` in `tool`'s `_meta`, for a transport to restore.
pub(crate) fn park(tool: &mut WireTool, execution: Value) {
    tool.meta
        .get_or_insert_with(Default::default)
        .0
        .insert(PARKED_EXECUTION_KEY.to_owned(), execution);
}

/// Moves every parked execution of a `tools/list` result to its tool's
/// `execution`; returns whether anything moved.
fn restore_in_result(result: &mut Value) -> bool {
    let Some(tools) = result.get_mut("tools").and_then(Value::as_array_mut) else {
        return false;
    };
    let mut restored = false;
    for tool in tools.iter_mut().filter_map(Value::as_object_mut) {
        let Some(meta) = tool.get_mut("_meta").and_then(Value::as_object_mut) else {
            continue;
        };
        let Some(execution) = meta.remove(PARKED_EXECUTION_KEY) else {
            continue;
        };
        if meta.is_empty() {
            tool.remove("_meta");
        }
        tool.insert("execution".to_owned(), execution);
        restored = true;
    }
    restored
}

/// Restores parked executions in a JSON-RPC message (its `result`).
fn restore_in_message(message: &mut Value) -> bool {
    message.get_mut("result").is_some_and(|result| {
        restore_result(result) || (restore_in_result(result) | restore_capability(result))
    })
}

/// Whether `bytes` may hold a parked execution (a cheap pre-check).
fn mentions_parked(bytes: &[u8]) -> bool {
    // Every parked key starts so: most messages hold none of it.
    const PREFIX: &str = "rs.mcp-toolkit/";
    memchr::memmem::find(bytes, PREFIX.as_bytes()).is_some()
        && [PARKED_EXECUTION_KEY, PARKED_TASKS_KEY, PARKED_RESULT_KEY]
            .iter()
            .any(|key| memchr::memmem::find(bytes, key.as_bytes()).is_some())
}

/// Wraps a transport so 2025-11-25 clients see `Tool.execution`.
pub(crate) struct RestoringTransport<T> {
    inner: T,
}

impl<T> RestoringTransport<T> {
    pub(crate) fn new(inner: T) -> Self {
        Self { inner }
    }
}

impl<T: Transport<RoleServer>> Transport<RoleServer> for RestoringTransport<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.inner.send(restore_in_response(item))
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleServer>>> + Send {
        self.inner.receive()
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}

/// `message` with the parked executions of a `tools/list` response restored.
fn restore_in_response(message: ServerJsonRpcMessage) -> ServerJsonRpcMessage {
    let ServerJsonRpcMessage::Response(mut response) = message else {
        return message;
    };
    if let ServerResult::CallToolResult(result) = &response.result
        && let Some(parked) = result
            .meta
            .as_ref()
            .and_then(|meta| meta.0.get(PARKED_RESULT_KEY))
    {
        response.result = ServerResult::CustomResult(CustomResult(parked.clone()));
    }
    if let ServerResult::InitializeResult(result) = &response.result
        && result
            .meta
            .as_ref()
            .is_some_and(|meta| meta.0.contains_key(PARKED_TASKS_KEY))
    {
        match serde_json::to_value(result) {
            Ok(mut value) => {
                restore_capability(&mut value);
                response.result = ServerResult::CustomResult(CustomResult(value));
            }
            Err(error) => tracing::error!(%error, "cannot serialize an initialize result"),
        }
    }
    if let ServerResult::ListToolsResult(result) = &response.result {
        let parked = result.tools.iter().any(|tool| {
            tool.meta
                .as_ref()
                .is_some_and(|meta| meta.0.contains_key(PARKED_EXECUTION_KEY))
        });
        if parked {
            match serde_json::to_value(result) {
                Ok(mut value) => {
                    restore_in_result(&mut value);
                    response.result = ServerResult::CustomResult(CustomResult(value));
                }
                Err(error) => tracing::error!(%error, "cannot serialize a tools/list result"),
            }
        }
    }
    ServerJsonRpcMessage::Response(response)
}

#[cfg(feature = "http")]
/// A JSON response body with its parked executions restored.
pub(crate) fn restore_in_json(bytes: Bytes) -> Bytes {
    if !mentions_parked(&bytes) {
        return bytes;
    }
    let Ok(mut message) = serde_json::from_slice::<Value>(&bytes) else {
        return bytes;
    };
    if !restore_in_message(&mut message) {
        return bytes;
    }
    serde_json::to_vec(&message)
        .map(Bytes::from)
        .unwrap_or(bytes)
}

#[cfg(feature = "http")]
/// Restores parked executions in an SSE body fed to it chunk by chunk: it
/// passes complete events on (rewritten where they carry a parked
/// execution) and holds a partial event back until its end arrives.
#[derive(Debug, Default)]
pub(crate) struct SseRestorer {
    pending: Vec<u8>,
}

#[cfg(feature = "http")]
impl SseRestorer {
    /// The complete events `chunk` ends, or `None` while an event is still
    /// partial. A chunk of whole events that mentions no parked key is
    /// passed on as it is.
    pub(crate) fn push(&mut self, chunk: Bytes) -> Option<Bytes> {
        if self.pending.is_empty() && chunk.ends_with(b"\n\n") && !mentions_parked(&chunk) {
            return Some(chunk);
        }
        self.pending.extend_from_slice(&chunk);
        let end = complete_events_end(&self.pending)?;
        let rest = self.pending.split_off(end);
        let events = std::mem::replace(&mut self.pending, rest);
        Some(restore_in_events(events))
    }

    /// What is left when the body ends: a partial event, passed on as it is.
    pub(crate) fn finish(&mut self) -> Option<Bytes> {
        (!self.pending.is_empty()).then(|| Bytes::from(std::mem::take(&mut self.pending)))
    }
}

#[cfg(feature = "http")]
/// The end of the last complete event (just after its blank line).
fn complete_events_end(buffer: &[u8]) -> Option<usize> {
    buffer
        .windows(2)
        .rposition(|window| window == b"\n\n")
        .map(|at| at + 2)
}

#[cfg(feature = "http")]
/// Rewrites the events with parked executions among complete `events`.
fn restore_in_events(events: Vec<u8>) -> Bytes {
    if !mentions_parked(&events) {
        return Bytes::from(events);
    }
    let Ok(text) = String::from_utf8(events.clone()) else {
        return Bytes::from(events);
    };
    let mut out = String::with_capacity(text.len());
    for event in text.split_inclusive("\n\n") {
        out.push_str(&restore_in_event(event));
    }
    Bytes::from(out)
}

#[cfg(feature = "http")]
/// One SSE event with its parked executions restored.
fn restore_in_event(event: &str) -> String {
    if !mentions_parked(event.as_bytes()) || event.contains('\r') {
        return event.to_owned();
    }
    let data: Vec<&str> = event
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .map(|data| data.strip_prefix(' ').unwrap_or(data))
        .collect();
    let Ok(mut message) = serde_json::from_str::<Value>(&data.join("\n")) else {
        return event.to_owned();
    };
    if !restore_in_message(&mut message) {
        return event.to_owned();
    }
    let mut out = String::with_capacity(event.len());
    let mut data_written = false;
    for line in event.lines() {
        if line.starts_with("data:") {
            if !data_written {
                out.push_str("data: ");
                out.push_str(&message.to_string());
                out.push('\n');
                data_written = true;
            }
        } else if !line.is_empty() {
            out.push_str(line);
            out.push('\n');
        }
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn restores_parked_executions_and_drops_an_emptied_meta() {
        let mut message = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [
            {"name": "a", "inputSchema": {"type": "object"}, "_meta": {PARKED_EXECUTION_KEY: {"taskSupport": "forbidden"}}},
            {"name": "b", "inputSchema": {"type": "object"}, "_meta": {"x.y/z": 1, PARKED_EXECUTION_KEY: {"taskSupport": "forbidden"}}},
            {"name": "c", "inputSchema": {"type": "object"}}
        ]}});
        assert!(restore_in_message(&mut message));
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
        assert!(!restore_in_message(&mut message));
        assert_eq!(message, before);
    }

    #[cfg(feature = "http")]
    #[test]
    fn rewrites_only_events_with_parked_executions() {
        let marked = format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"tools":[{{"name":"a","inputSchema":{{}},"_meta":{{"{PARKED_EXECUTION_KEY}":{{"taskSupport":"forbidden"}}}}}}]}}}}"#
        );
        let body = format!("id: 0\nretry: 3000\n\nid: 1\ndata: {marked}\n\n: keep-alive\n\n");
        let out = String::from_utf8(restore_in_events(body.into_bytes()).to_vec()).unwrap();
        assert_eq!(
            out,
            "id: 0\nretry: 3000\n\nid: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[{\"name\":\"a\",\"inputSchema\":{},\"execution\":{\"taskSupport\":\"forbidden\"}}]}}\n\n: keep-alive\n\n"
        );
    }

    #[cfg(feature = "http")]
    #[test]
    fn the_sse_restorer_holds_a_partial_event_back_until_its_end() {
        let marked = format!(
            r#"data: {{"jsonrpc":"2.0","id":1,"result":{{"tools":[{{"name":"a","inputSchema":{{}},"_meta":{{"{PARKED_EXECUTION_KEY}":{{}}}}}}]}}}}"#
        );
        let mut restorer = SseRestorer::default();
        let whole = Bytes::from_static(b"id: 0\nretry: 3000\ndata: \n\n");
        assert_eq!(restorer.push(whole.clone()), Some(whole));
        let (head, tail) = marked.split_at(40);
        assert_eq!(restorer.push(Bytes::from(head.to_owned())), None);
        let out = restorer.push(Bytes::from(format!("{tail}\n\nid: 2")));
        let out = String::from_utf8(out.unwrap().to_vec()).unwrap();
        assert!(out.contains(r#""execution":{}"#) && !out.contains(PARKED_EXECUTION_KEY));
        assert_eq!(restorer.finish(), Some(Bytes::from_static(b"id: 2")));
        assert_eq!(restorer.finish(), None);
    }

    #[cfg(feature = "http")]
    #[test]
    fn finds_the_end_of_complete_events() {
        assert_eq!(complete_events_end(b"data: 1\n\ndata: 2"), Some(9));
        assert_eq!(complete_events_end(b"data: 1\n"), None);
    }
}
