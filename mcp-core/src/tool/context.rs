//! What a handler and a middleware know about the call they serve.

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::client::channel::{CallChannel, ChannelError, Progress, detached};
use crate::client::elicitation::{ElicitRequest, ElicitResult};
use crate::client::logging::{LogMessage, LoggingLevel};
use crate::client::roots::Root;
use crate::client::sampling::{CreateMessageRequest, CreateMessageResult};
use crate::json::JsonObject;
use crate::scope::RequestScope;
use crate::tool::request::CallToolRequest;
use crate::tool::value::Tool;

/// The call a handler or middleware serves: the request, the tool it
/// resolved to, the request's [scope](RequestScope) (session, caller,
/// `_meta`), the session's typed context `C`, and the channel for progress
/// and cancellation.
///
/// `C` is the per-session context a server creates when a session starts
/// (`()` when there is none).
pub struct ToolCallContext<C = ()> {
    request: CallToolRequest,
    tool: Arc<Tool>,
    ctx: Arc<C>,
    scope: RequestScope,
    channel: Arc<dyn CallChannel>,
}

impl<C> ToolCallContext<C> {
    /// The context of a call of `tool` with `request`, in a session whose
    /// context is `ctx`. Without a [`channel`](Self::channel), progress is
    /// dropped and the call is never cancelled.
    pub fn new(request: CallToolRequest, tool: Arc<Tool>, ctx: Arc<C>) -> Self {
        Self {
            request,
            tool,
            ctx,
            scope: RequestScope::new(),
            channel: detached(),
        }
    }

    /// Sets the call's scope: its session, its caller and its `_meta` (the
    /// server does).
    pub fn in_scope(mut self, scope: RequestScope) -> Self {
        self.scope = scope;
        self
    }

    /// Sets the channel to the client.
    pub fn channel(mut self, channel: Arc<dyn CallChannel>) -> Self {
        self.channel = channel;
        self
    }

    /// The request as received. A typed handler has already taken the
    /// arguments out of it.
    pub fn request(&self) -> &CallToolRequest {
        &self.request
    }

    /// The request, mutably (a middleware may rewrite the arguments).
    pub fn request_mut(&mut self) -> &mut CallToolRequest {
        &mut self.request
    }

    /// The tool being called, with all its metadata.
    pub fn tool(&self) -> &Tool {
        &self.tool
    }

    /// Who is calling, in which session, with which `_meta`: the validated
    /// claims of the request's access token (when the server checks
    /// tokens), the session's id (when the transport has sessions), and
    /// the request's `_meta` (for example its `progressToken`).
    ///
    /// ```
    /// use std::sync::Arc;
    ///
    /// use mcp_core::auth::AuthInfo;
    /// use mcp_core::tool::CallToolRequest;
    /// use mcp_core::{tool, JsonObject, RequestScope, ToolCallContext, ToolDef};
    /// use serde_json::json;
    ///
    /// let whoami: ToolDef = tool("whoami")
    ///     .run(|_: JsonObject, cx: ToolCallContext| async move {
    ///         cx.scope().auth().and_then(|a| a.subject()).unwrap_or("anonymous").to_owned()
    ///     })?;
    /// let claims = json!({"sub": "alice"}).as_object().unwrap().clone();
    /// let scope = RequestScope::new().authenticated(Arc::new(AuthInfo::from_claims(claims)));
    /// let cx = whoami
    ///     .context(CallToolRequest::new("whoami", None), Arc::new(()))
    ///     .in_scope(scope);
    /// let result = futures_executor::block_on(whoami.call(cx));
    /// assert_eq!(result.text_content(), "alice");
    /// # Ok::<(), mcp_core::ToolError>(())
    /// ```
    pub fn scope(&self) -> &RequestScope {
        &self.scope
    }

    /// The scope, mutably (a middleware may rewrite the request's `_meta`).
    pub fn scope_mut(&mut self) -> &mut RequestScope {
        &mut self.scope
    }

    /// The per-session context.
    pub fn ctx(&self) -> &C {
        &self.ctx
    }

    /// The per-session context, shared.
    pub fn ctx_arc(&self) -> &Arc<C> {
        &self.ctx
    }

    /// Sends a progress update when the client asked for progress (the
    /// request's `_meta.progressToken`); does nothing otherwise, so it is
    /// always safe to call. `progress` is the amount done so far (it should
    /// grow with each call), `total` the whole amount when known, `message`
    /// a line for people. It fails only when the client is gone.
    ///
    /// ```
    /// use mcp_core::{tool, ToolCallContext, ToolDef};
    ///
    /// let copy: ToolDef = tool("copy")
    ///     .run(|_: mcp_core::JsonObject, cx: ToolCallContext| async move {
    ///         let files = ["a.txt", "b.txt"];
    ///         for (done, file) in files.iter().enumerate() {
    ///             let message = Some(format!("copied {file}"));
    ///             let _ = cx.progress(done as f64 + 1.0, Some(files.len() as f64), message).await;
    ///         }
    ///         "done"
    ///     })?;
    /// let result = futures_executor::block_on(copy.call_detached(serde_json::json!({})));
    /// assert_eq!(result.text_content(), "done");
    /// # Ok::<(), mcp_core::ToolError>(())
    /// ```
    pub async fn progress(
        &self,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    ) -> Result<(), ChannelError> {
        let Some(token) = self.scope.progress_token() else {
            return Ok(());
        };
        self.channel
            .notify_progress(Progress {
                progress_token: token.clone(),
                progress,
                total,
                message,
            })
            .await
    }

