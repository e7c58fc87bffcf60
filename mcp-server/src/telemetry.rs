//! OpenTelemetry traces and metrics.
//!
//! Every MCP request is a `tracing` span named as the OpenTelemetry MCP
//! semantic conventions say (`tools/call listPets`, with `mcp.method.name`,
//! `gen_ai.tool.name`, `mcp.session.id`, `jsonrpc.request.id`, and
//! `error.type` when it failed, `tool_error` for a result with `isError`).
//! With the feature `otel` (opt-in), [`Telemetry::init`] installs
//! the OpenTelemetry providers the standard `OTEL_*` variables ask for:
//! request spans then become OpenTelemetry spans, children of the client's
//! `params._meta.traceparent` when it sends one; an upstream call of a
//! generated tool is a child span of its request and sends its own trace
//! context upstream as `traceparent`; and the requests are measured, for
//! OTLP export and a Prometheus text endpoint
//! ([`PrometheusMetrics::router`]).
//!
//! Metrics: `mcp.server.operation.duration` (histogram, seconds;
//! `mcp.method.name`, `gen_ai.tool.name`, `error.type`),
//! `mcp.server.requests` (counter; `mcp.method.name`, `error.type`),
//! `mcp.server.tool.calls` (counter; `gen_ai.tool.name`, `error.type`),
//! `mcp.server.session.evictions` (counter; HTTP sessions the server ended,
//! by `mcp.session.eviction.reason`: `capacity` or `unused`) and
//! `http.client.request.duration` (histogram, seconds; upstream calls by
//! `http.request.method`, `url.template`, `http.response.status_code`).

#[cfg(feature = "otel")]
mod context;
#[cfg(feature = "otel")]
mod error;
#[cfg(feature = "otel")]
pub(crate) mod metrics;
#[cfg(feature = "otel")]
mod prometheus;
pub(crate) mod request;
#[cfg(feature = "otel")]
mod setup;

#[cfg(feature = "otel")]
#[cfg_attr(docsrs, doc(cfg(feature = "otel")))]
pub use error::TelemetryError;
#[cfg(feature = "otel")]
#[cfg_attr(docsrs, doc(cfg(feature = "otel")))]
pub use prometheus::PrometheusMetrics;
#[cfg(feature = "otel")]
#[cfg_attr(docsrs, doc(cfg(feature = "otel")))]
pub use setup::{Telemetry, TelemetryGuard};
