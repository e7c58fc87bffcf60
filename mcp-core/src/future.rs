//! The future type of handlers, middleware and the client channel.

use std::future::Future;
use std::pin::Pin;

/// A boxed, sendable future: what handlers and middleware return.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;
