//! The code behind a tool: the object-safe handler, and the adapter from
//! plain async functions.

use std::future::Future;
use std::marker::PhantomData;

use serde::de::DeserializeOwned;

use crate::future::BoxFuture;
use crate::tool::context::ToolCallContext;
use crate::tool::input::parse_arguments;
use crate::tool::lazy_check::LazyArgumentCheck;
use crate::tool::output::IntoToolResult;
use crate::tool::result::CallToolResult;

/// The object-safe form of a tool's code: a call context in, a result out.
///
/// [`ToolBuilder::run`](crate::ToolBuilder::run) makes one from a plain async
/// function; implement it yourself only for dynamic tools.
pub trait ToolHandler<C = ()>: Send + Sync + 'static {
    /// Runs the tool.
    fn call(&self, cx: ToolCallContext<C>) -> BoxFuture<'static, CallToolResult>;
}

/// An async function usable as a tool's code; `M` tells the forms apart:
///
/// - `Fn() -> Fut` (no arguments),
/// - `Fn(In) -> Fut` (the deserialized arguments),
/// - `Fn(In, ToolCallContext<C>) -> Fut` (arguments and the call context).
///
/// `Fut` must be `Send + 'static`: clone shared state into the future.
#[diagnostic::on_unimplemented(
    message = "this function cannot be a tool handler",
    note = "a handler is `async fn()`, `async fn(In)` or `async fn(In, ToolCallContext<C>)` whose future is `Send + 'static`, where `In` is the type given to `.input::<In>()` (a JSON object map without it)"
)]
pub trait ToolFn<M, In, C>: Send + Sync + 'static {
    /// What the function's future yields.
    type Output;
    /// The function's future.
    type Future: Future<Output = Self::Output> + Send + 'static;

    /// Calls the function.
    fn call(&self, input: In, cx: ToolCallContext<C>) -> Self::Future;
}

impl<F, Fut, In, C> ToolFn<fn(), In, C> for F
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: Future + Send + 'static,
{
    type Output = Fut::Output;
    type Future = Fut;

    fn call(&self, _input: In, _cx: ToolCallContext<C>) -> Fut {
        self()
    }
}

impl<F, Fut, In, C> ToolFn<fn(In), In, C> for F
where
    F: Fn(In) -> Fut + Send + Sync + 'static,
    Fut: Future + Send + 'static,
{
    type Output = Fut::Output;
    type Future = Fut;

    fn call(&self, input: In, _cx: ToolCallContext<C>) -> Fut {
        self(input)
    }
}

impl<F, Fut, In, C> ToolFn<fn(In, ToolCallContext<C>), In, C> for F
where
    F: Fn(In, ToolCallContext<C>) -> Fut + Send + Sync + 'static,
    Fut: Future + Send + 'static,
{
    type Output = Fut::Output;
    type Future = Fut;

    fn call(&self, input: In, cx: ToolCallContext<C>) -> Fut {
        self(input, cx)
    }
}

/// A [`ToolHandler`] made from a [`ToolFn`]: checks the arguments against
/// the tool's input schema, deserializes them into `In`, calls the function
/// and converts what it returns.
pub(crate) struct ToolFnHandler<H, M, In, Out> {
    pub(crate) handler: H,
    pub(crate) wrapped: bool,
    /// The input schema, compiled on the first call.
    pub(crate) check: LazyArgumentCheck,
    pub(crate) marker: PhantomData<fn(M, In) -> Out>,
}

impl<H, M, In, Out, C> ToolHandler<C> for ToolFnHandler<H, M, In, Out>
where
    H: ToolFn<M, In, C>,
    H::Output: IntoToolResult<Out>,
    In: DeserializeOwned + 'static,
    Out: 'static,
    M: 'static,
    C: Send + Sync + 'static,
{
    fn call(&self, mut cx: ToolCallContext<C>) -> BoxFuture<'static, CallToolResult> {
        let arguments = cx.take_arguments();
        let tool = &cx.tool().name;
        let checked = self.check.check(tool, &cx.tool().input_schema, arguments);
        let input = match checked.and_then(|arguments| parse_arguments::<In>(tool, arguments)) {
            Ok(input) => input,
            Err(error) => {
                return Box::pin(std::future::ready(CallToolResult::error(error.to_string())));
            }
        };
        let future = self.handler.call(input, cx);
        let wrapped = self.wrapped;
        Box::pin(async move { future.await.into_tool_result(wrapped) })
    }
}
