//! Handlers: the code behind a tool, and the adapters from plain async
//! functions.

use std::fmt::Display;
use std::future::Future;
use std::marker::PhantomData;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::{BoxFuture, CallToolResult, IntoCallToolResult, JsonObject, ToolCallContext};

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
pub trait Handler<M, In, C>: Send + Sync + 'static {
    /// What the function's future yields.
    type Output;
    /// The function's future.
    type Future: Future<Output = Self::Output> + Send + 'static;

    /// Calls the function.
    fn call(&self, input: In, cx: ToolCallContext<C>) -> Self::Future;
}

impl<F, Fut, In, C> Handler<fn(), In, C> for F
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

impl<F, Fut, In, C> Handler<fn(In), In, C> for F
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

impl<F, Fut, In, C> Handler<fn(In, ToolCallContext<C>), In, C> for F
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

/// The output marker of a tool without a declared output schema: its handler
/// returns anything [`IntoCallToolResult`].
#[derive(Debug, Clone, Copy)]
pub enum Unstructured {}

/// How a handler's return value becomes a result, given the tool's declared
/// output `Out`.
///
/// With `.output::<T>()`, a handler returns `T` or `Result<T, E: Display>`:
/// `T` becomes `structuredContent` plus a text block with the same JSON. With
/// no declared output, it returns anything [`IntoCallToolResult`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a result of a tool whose output is `{Out}`",
    note = "a tool declared with `.output::<T>()` returns `T` or `Result<T, E>` with `E: Display`"
)]
pub trait IntoToolResult<Out> {
    /// Converts the value; `wrapped` says whether the output schema wraps the
    /// value as `{"result": ...}`.
    fn into_tool_result(self, wrapped: bool) -> CallToolResult;
}

impl<R: IntoCallToolResult> IntoToolResult<Unstructured> for R {
    fn into_tool_result(self, _wrapped: bool) -> CallToolResult {
        self.into_call_tool_result()
    }
}

impl<T: Serialize> IntoToolResult<T> for T {
    fn into_tool_result(self, wrapped: bool) -> CallToolResult {
        structured(&self, wrapped)
    }
}

impl<T: Serialize, E: Display> IntoToolResult<T> for Result<T, E> {
    fn into_tool_result(self, wrapped: bool) -> CallToolResult {
        match self {
            Ok(value) => structured(&value, wrapped),
            Err(error) => CallToolResult::error(error.to_string()),
        }
    }
}

fn structured<T: Serialize>(value: &T, wrapped: bool) -> CallToolResult {
    match serde_json::to_value(value) {
        Ok(value) if wrapped => {
            let mut object = JsonObject::new();
            object.insert("result".to_owned(), value);
            CallToolResult::structured(Value::Object(object))
        }
        Ok(value) => CallToolResult::structured(value),
        Err(error) => CallToolResult::error(format!(
            "the tool's output could not be serialized: {error}"
        )),
    }
}

/// The arguments of a tool: deserialized from the request's argument object.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's arguments",
    note = "derive `serde::Deserialize` and `schemars::JsonSchema` for it"
)]
pub trait ToolInput: DeserializeOwned + schemars::JsonSchema + Send + 'static {}

impl<T: DeserializeOwned + schemars::JsonSchema + Send + 'static> ToolInput for T {}

/// The structured output of a tool.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's structured output",
    note = "derive `serde::Serialize` and `schemars::JsonSchema` for it"
)]
pub trait ToolOutput: Serialize + schemars::JsonSchema + Send + 'static {}

impl<T: Serialize + schemars::JsonSchema + Send + 'static> ToolOutput for T {}

/// Deserializes arguments into `In`, naming the offending field on failure.
pub(crate) fn parse_arguments<In: DeserializeOwned>(
    tool: &str,
    arguments: Option<JsonObject>,
) -> Result<In, String> {
    let value = Value::Object(arguments.unwrap_or_default());
    serde_path_to_error::deserialize(value).map_err(|error| {
        let path = error.path().to_string();
        let reason = error.into_inner();
        if path == "." {
            format!("invalid arguments for tool `{tool}`: {reason}")
        } else {
            format!("invalid arguments for tool `{tool}`: `{path}`: {reason}")
        }
    })
}

/// A [`ToolHandler`] made from a typed async function.
pub(crate) struct FnHandler<H, M, In, Out> {
    pub(crate) handler: H,
    pub(crate) wrapped: bool,
    pub(crate) marker: PhantomData<fn(M, In) -> Out>,
}

impl<H, M, In, Out, C> ToolHandler<C> for FnHandler<H, M, In, Out>
where
    H: Handler<M, In, C>,
    H::Output: IntoToolResult<Out>,
    In: DeserializeOwned + 'static,
    Out: 'static,
    M: 'static,
    C: Send + Sync + 'static,
{
    fn call(&self, mut cx: ToolCallContext<C>) -> BoxFuture<'static, CallToolResult> {
        let arguments = cx.take_arguments();
        let input = match parse_arguments::<In>(&cx.tool().name, arguments) {
            Ok(input) => input,
            Err(message) => return Box::pin(std::future::ready(CallToolResult::error(message))),
        };
        let future = self.handler.call(input, cx);
        let wrapped = self.wrapped;
        Box::pin(async move { future.await.into_tool_result(wrapped) })
    }
}
