//! The server's instruments, made on the process's meter provider the
//! first time a request ends (so install it first, see
//! [`Telemetry::init`](super::Telemetry::init)):
//!
//! | name | kind | attributes |
//! |---|---|---|
//! | `mcp.server.operation.duration` | histogram, seconds | `mcp.method.name`, `gen_ai.tool.name`, `error.type` |
//! | `mcp.server.requests` | counter | `mcp.method.name`, `error.type` |
//! | `mcp.server.tool.calls` | counter | `gen_ai.tool.name`, `error.type` |
//! | `mcp.server.session.evictions` | counter | `mcp.session.eviction.reason` |
//!
//! `error.type` is `tool_error` for a result with `isError: true`, else the
//! JSON-RPC error code; it is absent on success. An HTTP session ended to
//! admit a new one at the live-session limit has the reason `capacity`, one
//! never used after `initialize` and ended past its grace `unused`. Upstream calls of
//! generated tools add `http.client.request.duration` (crate `mcp-toolkit-openapi`).

use std::sync::OnceLock;

use opentelemetry::KeyValue;
use opentelemetry::metrics::{Counter, Histogram};

/// Bucket bounds in seconds, from a millisecond to a minute.
const BOUNDARIES: [f64; 16] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 10.0, 60.0,
];

struct Instruments {
    duration: Histogram<f64>,
    requests: Counter<u64>,
    tool_calls: Counter<u64>,
    evictions: Counter<u64>,
}

fn instruments() -> &'static Instruments {
    static INSTRUMENTS: OnceLock<Instruments> = OnceLock::new();
    INSTRUMENTS.get_or_init(|| {
        let meter = opentelemetry::global::meter("mcp-server");
        Instruments {
            duration: meter
                .f64_histogram("mcp.server.operation.duration")
                .with_unit("s")
                .with_description("MCP request duration as observed on the server")
                .with_boundaries(BOUNDARIES.to_vec())
                .build(),
            requests: meter
                .u64_counter("mcp.server.requests")
                .with_unit("{request}")
                .with_description("MCP requests served")
                .build(),
            tool_calls: meter
                .u64_counter("mcp.server.tool.calls")
                .with_unit("{call}")
                .with_description("tools/call requests served, per tool")
                .build(),
            evictions: meter
                .u64_counter("mcp.server.session.evictions")
                .with_unit("{session}")
                .with_description(
                    "HTTP sessions ended by the server to make room or past the unused grace",
                )
                .build(),
        }
    })
}

/// Records one request that took `seconds`.
pub(crate) fn record_request(seconds: f64, method: &str, tool: Option<&str>, error: Option<&str>) {
    let instruments = instruments();
    let error = error.map(|error| KeyValue::new("error.type", error.to_owned()));
    let mut attributes = vec![KeyValue::new("mcp.method.name", method.to_owned())];
    attributes.extend(error.clone());
    instruments.requests.add(1, &attributes);
    if let Some(tool) = tool {
        let tool = KeyValue::new("gen_ai.tool.name", tool.to_owned());
        let mut call = vec![tool.clone()];
        call.extend(error);
        instruments.tool_calls.add(1, &call);
        attributes.push(tool);
    }
    instruments.duration.record(seconds, &attributes);
}

/// Records one HTTP session ended by the server (`reason`: `capacity` or
/// `unused`).
pub(crate) fn record_session_eviction(reason: &'static str) {
    instruments()
        .evictions
        .add(1, &[KeyValue::new("mcp.session.eviction.reason", reason)]);
}
