//! Opt-in passthrough of the incoming MCP request's `Authorization` header
//! (when the server is reached over HTTP) to the upstream API.
//!
//! The HTTP transport runs each tool call inside
//! [`with_incoming_authorization`]; a [`ClientConfig`](crate::call::ClientConfig)
//! built with
//! [`passthrough_authorization(true)`](crate::call::ClientConfigBuilder::passthrough_authorization)
//! then sends that value as the upstream `Authorization` header (instead of
//! the document's configured credentials for that header). Without the
//! opt-in, the incoming header is never forwarded.

use std::future::Future;

use crate::call::security::Secret;

tokio::task_local! {
    static INCOMING_AUTHORIZATION: Option<Secret>;
}

/// Runs `call` (a tool call) with the incoming request's `Authorization`
/// header value, for configurations that opted into passthrough.
pub async fn with_incoming_authorization<F: Future>(
    authorization: Option<String>,
    call: F,
) -> F::Output {
    INCOMING_AUTHORIZATION
        .scope(authorization.map(Secret::new), call)
        .await
}

/// The incoming `Authorization` value of the current call, if any.
pub(crate) fn incoming_authorization() -> Option<Secret> {
    INCOMING_AUTHORIZATION.try_with(Clone::clone).ok().flatten()
}
