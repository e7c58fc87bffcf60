//! What can go wrong talking to the shared store.

/// A failure of the shared store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The store's URL is not a Redis URL.
    #[error("invalid Redis URL `{url}`: {source}")]
    InvalidUrl {
        /// The URL as given.
        url: String,
        /// Why the `redis` crate refused it.
        #[source]
        source: redis::RedisError,
    },
    /// Redis did not answer (down, unreachable, or too slow).
    #[error("Redis at {url} is unreachable: {source}")]
    Unreachable {
        /// The URL connected to, without its password.
        url: String,
        /// The connection or timeout error.
        #[source]
        source: redis::RedisError,
    },
    /// A Redis command failed.
    #[error("Redis command {command} failed: {source}")]
    Command {
        /// The command's name (`GET`, `XADD`, ...).
        command: &'static str,
        /// The error Redis or the connection reported.
        #[source]
        source: redis::RedisError,
    },
    /// A stored value could not be read back.
    #[error("the value stored at `{key}` is not valid: {reason}")]
    Corrupt {
        /// The Redis key.
        key: String,
        /// What is wrong with it.
        reason: String,
    },
}

impl StoreError {
    /// Wraps the error of the Redis command `command`: connection failures
    /// and timeouts become [`StoreError::Unreachable`].
    pub(crate) fn command(command: &'static str, url: &str, source: redis::RedisError) -> Self {
        if source.is_io_error()
            || source.is_timeout()
            || source.is_connection_dropped()
            || source.is_connection_refusal()
        {
            StoreError::Unreachable {
                url: url.to_owned(),
                source,
            }
        } else {
            StoreError::Command { command, source }
        }
    }

    /// Whether the store could not be reached (as opposed to a bad value).
    pub fn is_unreachable(&self) -> bool {
        matches!(self, StoreError::Unreachable { .. })
    }
}
