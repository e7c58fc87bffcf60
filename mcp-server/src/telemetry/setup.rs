//! Installing the OpenTelemetry providers: OTLP over HTTP/protobuf for
//! traces and metrics, configured by the standard `OTEL_*` variables and
//! off unless an endpoint is set, and a Prometheus registry on request.

use std::env;

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::metrics::{PeriodicReader, SdkMeterProvider};
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing::Subscriber;
use tracing_subscriber::Layer;
use tracing_subscriber::filter::LevelFilter;
use tracing_subscriber::registry::LookupSpan;

use super::error::TelemetryError;
use super::prometheus::PrometheusMetrics;

/// What [`Telemetry::init`] installs: the settings the `OTEL_*` variables
/// do not cover.
///
/// Traces go out when `OTEL_EXPORTER_OTLP_ENDPOINT` (or
/// `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set, metrics when
/// `OTEL_EXPORTER_OTLP_ENDPOINT` (or `..._METRICS_ENDPOINT`) is set or the
/// Prometheus registry is asked for; `OTEL_SDK_DISABLED=true`,
/// `OTEL_TRACES_EXPORTER=none` and `OTEL_METRICS_EXPORTER=none` turn them
/// off. The exporters read the rest (`OTEL_EXPORTER_OTLP_HEADERS`,
/// `..._TIMEOUT`, `OTEL_BSP_SCHEDULE_DELAY`, `OTEL_METRIC_EXPORT_INTERVAL`,
/// `OTEL_RESOURCE_ATTRIBUTES`, ...). Only the `http/protobuf` protocol is
/// built in.
///
/// ```no_run
/// use tracing_subscriber::layer::SubscriberExt as _;
/// use tracing_subscriber::util::SubscriberInitExt as _;
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let telemetry = mcp_server::telemetry::Telemetry::new()
///     .service_name("pets-mcp")
///     .prometheus(true)
///     .init()?;
/// tracing_subscriber::registry()
///     .with(telemetry.tracing_layer())
///     .with(tracing_subscriber::fmt::layer())
///     .init();
/// // Serve; `telemetry.prometheus()` gives the `/metrics` router to mount.
/// drop(telemetry); // flushes what is buffered
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug, Default)]
pub struct Telemetry {
    service_name: Option<String>,
    prometheus: bool,
}

impl Telemetry {
    /// Telemetry as the environment says, Prometheus off.
    pub fn new() -> Self {
        Self::default()
    }

    /// The `service.name` when `OTEL_SERVICE_NAME` is unset (default
    /// `mcp-server`).
    pub fn service_name(mut self, name: impl Into<String>) -> Self {
        self.service_name = Some(name.into());
        self
    }

    /// Whether to keep metrics in a Prometheus registry, for
    /// [`TelemetryGuard::prometheus`].
    pub fn prometheus(mut self, on: bool) -> Self {
        self.prometheus = on;
        self
    }

    /// Installs the trace-context propagator, and the tracer and meter
    /// providers the environment asks for, as the process's own. Call it
    /// before serving (instruments are made on the first request) and keep
    /// the guard: dropping it flushes and shuts the exporters down.
    ///
    /// The exporters make their HTTP client on a thread of their own, so
    /// this may be called inside or outside an async runtime.
    pub fn init(self) -> Result<TelemetryGuard, TelemetryError> {
        let var = |name: &str| env::var(name).ok();
        let disabled = flag(&var, "OTEL_SDK_DISABLED");
        let traces = !disabled && exporter_on(&var, "TRACES");
        let otlp_metrics = !disabled && exporter_on(&var, "METRICS");
        let prometheus = self.prometheus;
        if traces || otlp_metrics {
            check_protocol(&var)?;
            // The exporters' client is rustls without a built-in provider.
            if rustls::crypto::CryptoProvider::get_default().is_none() {
                let _ = rustls::crypto::ring::default_provider().install_default();
            }
        }
        opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
        let resource = self.resource();

        let tracer = if traces {
            let exporter = opentelemetry_otlp::SpanExporter::builder()
                .with_http()
                .build()
                .map_err(|error| TelemetryError::Exporter {
                    signal: "traces",
                    reason: error.to_string(),
                })?;
            let provider = SdkTracerProvider::builder()
                .with_batch_exporter(exporter)
                .with_resource(resource.clone())
                .build();
            opentelemetry::global::set_tracer_provider(provider.clone());
            Some(provider)
        } else {
            None
        };

        let registry = prometheus.then(::prometheus::Registry::new);
        let meter = if otlp_metrics || prometheus {
            let mut builder = SdkMeterProvider::builder().with_resource(resource);
            if otlp_metrics {
                let exporter = opentelemetry_otlp::MetricExporter::builder()
                    .with_http()
                    .build()
                    .map_err(|error| TelemetryError::Exporter {
                        signal: "metrics",
                        reason: error.to_string(),
                    })?;
                builder = builder.with_reader(PeriodicReader::builder(exporter).build());
            }
            if let Some(registry) = &registry {
                let reader = opentelemetry_prometheus::exporter()
                    .with_registry(registry.clone())
                    .build()
                    .map_err(|error| TelemetryError::Exporter {
                        signal: "prometheus",
                        reason: error.to_string(),
                    })?;
                builder = builder.with_reader(reader);
            }
            let provider = builder.build();
            opentelemetry::global::set_meter_provider(provider.clone());
            Some(provider)
        } else {
            None
        };
        Ok(TelemetryGuard {
            tracer,
            meter,
            prometheus: registry.map(PrometheusMetrics::new),
        })
    }

