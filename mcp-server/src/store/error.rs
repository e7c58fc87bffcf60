//! What can go wrong talking to the shared store.

/// A failure of the shared store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The store's URL is not a Redis URL.
    #[error("invalid Redis URL `{url}`: {error}")]
    InvalidUrl {
        /// The URL as given.
        url: String,
        /// Why the `redis` crate refused it (shown in the message, so not a
        /// `source()`).
        error: redis::RedisError,
    },
    /// Redis did not answer (down, unreachable, or too slow).
    #[error("Redis at {url} is unreachable: {error}")]
    Unreachable {
        /// The URL connected to, without its password.
        url: String,
        /// The connection or timeout error (shown in the message, so not a
        /// `source()`).
        error: redis::RedisError,
    },
    /// A Redis command failed.
    #[error("Redis command {command} failed: {error}")]
    Command {
        /// The command's name (`GET`, `XADD`, ...).
        command: &'static str,
        /// The error Redis or the connection reported (shown in the
        /// message, so not a `source()`).
        error: redis::RedisError,
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
    pub(crate) fn command(command: &'static str, url: &str, error: redis::RedisError) -> Self {
        if error.is_io_error()
            || error.is_timeout()
            || error.is_connection_dropped()
            || error.is_connection_refusal()
        {
            StoreError::Unreachable {
                url: url.to_owned(),
                error,
            }
        } else {
            StoreError::Command { command, error }
        }
    }

    /// Whether the store could not be reached (as opposed to a bad value).
    pub fn is_unreachable(&self) -> bool {
        matches!(self, StoreError::Unreachable { .. })
    }
}
