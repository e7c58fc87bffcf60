//! The span and the measurements of one MCP request, named as the
//! OpenTelemetry MCP semantic conventions say: the span
//! `{mcp.method.name} {target}` (`tools/call listPets`) with
//! `mcp.method.name`, `gen_ai.tool.name`, `mcp.session.id`,
//! `jsonrpc.request.id`, `mcp.protocol.version`, and `error.type` when the
//! request failed (`tool_error` for a result with `isError`, else the
//! JSON-RPC error code, also in `rpc.response.status_code`).

use std::time::Instant;

use tracing::Span;
use tracing::field::Empty;

/// JSON-RPC's invalid params, also the answer to an unknown tool.
#[cfg(feature = "otel")]
const INVALID_PARAMS: i32 = -32602;

/// What is known of a request when it arrives.
#[derive(Debug, Default)]
pub(crate) struct RequestInfo<'a> {
    /// `tools/call`, `resources/read`, ...
    pub(crate) method: &'a str,
    /// The tool's name in `tools/call`.
    pub(crate) tool: Option<&'a str>,
    /// The prompt's name in `prompts/get`.
    pub(crate) prompt: Option<&'a str>,
    /// The JSON-RPC id.
    pub(crate) request_id: String,
    /// The HTTP session's id.
    pub(crate) session_id: Option<&'a str>,
    /// The negotiated protocol version, when known.
    pub(crate) protocol_version: Option<String>,
    /// `params._meta.traceparent`, when the client sent one.
    pub(crate) traceparent: Option<&'a str>,
    /// `params._meta.tracestate`, when the client sent one.
    pub(crate) tracestate: Option<&'a str>,
}

/// How a request ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// A result.
    Answered,
    /// A tool result with `isError: true`.
    ToolError,
    /// A JSON-RPC error with this code.
    Error(i32),
}

/// The span and clock of one request.
#[derive(Debug)]
pub(crate) struct RequestTrace {
    span: Span,
    started: Instant,
    method: String,
    tool: Option<String>,
}

impl RequestTrace {
    /// Opens the span of `info`'s request, as a child of the client's
    /// trace context when it sent one (and telemetry is on).
    pub(crate) fn start(info: &RequestInfo<'_>) -> Self {
        // A root, not a child of the transport's session-long span: one
        // trace per request unless the client's trace context says otherwise.
        let span = tracing::info_span!(
            parent: None,
            "mcp.request",
            otel.name = Empty,
            otel.kind = "server",
            otel.status_code = Empty,
            mcp.method.name = info.method,
            gen_ai.tool.name = Empty,
            gen_ai.operation.name = Empty,
            gen_ai.prompt.name = Empty,
            mcp.session.id = Empty,
            mcp.protocol.version = Empty,
            jsonrpc.request.id = %info.request_id,
            error.type = Empty,
            rpc.response.status_code = Empty,
        );
        // Named only when something listens: no text is made otherwise.
        if !span.is_disabled() {
            match info.tool.or(info.prompt) {
                Some(target) => span.record("otel.name", format!("{} {target}", info.method)),
                None => span.record("otel.name", info.method),
            };
        }
        if let Some(tool) = info.tool {
            span.record("gen_ai.tool.name", tool);
            span.record("gen_ai.operation.name", "execute_tool");
        }
        if let Some(prompt) = info.prompt {
            span.record("gen_ai.prompt.name", prompt);
        }
        if let Some(session_id) = info.session_id {
            span.record("mcp.session.id", session_id);
        }
        if let Some(version) = &info.protocol_version {
            span.record("mcp.protocol.version", version.as_str());
        }
        #[cfg(feature = "otel")]
        super::context::adopt_parent(&span, info.traceparent, info.tracestate);
        #[cfg(not(feature = "otel"))]
        let _ = (info.traceparent, info.tracestate);
        Self {
            span,
            started: Instant::now(),
            method: info.method.to_owned(),
            tool: info.tool.map(str::to_owned),
        }
    }

    /// The request's span, to run the request in.
    pub(crate) fn span(&self) -> &Span {
        &self.span
    }

    /// Ends the request: records how it ended on the span and in the
    /// metrics.
    pub(crate) fn finish(self, outcome: Outcome) {
        let error = match outcome {
            Outcome::Answered => None,
            Outcome::ToolError => Some("tool_error".to_owned()),
            Outcome::Error(code) => {
                self.span.record("rpc.response.status_code", code);
                Some(code.to_string())
            }
        };
        if let Some(error) = &error {
            self.span.record("error.type", error.as_str());
            self.span.record("otel.status_code", "error");
        }
        // An unknown tool is invalid params (-32602): its name, the client's
        // to choose, stays out of the metrics so clients cannot mint series.
        #[cfg(feature = "otel")]
        let tool = self
            .tool
            .as_deref()
            .filter(|_| outcome != Outcome::Error(INVALID_PARAMS));
        #[cfg(feature = "otel")]
        super::metrics::record_request(
            self.started.elapsed().as_secs_f64(),
            &self.method,
            tool,
            error.as_deref(),
        );
        #[cfg(not(feature = "otel"))]
        let _ = (&self.started, &self.method, &self.tool);
    }
}
