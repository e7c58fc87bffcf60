//! One `prompts/get` call as a handler sees it.

use std::fmt;
use std::sync::Arc;

use crate::auth::AuthInfo;
use crate::client::channel::{CallChannel, ChannelError, detached};
use crate::client::elicitation::{ElicitRequest, ElicitResult};
use crate::client::sampling::{CreateMessageRequest, CreateMessageResult};
use crate::json::JsonObject;
use crate::meta::Meta;
use crate::prompt::value::Prompt;

/// One `prompts/get` call as a handler sees it.
pub struct PromptRequest<C = ()> {
    prompt: Arc<Prompt>,
    arguments: JsonObject,
    ctx: Arc<C>,
    session_id: Option<Arc<str>>,
    meta: Meta,
    channel: Arc<dyn CallChannel>,
    auth: Option<Arc<AuthInfo>>,
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
            channel: detached(),
            auth: None,
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

    /// Sets the caller's validated token claims.
    pub fn authenticated(mut self, auth: Arc<AuthInfo>) -> Self {
        self.auth = Some(auth);
        self
    }

    /// Who is asking: the validated claims of the request's access token,
    /// when the server checks tokens.
    pub fn auth(&self) -> Option<&AuthInfo> {
        self.auth.as_deref()
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
