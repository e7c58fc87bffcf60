//! Why a token was refused, as the gate words it.

/// Why a token was refused.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Refusal {
    /// The token is invalid (401 `invalid_token`).
    #[error("{0}")]
    Invalid(String),
    /// The token could not be checked because the issuer's keys or its
    /// introspection endpoint cannot be reached (503).
    #[error("{0}")]
    Unavailable(String),
}
