//! One `prompts/get` call as a handler sees it.

use std::fmt;
use std::sync::Arc;

use crate::client::channel::{CallChannel, ChannelError, detached};
use crate::client::elicitation::{ElicitRequest, ElicitResult};
use crate::client::sampling::{CreateMessageRequest, CreateMessageResult};
use crate::json::JsonObject;
use crate::prompt::value::Prompt;
use crate::scope::RequestScope;

/// One `prompts/get` call as a handler sees it: the prompt, its arguments,
/// the request's [scope](RequestScope) (session, caller, `_meta`) and the
/// session's context `C`.
pub struct PromptRequest<C = ()> {
    prompt: Arc<Prompt>,
    arguments: JsonObject,
    ctx: Arc<C>,
    scope: RequestScope,
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
            scope: RequestScope::new(),
            channel: detached(),
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

    /// Sets the request's scope: its session, its caller and its `_meta`
    /// (the server does).
    pub fn in_scope(mut self, scope: RequestScope) -> Self {
        self.scope = scope;
        self
    }

    /// Who is asking, in which session, with which `_meta`.
    pub fn scope(&self) -> &RequestScope {
        &self.scope
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
}

impl<C> fmt::Debug for PromptRequest<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PromptRequest")
            .field("prompt", &self.prompt.name)
            .field("arguments", &self.arguments)
            .field("scope", &self.scope)
            .finish_non_exhaustive()
    }
}
