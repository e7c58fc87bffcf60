//! What an upstream call tells an observer: a `tracing` span per exchange
//! with the OpenTelemetry HTTP client attributes (`http.request.method`,
//! `url.template`, `server.address`, `http.response.status_code`,
//! `http.request.resend_count`, `error.type`), and, with the feature `otel`,
//! the span's trace context sent upstream as `traceparent` (through the
//! process's text-map propagator) and the exchange's duration on the
//! process's meter provider (`http.client.request.duration`).
//!
//! Integers are recorded as `i64`, which the `tracing` bridge turns into
//! integer attributes (it writes unsigned ones as strings).
//!
//! Only the OpenTelemetry API is used here, never an SDK: without a
//! propagator and a meter provider installed (see `mcp-server`'s
//! `telemetry` module) both are no-ops.

use std::time::Instant;

use http::{HeaderMap, Method, StatusCode};
use tracing::Span;
use tracing::field::Empty;

use crate::ir::HttpRoute;

/// The span and clock of one upstream exchange (retries included).
pub(crate) struct UpstreamTrace {
    span: Span,
    started: Instant,
    method: Method,
    template: String,
    server: Option<String>,
    ended: bool,
}

impl UpstreamTrace {
    /// Opens the span of `route`'s call to `base`, as a child of the
    /// current span (the tool call's).
    pub(crate) fn start(route: &HttpRoute, method: &Method, base: &url::Url) -> Self {
        let template = route.path.clone();
        let server = base.host_str().map(str::to_owned);
        let span = tracing::info_span!(
            "http.client",
            otel.name = %format_args!("{method} {template}"),
            otel.kind = "client",
            otel.status_code = Empty,
            http.request.method = %method,
            url.template = %template,
            server.address = server.as_deref().unwrap_or_default(),
            server.port = base.port_or_known_default().map(i64::from),
            http.response.status_code = Empty,
            http.request.resend_count = Empty,
            error.type = Empty,
        );
        Self {
            span,
            started: Instant::now(),
            method: method.clone(),
            template,
            server,
            ended: false,
        }
    }

    /// The exchange's span, to run the exchange in.
    pub(crate) fn span(&self) -> &Span {
        &self.span
    }

    /// Adds the span's trace context to `headers` (`traceparent`, and
    /// `tracestate` when there is one), when a propagator is installed.
    pub(crate) fn propagate(&self, headers: &mut HeaderMap) {
        #[cfg(feature = "otel")]
        self.span.in_scope(|| {
            opentelemetry::global::get_text_map_propagator(|propagator| {
                propagator.inject(&mut HeaderInjector(headers));
            });
        });
        #[cfg(not(feature = "otel"))]
        let _ = headers;
    }

    /// Ends the exchange: the status it got (none when no response came),
    /// how often it was resent, and the error's kind when it failed.
    pub(crate) fn finish(mut self, status: Option<StatusCode>, resends: u32, error: Option<&str>) {
        self.end(status, resends, error);
    }

    fn end(&mut self, status: Option<StatusCode>, resends: u32, error: Option<&str>) {
        self.ended = true;
        if let Some(status) = status {
            self.span
                .record("http.response.status_code", i64::from(status.as_u16()));
        }
        if resends > 0 {
            self.span
                .record("http.request.resend_count", i64::from(resends));
        }
        let error = error.map(str::to_owned).or_else(|| {
            status
                .filter(|status| status.is_client_error() || status.is_server_error())
                .map(|status| status.as_u16().to_string())
        });
        if let Some(error) = &error {
            self.span.record("error.type", error.as_str());
            self.span.record("otel.status_code", "error");
        }
        #[cfg(feature = "otel")]
        metrics::record(
            self.started.elapsed().as_secs_f64(),
            &self.method,
            &self.template,
            self.server.as_deref(),
            status,
            error.as_deref(),
        );
        #[cfg(not(feature = "otel"))]
        let _ = (&self.started, &self.method, &self.template, &self.server);
    }
}

impl Drop for UpstreamTrace {
    /// An exchange dropped before its end: the call's timeout or the
    /// client's cancellation stopped it.
    fn drop(&mut self) {
        if !self.ended {
            self.end(None, 0, Some("aborted"));
        }
    }
}

/// `headers` as the propagator's carrier.
#[cfg(feature = "otel")]
struct HeaderInjector<'a>(&'a mut HeaderMap);

#[cfg(feature = "otel")]
impl opentelemetry::propagation::Injector for HeaderInjector<'_> {
    fn set(&mut self, key: &str, value: String) {
        if let (Ok(name), Ok(value)) = (
            http::HeaderName::from_bytes(key.as_bytes()),
            http::HeaderValue::from_str(&value),
        ) {
            self.0.insert(name, value);
        }
    }
}

/// The upstream duration histogram.
#[cfg(feature = "otel")]
mod metrics {
    use std::sync::OnceLock;

    use http::{Method, StatusCode};
    use opentelemetry::KeyValue;
    use opentelemetry::metrics::Histogram;

    /// Bucket bounds in seconds, as the HTTP semantic conventions advise.
    const BOUNDARIES: [f64; 14] = [
        0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0,
    ];

    /// `http.client.request.duration`, made on the meter provider installed
    /// before the first upstream call.
    fn histogram() -> &'static Histogram<f64> {
        static HISTOGRAM: OnceLock<Histogram<f64>> = OnceLock::new();
        HISTOGRAM.get_or_init(|| {
            opentelemetry::global::meter("mcp-openapi")
                .f64_histogram("http.client.request.duration")
                .with_unit("s")
                .with_description("Duration of upstream HTTP calls of generated tools")
                .with_boundaries(BOUNDARIES.to_vec())
                .build()
        })
    }

    pub(super) fn record(
        seconds: f64,
        method: &Method,
        template: &str,
        server: Option<&str>,
        status: Option<StatusCode>,
        error: Option<&str>,
    ) {
        let mut attributes = vec![
            KeyValue::new("http.request.method", method.as_str().to_owned()),
            KeyValue::new("url.template", template.to_owned()),
        ];
        if let Some(server) = server {
            attributes.push(KeyValue::new("server.address", server.to_owned()));
        }
        if let Some(status) = status {
            attributes.push(KeyValue::new(
                "http.response.status_code",
                i64::from(status.as_u16()),
            ));
        }
        if let Some(error) = error {
            attributes.push(KeyValue::new("error.type", error.to_owned()));
        }
        histogram().record(seconds, &attributes);
    }
}
