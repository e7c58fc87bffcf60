//! The HTTP half of the `execution` lift: rewrites response bodies (JSON or
//! SSE events) carrying parked executions (see [`crate::execution_wire`]).

use axum::body::{Body, BodyDataStream};
use axum::response::Response;
use bytes::Bytes;
use futures_util::StreamExt;
use http::header;
use serde_json::Value;

use crate::execution_wire::{lift_in_message, mentions_marker};

/// Rewrites a response of the MCP endpoint when it may carry a parked
/// execution; passes everything else through untouched.
pub(super) async fn lift_execution(response: Response) -> Response {
    let content_type = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    if content_type.starts_with("text/event-stream") {
        let (mut parts, body) = response.into_parts();
        parts.headers.remove(header::CONTENT_LENGTH);
        let events = futures_util::stream::unfold(
            SseEvents::new(body.into_data_stream()),
            SseEvents::next_chunk,
        );
        Response::from_parts(parts, Body::from_stream(events))
    } else if content_type.starts_with("application/json") {
        let (mut parts, body) = response.into_parts();
        let bytes = match axum::body::to_bytes(body, usize::MAX).await {
            Ok(bytes) => bytes,
            Err(error) => {
                tracing::error!(%error, "cannot read a response body");
                return Response::from_parts(parts, Body::empty());
            }
        };
        let bytes = lift_json(bytes);
        parts.headers.remove(header::CONTENT_LENGTH);
        Response::from_parts(parts, Body::from(bytes))
    } else {
        response
    }
}

fn lift_json(bytes: Bytes) -> Bytes {
    if !mentions_marker(&bytes) {
        return bytes;
    }
    let Ok(mut message) = serde_json::from_slice::<Value>(&bytes) else {
        return bytes;
    };
    if !lift_in_message(&mut message) {
        return bytes;
    }
    serde_json::to_vec(&message)
        .map(Bytes::from)
        .unwrap_or(bytes)
}

/// Re-chunks an SSE body at event boundaries and rewrites marked events.
struct SseEvents {
    inner: BodyDataStream,
    pending: Vec<u8>,
    done: bool,
}

impl SseEvents {
    fn new(inner: BodyDataStream) -> Self {
        Self {
            inner,
            pending: Vec::new(),
            done: false,
        }
    }

    async fn next_chunk(mut self) -> Option<(Result<Bytes, axum::Error>, Self)> {
        while !self.done {
            match self.inner.next().await {
                Some(Ok(chunk)) => {
                    self.pending.extend_from_slice(&chunk);
                    if let Some(end) = complete_events_end(&self.pending) {
                        let rest = self.pending.split_off(end);
                        let events = std::mem::replace(&mut self.pending, rest);
                        return Some((Ok(lift_events(events)), self));
                    }
                }
                Some(Err(error)) => {
                    self.done = true;
                    return Some((Err(error), self));
                }
                None => {
                    self.done = true;
                    if !self.pending.is_empty() {
                        let rest = std::mem::take(&mut self.pending);
                        return Some((Ok(Bytes::from(rest)), self));
                    }
                }
            }
        }
        None
    }
}

/// The end of the last complete event (just after its blank line).
fn complete_events_end(buffer: &[u8]) -> Option<usize> {
    buffer
        .windows(2)
        .rposition(|window| window == b"\n\n")
        .map(|at| at + 2)
}

/// Rewrites the marked events among complete `events`.
fn lift_events(events: Vec<u8>) -> Bytes {
    if !mentions_marker(&events) {
        return Bytes::from(events);
    }
    let Ok(text) = String::from_utf8(events.clone()) else {
        return Bytes::from(events);
    };
    let mut out = String::with_capacity(text.len());
    for event in text.split_inclusive("\n\n") {
        out.push_str(&lift_event(event));
    }
    Bytes::from(out)
}

fn lift_event(event: &str) -> String {
    if !mentions_marker(event.as_bytes()) || event.contains('\r') {
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
    if !lift_in_message(&mut message) {
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
    use super::*;
    use crate::execution_wire::EXECUTION_MARKER;

    #[test]
    fn rewrites_only_marked_events() {
        let marked = format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"tools":[{{"name":"a","inputSchema":{{}},"_meta":{{"{EXECUTION_MARKER}":{{"taskSupport":"forbidden"}}}}}}]}}}}"#
        );
        let body = format!("id: 0\nretry: 3000\n\nid: 1\ndata: {marked}\n\n: keep-alive\n\n");
        let out = String::from_utf8(lift_events(body.into_bytes()).to_vec()).unwrap();
        assert_eq!(
            out,
            "id: 0\nretry: 3000\n\nid: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[{\"name\":\"a\",\"inputSchema\":{},\"execution\":{\"taskSupport\":\"forbidden\"}}]}}\n\n: keep-alive\n\n"
        );
    }

    #[test]
    fn finds_the_end_of_complete_events() {
        assert_eq!(complete_events_end(b"data: 1\n\ndata: 2"), Some(9));
        assert_eq!(complete_events_end(b"data: 1\n"), None);
    }
}
