//! Retries of idempotent requests: connection errors, `429` and `503` are
//! retried with bounded exponential backoff that honours `Retry-After`;
//! POST and PATCH never are.

use std::time::{Duration, SystemTime};

use http::{HeaderMap, Method, StatusCode};

/// How often and how patiently a failed idempotent request is retried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RetryPolicy {
    /// Retries after the first attempt (default 2; 0 disables retries).
    pub max_retries: u32,
    /// The first backoff delay, doubled on each retry (default 200 ms).
    pub base_delay: Duration,
    /// The longest delay, also the cap on `Retry-After` (default 10 s).
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_retries: 2,
            base_delay: Duration::from_millis(200),
            max_delay: Duration::from_secs(10),
        }
    }
}

/// What the last attempt gave, as far as retrying is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Attempt<'a> {
    /// The connection could not be made or broke before a response.
    ConnectionError,
    /// A response arrived.
    Response(StatusCode, &'a HeaderMap),
}

impl RetryPolicy {
    /// No retries at all.
    pub fn none() -> Self {
        Self {
            max_retries: 0,
            ..Self::default()
        }
    }

    /// Sets the number of retries.
    pub fn max_retries(mut self, retries: u32) -> Self {
        self.max_retries = retries;
        self
    }

    /// Sets the first backoff delay.
    pub fn base_delay(mut self, delay: Duration) -> Self {
        self.base_delay = delay;
        self
    }

    /// Sets the longest delay (and the cap on `Retry-After`).
    pub fn max_delay(mut self, delay: Duration) -> Self {
        self.max_delay = delay;
        self
    }

    /// The delay before retry number `retry` (0-based) after `attempt`, or
    /// `None` when the request must not be retried.
    pub(crate) fn delay(
        &self,
        method: &Method,
        retry: u32,
        attempt: Attempt<'_>,
    ) -> Option<Duration> {
        let idempotent = matches!(
            *method,
            Method::GET
                | Method::HEAD
                | Method::OPTIONS
                | Method::PUT
                | Method::DELETE
                | Method::TRACE
        );
        if !idempotent || retry >= self.max_retries {
            return None;
        }
        let backoff = self
            .base_delay
            .saturating_mul(2u32.saturating_pow(retry))
            .min(self.max_delay);
        match attempt {
            Attempt::ConnectionError => Some(backoff),
            Attempt::Response(status, headers)
                if status == StatusCode::TOO_MANY_REQUESTS
                    || status == StatusCode::SERVICE_UNAVAILABLE =>
            {
                let told = headers
                    .get(http::header::RETRY_AFTER)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| retry_after(v, SystemTime::now()));
                Some(told.unwrap_or(backoff).min(self.max_delay))
            }
            Attempt::Response(..) => None,
        }
    }
}

/// Parses `Retry-After`: delay seconds, or an HTTP date relative to `now`.
fn retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let when = httpdate::parse_http_date(value).ok()?;
    Some(when.duration_since(now).unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_idempotent_methods_retry_and_only_so_often() {
        let policy = RetryPolicy::default();
        let headers = HeaderMap::new();
        let busy = Attempt::Response(StatusCode::SERVICE_UNAVAILABLE, &headers);
        assert_eq!(
            policy.delay(&Method::GET, 0, busy),
            Some(Duration::from_millis(200))
        );
        assert_eq!(
            policy.delay(&Method::GET, 1, Attempt::ConnectionError),
            Some(Duration::from_millis(400))
        );
        assert_eq!(policy.delay(&Method::GET, 2, busy), None);
        assert_eq!(policy.delay(&Method::POST, 0, busy), None);
        assert_eq!(
            policy.delay(&Method::PATCH, 0, Attempt::ConnectionError),
            None
        );
        let bad = Attempt::Response(StatusCode::BAD_REQUEST, &headers);
        assert_eq!(policy.delay(&Method::PUT, 0, bad), None);
    }

    #[test]
    fn retry_after_is_honoured_and_capped() {
        let policy = RetryPolicy::default();
        let mut headers = HeaderMap::new();
        headers.insert(
            http::header::RETRY_AFTER,
            http::HeaderValue::from_static("3"),
        );
        let limited = Attempt::Response(StatusCode::TOO_MANY_REQUESTS, &headers);
        assert_eq!(
            policy.delay(&Method::DELETE, 0, limited),
            Some(Duration::from_secs(3))
        );
        headers.insert(
            http::header::RETRY_AFTER,
            http::HeaderValue::from_static("3600"),
        );
        let limited = Attempt::Response(StatusCode::TOO_MANY_REQUESTS, &headers);
        assert_eq!(
            policy.delay(&Method::DELETE, 0, limited),
            Some(Duration::from_secs(10))
        );
    }

    #[test]
    fn parses_http_dates() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(784_111_770);
        assert_eq!(
            retry_after("Sun, 06 Nov 1994 08:49:37 GMT", now),
            Some(Duration::from_secs(7))
        );
        assert_eq!(retry_after("soon", now), None);
    }
}
