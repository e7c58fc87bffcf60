//! Why telemetry could not be installed.

/// An error of [`Telemetry::init`](super::Telemetry::init).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TelemetryError {
    /// An OTLP protocol this build does not speak.
    #[error("{variable}={value}: only `http/protobuf` is supported")]
    Protocol {
        /// The variable that asked for it.
        variable: &'static str,
        /// Its value.
        value: String,
    },
    /// An exporter could not be made (a malformed endpoint, ...).
    #[error("the {signal} exporter cannot be made: {reason}")]
    Exporter {
        /// `traces`, `metrics` or `prometheus`.
        signal: &'static str,
        /// Why.
        reason: String,
    },
}
