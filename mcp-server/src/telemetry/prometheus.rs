//! The metrics in the Prometheus text format, and an axum router serving
//! them at `GET /metrics`.

use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;
use prometheus::{Encoder as _, TextEncoder};

/// The Prometheus registry the meter provider writes to.
#[derive(Clone, Debug)]
pub struct PrometheusMetrics {
    registry: prometheus::Registry,
}

impl PrometheusMetrics {
    pub(crate) fn new(registry: prometheus::Registry) -> Self {
        Self { registry }
    }

    /// The current metrics in the Prometheus text exposition format
    /// (version 0.0.4).
    pub fn render(&self) -> String {
        let mut out = Vec::new();
        // Encoding to a `Vec` fails only on metric families the registry
        // never holds (no name, no type); such a scrape is left empty.
        if let Err(error) = TextEncoder::new().encode(&self.registry.gather(), &mut out) {
            tracing::warn!("cannot encode the metrics: {error}");
        }
        String::from_utf8_lossy(&out).into_owned()
    }

    /// A router answering `GET /metrics` with [`Self::render`], to serve on
    /// its own address or to merge into an app's router.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// let telemetry = mcp_server::telemetry::Telemetry::new().prometheus(true).init()?;
    /// if let Some(metrics) = telemetry.prometheus() {
    ///     let listener = tokio::net::TcpListener::bind("127.0.0.1:9464").await?;
    ///     axum::serve(listener, metrics.router()).await?;
    /// }
    /// # Ok(())
    /// # }
    /// ```
    pub fn router(&self) -> axum::Router {
        let metrics = self.clone();
        axum::Router::new().route(
            "/metrics",
            axum::routing::get(move || {
                let metrics = metrics.clone();
                async move {
                    (
                        [(CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")],
                        metrics.render(),
                    )
                        .into_response()
                }
            }),
        )
    }
}