    /// Whether the client cancelled the call.
    pub fn is_cancelled(&self) -> bool {
        self.channel.is_cancelled()
    }

    /// Completes when the client cancels the call (never, without a channel).
    pub async fn cancelled(&self) {
        self.channel.cancelled().await
    }

    /// Sends a log message (`notifications/message`) at `level`; the
    /// server drops it when the client's `logging/setLevel` filters it out,
    /// and without a channel.
    pub async fn log(
        &self,
        level: LoggingLevel,
        data: impl Into<Value>,
    ) -> Result<(), ChannelError> {
        let message = LogMessage::new(level, data);
        self.channel.log(message).await
    }

    /// Asks the client's model for a completion (`sampling/createMessage`).
    /// Written once, it works for 2025-11-25 clients (a request to the
    /// client) and 2026-07-28 clients (an input-required result, after
    /// which the server runs the handler again with the answer).
    ///
    /// With a 2026-07-28 client the handler therefore runs once per round,
    /// from the start, getting earlier answers back in the same order: keep
    /// the code before a question free of side effects, and name each
    /// question with `input_key` when its position may vary.
    pub async fn sample(
        &self,
        request: CreateMessageRequest,
    ) -> Result<CreateMessageResult, ChannelError> {
        self.channel.create_message(request).await
    }

    /// Asks the user for input through the client (`elicitation/create`),
    /// for clients of both protocol generations like [`sample`](Self::sample).
    ///
    /// ```
    /// use mcp_core::{tool, JsonObject, ToolCallContext, ToolDef, client::{ElicitAction, ElicitRequest}};
    /// use serde_json::json;
    ///
    /// let ask: ToolDef = tool("ask")
    ///     .run(|_: JsonObject, cx: ToolCallContext| async move {
    ///         let request = ElicitRequest::new("Name?", json!({"type": "object"})).map_err(|e| e.to_string())?;
    ///         let answer = cx.elicit(request).await.map_err(|e| e.to_string())?;
    ///         Ok::<_, String>(format!("{:?}", answer.action))
    ///     })
    ///     .unwrap();
    /// // Outside a server there is no client to ask.
    /// let result = futures_executor::block_on(ask.call_detached(json!({})));
    /// assert_eq!(result.text_content(), "the client does not support elicitation");
    /// ```
    pub async fn elicit(&self, request: ElicitRequest) -> Result<ElicitResult, ChannelError> {
        self.channel.elicit(request).await
    }

    /// Over Streamable HTTP, closes the SSE stream of this request while the
    /// call goes on (SEP-1699 polling): the client reconnects with
    /// `Last-Event-ID` after `retry` and receives the call's later messages
    /// and its result there. Useful before long waits, so no connection is
    /// held open. Other transports (and tasks) answer
    /// [`ChannelError::Unsupported`].
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// use mcp_core::{JsonObject, ToolCallContext, ToolDef, tool};
    /// use serde_json::json;
    ///
    /// let wait: ToolDef = tool("wait")
    ///     .run(|_: JsonObject, cx: ToolCallContext| async move {
    ///         // Outside a server there is no stream: carry on regardless.
    ///         let closed = cx.close_sse_stream(Duration::from_millis(500)).await.is_ok();
    ///         format!("stream closed: {closed}")
    ///     })
    ///     .unwrap();
    /// let result = futures_executor::block_on(wait.call_detached(json!({})));
    /// assert_eq!(result.text_content(), "stream closed: false");
    /// ```
    pub async fn close_sse_stream(&self, retry: std::time::Duration) -> Result<(), ChannelError> {
        self.channel.close_sse_stream(retry).await
    }

    /// Lists the client's roots (`roots/list`), for clients of both
    /// protocol generations like [`sample`](Self::sample).
    pub async fn roots(&self) -> Result<Vec<Root>, ChannelError> {
        self.channel.list_roots().await
    }

    pub(crate) fn take_arguments(&mut self) -> Option<JsonObject> {
        self.request.arguments.take()
    }

    /// The same call with the per-session context `ctx` in place of this
    /// one's: how a tool that needs no context runs in a server that has one.
    pub(crate) fn with_context<D>(self, ctx: Arc<D>) -> ToolCallContext<D> {
        ToolCallContext {
            request: self.request,
            tool: self.tool,
            ctx,
            scope: self.scope,
            channel: self.channel,
        }
    }

    /// The context of a call of `tool` with `arguments` made while serving
    /// this one: same session, caller, channel, per-session context and
    /// request `_meta` (so progress and cancellation reach the inner call).
    /// A tool that calls other tools (a transform, code mode's `execute`)
    /// runs them with it.
    pub fn for_tool(&self, tool: Arc<Tool>, arguments: JsonObject) -> Self {
        Self {
            request: CallToolRequest::new(tool.name.clone(), Some(arguments)),
            tool,
            ctx: self.ctx.clone(),
            scope: self.scope.clone(),
            channel: self.channel.clone(),
        }
    }
}

impl<C> fmt::Debug for ToolCallContext<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolCallContext")
            .field("request", &self.request)
            .field("tool", &self.tool.name)
            .field("scope", &self.scope)
            .finish_non_exhaustive()
    }
}
