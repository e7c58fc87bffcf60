//! Logging and telemetry of the command line: log lines to stderr
//! (filtered by `RUST_LOG`), OpenTelemetry as the `OTEL_*` variables say,
//! and the Prometheus endpoint of `serve --metrics-bind`.

use std::net::SocketAddr;

use mcp_server::telemetry::{PrometheusMetrics, Telemetry, TelemetryGuard};
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;
use tracing_subscriber::{EnvFilter, Layer as _};

use super::error::CliError;

/// Installs the process's telemetry (with a Prometheus registry when
/// `prometheus`) and its log subscriber; the guard flushes on drop.
pub(crate) fn init(prometheus: bool) -> Result<TelemetryGuard, CliError> {
    let telemetry = Telemetry::new().prometheus(prometheus).init()?;
    let logs = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    tracing_subscriber::registry()
        .with(telemetry.tracing_layer())
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_filter(logs),
        )
        .init();
    Ok(telemetry)
}

/// Serves `metrics` at `http://ADDR/metrics` until the process ends.
pub(crate) async fn serve_metrics(
    addr: SocketAddr,
    metrics: &PrometheusMetrics,
) -> Result<(), CliError> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|error| CliError::MetricsBind { addr, error })?;
    let bound = listener.local_addr().unwrap_or(addr);
    let router = metrics.router();
    tokio::spawn(async move {
        if let Err(error) = axum::serve(listener, router).await {
            tracing::error!("the metrics endpoint stopped: {error}");
        }
    });
    tracing::info!("metrics (Prometheus text) at http://{bound}/metrics");
    Ok(())
}
