//! The client's trace context: `params._meta.traceparent` (and
//! `tracestate`) read through the process's text-map propagator.

use std::collections::HashMap;

use opentelemetry::trace::TraceContextExt;
use tracing::Span;
use tracing_opentelemetry::OpenTelemetrySpanExt;

/// Makes `span` a child of the remote span `traceparent` names, when it
/// names a valid one; otherwise the span starts a trace of its own.
pub(crate) fn adopt_parent(span: &Span, traceparent: Option<&str>, tracestate: Option<&str>) {
    let Some(traceparent) = traceparent else {
        return;
    };
    let mut carrier = HashMap::with_capacity(2);
    carrier.insert("traceparent".to_owned(), traceparent.to_owned());
    if let Some(tracestate) = tracestate {
        carrier.insert("tracestate".to_owned(), tracestate.to_owned());
    }
    let parent =
        opentelemetry::global::get_text_map_propagator(|propagator| propagator.extract(&carrier));
    if parent.span().span_context().is_valid() {
        // Fails only when the span is already started, which it is not.
        let _ = span.set_parent(parent);
    } else {
        tracing::debug!(traceparent, "ignoring a malformed traceparent in _meta");
    }
}
