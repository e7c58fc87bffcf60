//! What is wrong with an authorization setting.

/// An authorization setting was refused when the server was configured.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AuthError {
    /// A URL setting does not parse.
    #[error("{what} `{url}` is not a URL: {reason}")]
    InvalidUrl {
        /// Which setting (`issuer`, `public URL`, ...).
        what: &'static str,
        /// The value given.
        url: String,
        /// Why it does not parse.
        reason: String,
    },
    /// A URL that must be `https` is not (only loopback hosts may use
    /// `http`).
    #[error("{what} `{url}` must use https (http is accepted for loopback hosts only)")]
    NotHttps {
        /// Which setting.
        what: &'static str,
        /// The value given.
        url: String,
    },
    /// OAuth was configured without a trusted issuer.
    #[error("OAuth needs at least one trusted issuer (`--oauth-issuer URL`)")]
    NoIssuer,
    /// A signature algorithm is unknown or not allowed.
    #[error(
        "signature algorithm `{name}` is not allowed: use RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384 or EdDSA"
    )]
    Algorithm {
        /// The name given.
        name: String,
    },
    /// The allow-list of signature algorithms is empty.
    #[error("the allow-list of signature algorithms is empty")]
    NoAlgorithm,
    /// The HTTP client for discovery could not be made.
    #[error("cannot make the HTTP client for key discovery: {reason}")]
    Client {
        /// Why.
        reason: String,
    },
}
