//! The code that renders a prompt: the object-safe handler, and the
//! adapter from plain async functions.

use std::future::Future;
use std::marker::PhantomData;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::future::BoxFuture;
use crate::prompt::error::PromptError;
use crate::prompt::request::PromptRequest;
use crate::prompt::result::{GetPromptResult, IntoGetPromptResult};

/// The object-safe form of a prompt's code.
pub trait PromptHandler<C = ()>: Send + Sync + 'static {
    /// Renders the prompt.
    fn get(
        &self,
        request: PromptRequest<C>,
    ) -> BoxFuture<'static, Result<GetPromptResult, PromptError>>;
}

/// An async function usable as a prompt's code: `Fn() -> Fut`,
/// `Fn(In) -> Fut` or `Fn(In, PromptRequest<C>) -> Fut`.
#[diagnostic::on_unimplemented(
    message = "this function cannot render a prompt",
    note = "a prompt handler is `async fn()`, `async fn(In)` or `async fn(In, PromptRequest<C>)` returning messages, text or a `Result` of them"
)]
pub trait PromptFn<M, In, C>: Send + Sync + 'static {
    /// What the function's future yields.
    type Output: IntoGetPromptResult;
    /// The function's future.
    type Future: Future<Output = Self::Output> + Send + 'static;
    /// Calls the function.
    fn call(&self, input: In, request: PromptRequest<C>) -> Self::Future;
}

impl<F, Fut, In, C> PromptFn<fn(), In, C> for F
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: Future + Send + 'static,
    Fut::Output: IntoGetPromptResult,
{
    type Output = Fut::Output;
    type Future = Fut;
    fn call(&self, _input: In, _request: PromptRequest<C>) -> Fut {
        self()
    }
}

impl<F, Fut, In, C> PromptFn<fn(In), In, C> for F
where
    F: Fn(In) -> Fut + Send + Sync + 'static,
    Fut: Future + Send + 'static,
    Fut::Output: IntoGetPromptResult,
{
    type Output = Fut::Output;
    type Future = Fut;
    fn call(&self, input: In, _request: PromptRequest<C>) -> Fut {
        self(input)
    }
}

impl<F, Fut, In, C> PromptFn<fn(In, PromptRequest<C>), In, C> for F
where
    F: Fn(In, PromptRequest<C>) -> Fut + Send + Sync + 'static,
    Fut: Future + Send + 'static,
    Fut::Output: IntoGetPromptResult,
{
    type Output = Fut::Output;
    type Future = Fut;
    fn call(&self, input: In, request: PromptRequest<C>) -> Fut {
        self(input, request)
    }
}

/// A [`PromptHandler`] made from a [`PromptFn`]: deserializes the arguments
/// into `In`, then calls the function.
pub(crate) struct PromptFnHandler<H, M, In> {
    pub(crate) handler: H,
    pub(crate) marker: PhantomData<fn(M, In)>,
}

impl<H, M, In, C> PromptHandler<C> for PromptFnHandler<H, M, In>
where
    H: PromptFn<M, In, C>,
    In: DeserializeOwned + Send + 'static,
    C: Send + Sync + 'static,
    M: 'static,
{
    fn get(
        &self,
        request: PromptRequest<C>,
    ) -> BoxFuture<'static, Result<GetPromptResult, PromptError>> {
        let name = request.prompt().name.clone();
        let value = Value::Object(request.arguments().clone());
        let input = match serde_path_to_error::deserialize::<_, In>(value) {
            Ok(input) => input,
            Err(error) => {
                let path = error.path().to_string();
                let reason = error.into_inner();
                let message = if path == "." {
                    reason.to_string()
                } else {
                    format!("`{path}`: {reason}")
                };
                let error = PromptError::InvalidArguments {
                    prompt: name,
                    message,
                };
                return Box::pin(std::future::ready(Err(error)));
            }
        };
        let future = self.handler.call(input, request);
        Box::pin(async move { future.await.into_prompt_result(&name) })
    }
}
