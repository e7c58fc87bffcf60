//! A prompt together with the code that renders it.

use std::any::Any;
use std::collections::BTreeMap;
use std::fmt::{self, Display};
use std::future::Future;
use std::sync::Arc;

use crate::{
    BoxFuture, CallChannel, ChannelError, Completer, CreateMessageRequest, CreateMessageResult,
    ElicitRequest, ElicitResult, GetPromptResult, JsonObject, Meta, Prompt, PromptMessage,
    SchemaError, ToolError,
};

/// Why a prompt could not be defined or rendered.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PromptError {
    /// No prompt has this name (JSON-RPC -32602 on the wire).
    #[error("unknown prompt `{name}`")]
    NotFound {
        /// The requested name.
        name: String,
    },
    /// A required argument is missing (JSON-RPC -32602).
    #[error("prompt `{prompt}`: missing required argument `{argument}`")]
    MissingArgument {
        /// The prompt.
        prompt: String,
        /// The missing argument.
        argument: String,
    },
    /// The arguments do not deserialize into the prompt's type (JSON-RPC -32602).
    #[error("prompt `{prompt}`: invalid arguments: {message}")]
    InvalidArguments {
        /// The prompt.
        prompt: String,
        /// What is wrong, naming the argument.
        message: String,
    },
    /// The handler failed (JSON-RPC -32603).
    #[error("prompt `{prompt}` failed: {message}")]
    Failed {
        /// The prompt.
        prompt: String,
        /// What went wrong.
        message: String,
    },
    /// The arguments type has no object schema.
    #[error("prompt `{prompt}`: {source}")]
    Schema {
        /// The prompt.
        prompt: String,
        /// What failed.
        #[source]
        source: SchemaError,
    },
    /// A completer names an argument the prompt does not have.
    #[error(
        "prompt `{prompt}`: a completer is given for `{argument}`, which is not an argument of the prompt"
    )]
    UnknownArgument {
        /// The prompt.
        prompt: String,
        /// The argument.
        argument: String,
    },
    /// The metadata is invalid (for example a reserved `_meta` key).
    #[error(transparent)]
    Metadata(#[from] ToolError),
}

/// One `prompts/get` call as a handler sees it.
pub struct PromptRequest<C = ()> {
    prompt: Arc<Prompt>,
    arguments: JsonObject,
    ctx: Arc<C>,
    session_id: Option<Arc<str>>,
    meta: Meta,
    channel: Arc<dyn CallChannel>,
}

impl<C> PromptRequest<C> {
    /// A request to render `prompt` with `arguments` in a session whose
    /// context is `ctx`.
    pub fn new(prompt: Arc<Prompt>, arguments: JsonObject, ctx: Arc<C>) -> Self {
        Self {
            prompt,
            arguments,
            ctx,
            session_id: None,
            meta: Meta::new(),
            channel: crate::call::context::detached(),
        }
    }

    /// Sets the channel to the client (the server does).
    pub fn channel(mut self, channel: Arc<dyn CallChannel>) -> Self {
        self.channel = channel;
        self
    }

    /// Asks the user for input while rendering the prompt, like
    /// [`ToolCallContext::elicit`](crate::ToolCallContext::elicit): a request
    /// to a 2025-11-25 client, an input-required result for a 2026-07-28 one.
    pub async fn elicit(&self, request: ElicitRequest) -> Result<ElicitResult, ChannelError> {
        self.channel.elicit(request).await
    }

    /// Asks the client's model for a completion while rendering the prompt,
    /// like [`ToolCallContext::sample`](crate::ToolCallContext::sample).
    pub async fn sample(
        &self,
        request: CreateMessageRequest,
    ) -> Result<CreateMessageResult, ChannelError> {
        self.channel.create_message(request).await
    }

    /// Sets the session id.
    pub fn session_id(mut self, id: impl Into<Arc<str>>) -> Self {
        self.session_id = Some(id.into());
        self
    }

    /// Sets the request's `_meta`.
    pub fn meta(mut self, meta: Meta) -> Self {
        self.meta = meta;
        self
    }

    /// The prompt being rendered.
    pub fn prompt(&self) -> &Prompt {
        &self.prompt
    }

    /// The arguments as sent.
    pub fn arguments(&self) -> &JsonObject {
        &self.arguments
    }

    /// The per-session context.
    pub fn ctx(&self) -> &C {
        &self.ctx
    }

    /// The session id, when the transport has sessions.
    pub fn session(&self) -> Option<&str> {
        self.session_id.as_deref()
    }

    /// The request's `_meta`.
    pub fn request_meta(&self) -> &Meta {
        &self.meta
    }
}

impl<C> fmt::Debug for PromptRequest<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PromptRequest")
            .field("prompt", &self.prompt.name)
            .field("arguments", &self.arguments)
            .field("session_id", &self.session_id)
            .finish_non_exhaustive()
    }
}

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

