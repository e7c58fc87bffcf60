//! The SSE stream of one Streamable HTTP request, as handlers may close it
//! (SEP-1699 polling). The HTTP transport puts a [`RequestStream`] into the
//! request's extensions; the call's channel finds it there.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use mcp_core::BoxFuture;
use rmcp::service::{RequestContext, RoleServer};

type Close = dyn Fn(Duration) -> BoxFuture<'static, Result<(), String>> + Send + Sync;

/// Closes the SSE stream a request answers on; the client resumes it with
/// `Last-Event-ID`.
#[derive(Clone)]
pub(crate) struct RequestStream {
    close: Arc<Close>,
}

impl RequestStream {
    /// A stream closed by `close` (given the retry interval to announce).
    #[cfg(feature = "http")]
    pub(crate) fn new(
        close: impl Fn(Duration) -> BoxFuture<'static, Result<(), String>> + Send + Sync + 'static,
    ) -> Self {
        Self {
            close: Arc::new(close),
        }
    }

    /// The stream of the request `context`, when it has one.
    pub(crate) fn of(context: &RequestContext<RoleServer>) -> Option<Self> {
        #[cfg(feature = "http")]
        {
            let parts = context.extensions.get::<http::request::Parts>()?;
            parts.extensions.get::<Self>().cloned()
        }
        #[cfg(not(feature = "http"))]
        {
            let _ = context;
            None
        }
    }

    /// Closes the stream, announcing `retry` as the reconnection delay.
    pub(crate) fn close(&self, retry: Duration) -> BoxFuture<'static, Result<(), String>> {
        (self.close)(retry)
    }
}

impl fmt::Debug for RequestStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RequestStream").finish_non_exhaustive()
    }
}
