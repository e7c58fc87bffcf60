//! Log messages a server sends to the client (`notifications/message`).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The severity of a log message, in the order of RFC 5424 (syslog): a
/// client's `logging/setLevel` asks for this level and everything more severe.
///
/// ```
/// use mcp_core::client::LoggingLevel;
///
/// assert!(LoggingLevel::Error > LoggingLevel::Info);
/// assert_eq!("warning".parse::<LoggingLevel>().unwrap(), LoggingLevel::Warning);
/// assert_eq!(serde_json::to_string(&LoggingLevel::Notice).unwrap(), r#""notice""#);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LoggingLevel {
    /// Detailed debugging information.
    Debug,
    /// Normal operational messages.
    Info,
    /// Normal but significant events.
    Notice,
    /// Warning conditions.
    Warning,
    /// Error conditions.
    Error,
    /// Critical conditions.
    Critical,
    /// Action must be taken immediately.
    Alert,
    /// The system is unusable.
    Emergency,
}

impl LoggingLevel {
    /// Every level, least severe first.
    pub const ALL: [Self; 8] = [
        Self::Debug,
        Self::Info,
        Self::Notice,
        Self::Warning,
        Self::Error,
        Self::Critical,
        Self::Alert,
        Self::Emergency,
    ];

    /// The wire name (`"debug"`, `"info"`, ...).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Debug => "debug",
            Self::Info => "info",
            Self::Notice => "notice",
            Self::Warning => "warning",
            Self::Error => "error",
            Self::Critical => "critical",
            Self::Alert => "alert",
            Self::Emergency => "emergency",
        }
    }
}

impl fmt::Display for LoggingLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A string that is not a logging level.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "invalid logging level `{0}`: expected debug, info, notice, warning, error, critical, alert or emergency"
)]
pub struct InvalidLoggingLevel(pub String);

impl FromStr for LoggingLevel {
    type Err = InvalidLoggingLevel;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|level| level.as_str() == s)
            .ok_or_else(|| InvalidLoggingLevel(s.to_owned()))
    }
}

/// The parameters of `notifications/message`: a level, an optional logger
/// name and any JSON data.
///
/// ```
/// use mcp_core::{client::{LogMessage, LoggingLevel}};
///
/// let message = LogMessage::new(LoggingLevel::Info, "started").logger("db");
/// assert_eq!(
///     serde_json::to_value(&message).unwrap(),
///     serde_json::json!({"level": "info", "logger": "db", "data": "started"})
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct LogMessage {
    /// The severity.
    pub level: LoggingLevel,
    /// The name of the logger that issued the message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logger: Option<String>,
    /// The message: a string or any JSON value.
    pub data: Value,
}

impl LogMessage {
    /// A message at `level` carrying `data`.
    pub fn new(level: LoggingLevel, data: impl Into<Value>) -> Self {
        Self {
            level,
            logger: None,
            data: data.into(),
        }
    }

    /// Names the logger.
    pub fn logger(mut self, logger: impl Into<String>) -> Self {
        self.logger = Some(logger.into());
        self
    }
}