/// What a prompt handler may return: a [`GetPromptResult`], messages, one
/// message, text (one user message), or a `Result` of these whose error is
/// displayed (a [`PromptError`] is kept as is).
pub trait IntoGetPromptResult {
    /// Converts the value for the prompt `prompt`.
    fn into_prompt_result(self, prompt: &str) -> Result<GetPromptResult, PromptError>;
}

impl IntoGetPromptResult for GetPromptResult {
    fn into_prompt_result(self, _: &str) -> Result<GetPromptResult, PromptError> {
        Ok(self)
    }
}

impl IntoGetPromptResult for Vec<PromptMessage> {
    fn into_prompt_result(self, _: &str) -> Result<GetPromptResult, PromptError> {
        Ok(GetPromptResult::new(self))
    }
}

impl IntoGetPromptResult for PromptMessage {
    fn into_prompt_result(self, _: &str) -> Result<GetPromptResult, PromptError> {
        Ok(GetPromptResult::new(vec![self]))
    }
}

impl IntoGetPromptResult for String {
    fn into_prompt_result(self, _: &str) -> Result<GetPromptResult, PromptError> {
        Ok(GetPromptResult::new(vec![PromptMessage::user_text(self)]))
    }
}

impl IntoGetPromptResult for &'static str {
    fn into_prompt_result(self, prompt: &str) -> Result<GetPromptResult, PromptError> {
        self.to_owned().into_prompt_result(prompt)
    }
}

impl<T: IntoGetPromptResult, E: Display + 'static> IntoGetPromptResult for Result<T, E> {
    fn into_prompt_result(self, prompt: &str) -> Result<GetPromptResult, PromptError> {
        match self {
            Ok(value) => value.into_prompt_result(prompt),
            Err(error) => match (&error as &dyn Any).downcast_ref::<PromptError>() {
                Some(error) => Err(error.clone()),
                None => Err(PromptError::Failed {
                    prompt: prompt.to_owned(),
                    message: error.to_string(),
                }),
            },
        }
    }
}

/// A [`Prompt`] plus its handler and argument completers: what a server
/// hosts. Make one with [`prompt`](fn@crate::prompt).
pub struct PromptDef<C = ()> {
    prompt: Arc<Prompt>,
    handler: Arc<dyn PromptHandler<C>>,
    completers: Arc<BTreeMap<String, Completer>>,
}

impl<C: 'static> PromptDef<C> {
    pub(crate) fn from_parts(
        prompt: Prompt,
        handler: Arc<dyn PromptHandler<C>>,
        completers: BTreeMap<String, Completer>,
    ) -> Self {
        Self {
            prompt: Arc::new(prompt),
            handler,
            completers: Arc::new(completers),
        }
    }

    /// The protocol value.
    pub fn prompt(&self) -> &Prompt {
        &self.prompt
    }

    /// The protocol value, shared.
    pub fn prompt_arc(&self) -> &Arc<Prompt> {
        &self.prompt
    }

    /// The prompt's name.
    pub fn name(&self) -> &str {
        &self.prompt.name
    }

    /// The completer of the argument `name`.
    pub fn completer(&self, name: &str) -> Option<&Completer> {
        self.completers.get(name)
    }

    /// Renders the prompt. Missing required arguments are
    /// [`PromptError::MissingArgument`], before the handler runs.
    pub fn get(
        &self,
        request: PromptRequest<C>,
    ) -> BoxFuture<'static, Result<GetPromptResult, PromptError>> {
        let missing = self.prompt.arguments.iter().find(|argument| {
            argument.is_required() && !request.arguments.contains_key(&argument.name)
        });
        if let Some(argument) = missing {
            let error = PromptError::MissingArgument {
                prompt: self.prompt.name.clone(),
                argument: argument.name.clone(),
            };
            return Box::pin(std::future::ready(Err(error)));
        }
        self.handler.get(request)
    }

    /// The request to render this prompt with `arguments` in a session whose
    /// context is `ctx`.
    pub fn request(&self, arguments: JsonObject, ctx: Arc<C>) -> PromptRequest<C> {
        PromptRequest::new(self.prompt.clone(), arguments, ctx)
    }
}

impl<C: Default + 'static> PromptDef<C> {
    /// Renders the prompt with `arguments` and a default context, outside
    /// any server (handy in tests).
    pub fn invoke(
        &self,
        arguments: JsonObject,
    ) -> BoxFuture<'static, Result<GetPromptResult, PromptError>> {
        self.get(self.request(arguments, Arc::new(C::default())))
    }
}

impl<C> Clone for PromptDef<C> {
    fn clone(&self) -> Self {
        Self {
            prompt: self.prompt.clone(),
            handler: self.handler.clone(),
            completers: self.completers.clone(),
        }
    }
}

impl<C> fmt::Debug for PromptDef<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PromptDef")
            .field("prompt", &self.prompt)
            .field("completers", &self.completers.keys().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}