    fn resource(&self) -> Resource {
        let builder = Resource::builder();
        let named = env::var("OTEL_SERVICE_NAME").is_ok_and(|name| !name.trim().is_empty());
        if named {
            builder.build()
        } else {
            let name = self.service_name.as_deref().unwrap_or("mcp-server");
            builder.with_service_name(name.to_owned()).build()
        }
    }
}

/// The environment, as a lookup of variables.
type Vars<'a> = dyn Fn(&str) -> Option<String> + 'a;

/// Whether the variable `name` is `true`.
fn flag(var: &Vars<'_>, name: &str) -> bool {
    var(name).is_some_and(|value| value.trim().eq_ignore_ascii_case("true"))
}

/// Whether the OTLP exporter of `signal` (`TRACES`, `METRICS`) has an
/// endpoint and is not turned off.
fn exporter_on(var: &Vars<'_>, signal: &str) -> bool {
    let set = |name: &str| var(name).is_some_and(|value| !value.trim().is_empty());
    let off = var(&format!("OTEL_{signal}_EXPORTER"))
        .is_some_and(|value| value.trim().eq_ignore_ascii_case("none"));
    !off && (set("OTEL_EXPORTER_OTLP_ENDPOINT")
        || set(&format!("OTEL_EXPORTER_OTLP_{signal}_ENDPOINT")))
}

/// Refuses an OTLP protocol other than `http/protobuf`.
fn check_protocol(var: &Vars<'_>) -> Result<(), TelemetryError> {
    for name in [
        "OTEL_EXPORTER_OTLP_PROTOCOL",
        "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
        "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL",
    ] {
        if let Some(value) = var(name) {
            let value = value.trim();
            if !value.is_empty() && value != "http/protobuf" {
                return Err(TelemetryError::Protocol {
                    variable: name,
                    value: value.to_owned(),
                });
            }
        }
    }
    Ok(())
}

/// The installed providers; dropping it flushes and shuts them down.
#[derive(Debug)]
pub struct TelemetryGuard {
    tracer: Option<SdkTracerProvider>,
    meter: Option<SdkMeterProvider>,
    prometheus: Option<PrometheusMetrics>,
}

impl TelemetryGuard {
    /// The `tracing` layer that turns spans (at `INFO` and above) into
    /// OpenTelemetry spans, when traces are exported; `None` is a layer
    /// that does nothing.
    pub fn tracing_layer<S>(&self) -> Option<Box<dyn Layer<S> + Send + Sync + 'static>>
    where
        S: Subscriber + for<'span> LookupSpan<'span> + Send + Sync,
    {
        let tracer = self.tracer.as_ref()?.tracer("mcp-server");
        Some(
            tracing_opentelemetry::layer()
                .with_tracer(tracer)
                .with_filter(LevelFilter::INFO)
                .boxed(),
        )
    }

    /// Whether spans are exported.
    pub fn traces_enabled(&self) -> bool {
        self.tracer.is_some()
    }

    /// Whether metrics are recorded (OTLP, Prometheus or both).
    pub fn metrics_enabled(&self) -> bool {
        self.meter.is_some()
    }

    /// The Prometheus view of the metrics, when it was asked for.
    pub fn prometheus(&self) -> Option<&PrometheusMetrics> {
        self.prometheus.as_ref()
    }
}

impl Drop for TelemetryGuard {
    fn drop(&mut self) {
        if let Some(tracer) = self.tracer.take()
            && let Err(error) = tracer.shutdown()
        {
            eprintln!("mcp-server: flushing traces failed: {error}");
        }
        if let Some(meter) = self.meter.take()
            && let Err(error) = meter.shutdown()
        {
            eprintln!("mcp-server: flushing metrics failed: {error}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
            .collect();
        move |name| {
            pairs
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, value)| value.clone())
        }
    }

    #[test]
    fn exporters_are_off_unless_an_endpoint_is_set() {
        assert!(!exporter_on(&vars(&[]), "TRACES"));
        assert!(!exporter_on(
            &vars(&[("OTEL_EXPORTER_OTLP_ENDPOINT", " ")]),
            "TRACES"
        ));
        let all = vars(&[("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318")]);
        assert!(exporter_on(&all, "TRACES") && exporter_on(&all, "METRICS"));
        let traces = vars(&[("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://c/v1/traces")]);
        assert!(exporter_on(&traces, "TRACES") && !exporter_on(&traces, "METRICS"));
        let no_metrics = vars(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318"),
            ("OTEL_METRICS_EXPORTER", "none"),
        ]);
        assert!(exporter_on(&no_metrics, "TRACES") && !exporter_on(&no_metrics, "METRICS"));
        assert!(flag(
            &vars(&[("OTEL_SDK_DISABLED", "TRUE")]),
            "OTEL_SDK_DISABLED"
        ));
        assert!(!flag(
            &vars(&[("OTEL_SDK_DISABLED", "no")]),
            "OTEL_SDK_DISABLED"
        ));
    }

    #[test]
    fn only_http_protobuf_is_spoken() {
        assert!(check_protocol(&vars(&[])).is_ok());
        assert!(check_protocol(&vars(&[("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")])).is_ok());
        let grpc = check_protocol(&vars(&[("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "grpc")]))
            .unwrap_err()
            .to_string();
        assert_eq!(
            grpc,
            "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=grpc: only `http/protobuf` is supported"
        );
    }
}
