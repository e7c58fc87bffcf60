//! Why a generated tool could not make or complete its HTTP call.

/// An error of request building, authentication or the HTTP exchange.
///
/// Messages never hold a credential: secrets are only ever named by their
/// scheme, and transport errors name the URL they tried without its user
/// name, password, query (which could carry an API key) and fragment.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CallError {
    /// The arguments do not match the tool's input schema (one line per
    /// violation, each with its JSON pointer: the format every kind of tool
    /// shares).
    #[error(transparent)]
    InvalidArguments(#[from] mcp_core::arguments::InvalidArguments),
    /// A required path parameter has no value.
    #[error("path parameter `{0}` is required")]
    MissingPathParameter(String),
    /// A path parameter's value would form a `.` or `..` segment.
    #[error("path parameter `{0}`: the value would form a `.` or `..` path segment")]
    DotSegment(String),
    /// A header (parameter, static header or credential) holds bytes a
    /// header may not hold (CR, LF, other control characters).
    #[error(
        "header `{0}`: the name or value holds characters a header may not hold (for example CR or LF)"
    )]
    InvalidHeader(String),
    /// The request body could not be encoded in its media type.
    #[error("request body ({media_type}): {reason}")]
    Body {
        /// The media type.
        media_type: String,
        /// What went wrong.
        reason: String,
    },
    /// No usable base URL.
    #[error("base url: {0}")]
    BaseUrl(String),
    /// A security scheme is malformed or its credentials are unusable.
    #[error("security scheme `{scheme}`: {reason}")]
    Auth {
        /// The scheme's name.
        scheme: String,
        /// What went wrong (never the secret itself).
        reason: String,
    },
    /// The HTTP client could not be built.
    #[error("http client: {0}")]
    Client(String),
    /// The exchange failed (connection refused, reset, ...): the URL tried
    /// (without credentials or query) and why.
    #[error("{0}")]
    Transport(String),
    /// A successful response's body is longer than the configured cap
    /// ([`ClientConfigBuilder::max_response_bytes`](crate::call::ClientConfigBuilder::max_response_bytes)).
    #[error(
        "the upstream response is larger than {0} bytes, the most this server reads from it; none of it is used"
    )]
    ResponseTooLarge(usize),
    /// The exchange took longer than the tool's timeout.
    #[error("request timed out after {0} ms")]
    Timeout(u128),
    /// The client cancelled the call.
    #[error("the call was cancelled")]
    Cancelled,
    /// No upstream credentials could be had for the caller (see
    /// [`UpstreamCredentials`](crate::call::UpstreamCredentials)), or the
    /// configuration both forwards the caller's header and derives
    /// credentials from it.
    #[error("upstream credentials: {0}")]
    UpstreamCredentials(String),
}

impl CallError {
    /// A short, low-cardinality name of the failure (the `error.type` of
    /// telemetry).
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Self::InvalidArguments(_) => "invalid_arguments",
            Self::MissingPathParameter(_) | Self::DotSegment(_) => "invalid_path_parameter",
            Self::InvalidHeader(_) => "invalid_header",
            Self::Body { .. } => "invalid_body",
            Self::BaseUrl(_) => "base_url",
            Self::Auth { .. } => "auth",
            Self::Client(_) => "client",
            Self::Transport(_) => "transport",
            Self::ResponseTooLarge(_) => "response_too_large",
            Self::Timeout(_) => "timeout",
            Self::Cancelled => "cancelled",
            Self::UpstreamCredentials(_) => "upstream_credentials",
        }
    }

    /// A transport error naming the URL it tried, without what could be a
    /// credential (user name, password, query, fragment).
    pub(crate) fn transport(error: &reqwest::Error) -> Self {
        let reason = error_without_url(error);
        match error.url() {
            Some(url) => Self::Transport(format!(
                "request to {} failed: {reason}",
                without_credentials(url)
            )),
            None => Self::Transport(format!("request failed: {reason}")),
        }
    }
}

/// `url` without user name, password, query and fragment.
fn without_credentials(url: &url::Url) -> String {
    let mut url = url.clone();
    // Only URLs that cannot have credentials (`data:`, ...) refuse these.
    let _ = url.set_username("");
    let _ = url.set_password(None);
    url.set_query(None);
    url.set_fragment(None);
    url.to_string()
}

/// Why the exchange failed: its kind and the causes, which (unlike the
/// error's own message) do not quote the URL.
fn error_without_url(error: &reqwest::Error) -> String {
    use std::error::Error as _;
    let kind = if error.is_connect() {
        "connection failed"
    } else if error.is_body() || error.is_decode() {
        "reading the response body failed"
    } else if error.is_redirect() {
        "redirect failed"
    } else if error.is_request() {
        "sending the request failed"
    } else {
        "http error"
    };
    let mut causes = Vec::new();
    let mut source = error.source();
    while let Some(cause) = source {
        causes.push(cause.to_string());
        source = cause.source();
    }
    if causes.is_empty() {
        kind.to_owned()
    } else {
        format!("{kind}: {}", causes.join(": "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_lose_what_could_be_a_credential() {
        let url =
            url::Url::parse("https://user:secret@api.example.com/v1/pets?api_key=k#top").unwrap();
        assert_eq!(without_credentials(&url), "https://api.example.com/v1/pets");
    }
}
