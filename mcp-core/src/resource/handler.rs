//! The code that reads a resource: the object-safe handler, and the
//! adapter from plain async functions.

use std::future::Future;
use std::marker::PhantomData;
use std::sync::Arc;

use crate::future::BoxFuture;
use crate::resource::error::ResourceError;
use crate::resource::request::ResourceRequest;
use crate::resource::result::{IntoReadResourceResult, ReadResourceResult};

/// The object-safe form of a resource's code.
pub trait ResourceHandler<C = ()>: Send + Sync + 'static {
    /// Reads the resource.
    fn read(
        &self,
        request: ResourceRequest<C>,
    ) -> BoxFuture<'static, Result<ReadResourceResult, ResourceError>>;
}

/// An async function usable as a resource's code: `Fn() -> Fut` or
/// `Fn(ResourceRequest<C>) -> Fut`, whose output is
/// [`IntoReadResourceResult`].
#[diagnostic::on_unimplemented(
    message = "this function cannot read a resource",
    note = "a resource handler is `async fn()` or `async fn(ResourceRequest<C>)` returning text, bytes, `ResourceContents` or a `Result` of them"
)]
pub trait ResourceFn<M, C>: Send + Sync + 'static {
    /// What the function's future yields.
    type Output: IntoReadResourceResult;
    /// The function's future.
    type Future: Future<Output = Self::Output> + Send + 'static;
    /// Calls the function.
    fn call(&self, request: ResourceRequest<C>) -> Self::Future;
}

impl<F, Fut, C> ResourceFn<fn(), C> for F
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: Future + Send + 'static,
    Fut::Output: IntoReadResourceResult,
{
    type Output = Fut::Output;
    type Future = Fut;
    fn call(&self, _request: ResourceRequest<C>) -> Fut {
        self()
    }
}

impl<F, Fut, C> ResourceFn<fn(ResourceRequest<C>), C> for F
where
    F: Fn(ResourceRequest<C>) -> Fut + Send + Sync + 'static,
    Fut: Future + Send + 'static,
    Fut::Output: IntoReadResourceResult,
{
    type Output = Fut::Output;
    type Future = Fut;
    fn call(&self, request: ResourceRequest<C>) -> Fut {
        self(request)
    }
}

/// A [`ResourceHandler`] made from a [`ResourceFn`]; text and bytes it
/// returns carry `mime_type`.
pub(crate) struct ResourceFnHandler<H, M> {
    pub(crate) handler: H,
    pub(crate) mime_type: Option<Arc<str>>,
    pub(crate) marker: PhantomData<fn(M)>,
}

impl<H: ResourceFn<M, C>, M: 'static, C: 'static> ResourceHandler<C> for ResourceFnHandler<H, M> {
    fn read(
        &self,
        request: ResourceRequest<C>,
    ) -> BoxFuture<'static, Result<ReadResourceResult, ResourceError>> {
        let uri = request.uri().to_owned();
        let mime = self.mime_type.clone();
        let future = self.handler.call(request);
        Box::pin(async move { future.await.into_read_result(&uri, mime.as_deref()) })
    }
}
