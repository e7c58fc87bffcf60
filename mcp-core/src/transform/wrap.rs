//! A hand-written function around the call of a transformed tool.

use std::future::Future;
use std::marker::PhantomData;

use serde::de::DeserializeOwned;

use crate::future::BoxFuture;
use crate::json::JsonObject;
use crate::tool::input::parse_arguments;
use crate::tool::result::{CallToolResult, IntoCallToolResult};
use crate::transform::forward::Forward;

/// The object-safe form of a wrap function.
pub(crate) trait Wrap<C>: Send + Sync + 'static {
    /// Runs the function with checked arguments (new names) and the way to
    /// the original tool.
    fn call(
        &self,
        arguments: JsonObject,
        forward: Forward<C>,
    ) -> BoxFuture<'static, CallToolResult>;
}

/// A wrap function `Fn(In, Forward<C>) -> Future<Output = R>`.
pub(crate) struct WrapFn<F, In, R> {
    pub(crate) function: F,
    pub(crate) marker: PhantomData<fn(In) -> R>,
}

impl<F, Fut, In, R, C> Wrap<C> for WrapFn<F, In, R>
where
    F: Fn(In, Forward<C>) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = R> + Send + 'static,
    R: IntoCallToolResult + 'static,
    In: DeserializeOwned + 'static,
    C: Send + Sync + 'static,
{
    fn call(
        &self,
        arguments: JsonObject,
        forward: Forward<C>,
    ) -> BoxFuture<'static, CallToolResult> {
        let tool = forward.context().tool().name.clone();
        match parse_arguments::<In>(&tool, arguments) {
            Ok(input) => {
                let future = (self.function)(input, forward);
                Box::pin(async move { future.await.into_call_tool_result() })
            }
            Err(error) => Box::pin(std::future::ready(CallToolResult::error(error.to_string()))),
        }
    }
}
