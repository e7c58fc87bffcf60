//! Our `rmcp::ServerHandler`: tools/list with pagination, tools/call through
//! the middleware onion, and the server's identity.

use std::panic::AssertUnwindSafe;
use std::sync::{Arc, OnceLock};

use ::rmcp::ErrorData;
use ::rmcp::handler::server::ServerHandler;
use ::rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, GetTaskParams, GetTaskResult,
    Implementation, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse,
    ServerCapabilities, ServerConfig, Tool as WireTool, UpdateTaskParams,
};
// issue 7: prompts, completion, logging, subscriptions, sampling and elicitation
use super::interaction::{InteractionChannel, gate_for, guard};
use super::session_state::SessionState;
#[allow(deprecated)] // logging is deprecated by 2026-07-28, current in 2025-11-25
use ::rmcp::model::{
    CompleteRequestParams, CompleteResult, GetPromptRequestParams, GetPromptResponse,
    ListPromptsResult, SetLevelRequestParams, SubscribeRequestParams, UnsubscribeRequestParams,
};
use ::rmcp::service::{NotificationContext, RequestContext, RoleServer};
use futures_util::FutureExt;
use mcp_core::CallToolRequest;

use super::channel::PeerChannel;
use super::convert::{request_meta, result_to_rmcp};
use crate::server::live_tools::Catalog;
use crate::server::pagination::{MAX_PAGE_BYTES, page_within};
use crate::{Server, Session, TransportKind};

/// One connection's (or, in stateless HTTP, one request's) view of a
/// [`Server`]: the shared tools plus the session's lazily made context.
pub(crate) struct Handler<C> {
    server: Server<C>,
    transport: TransportKind,
    ctx: OnceLock<Arc<C>>,
    /// issue 7: logging level, subscriptions and the peer for notifications.
    session: Arc<SessionState>,
}

impl<C: Send + Sync + 'static> Handler<C> {
    pub(crate) fn new(server: Server<C>, transport: TransportKind) -> Self {
        let session = Arc::new(SessionState::new());
        server
            .inner
            .surface
            .register(crate::server::prompt_set::as_notifier(&session));
        Self {
            server,
            transport,
            ctx: OnceLock::new(),
            session,
        }
    }

    /// The current tools.
    fn catalog(&self) -> Arc<Catalog<C>> {
        self.server.inner.tools.current()
    }

    fn session_ctx(&self, session_id: Option<String>) -> Arc<C> {
        self.ctx
            .get_or_init(|| (self.server.inner.context)(&Session::new(session_id, self.transport)))
            .clone()
    }
}

/// The `Mcp-Session-Id` of an HTTP request.
fn session_id(context: &RequestContext<RoleServer>) -> Option<String> {
    let parts = context.extensions.get::<http::request::Parts>()?;
    let id = parts.headers.get("mcp-session-id")?.to_str().ok()?;
    Some(id.to_owned())
}

impl<C: Send + Sync + 'static> ServerHandler for Handler<C> {
    fn get_info(&self) -> ServerConfig {
        let identity = &self.server.inner.identity;
        let mut implementation =
            Implementation::new(identity.name.clone(), identity.version.clone());
        if let Some(title) = &identity.title {
            implementation = implementation.with_title(title.clone());
        }
        let capabilities = if self.server.inner.resources.is_empty() {
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .build()
        } else {
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .enable_resources()
                .build()
        };
        let mut capabilities = capabilities;
        super::prompts::extend_capabilities(&mut capabilities);
        if self.catalog().set.has_task_tools() {
            super::tasks::extend_capabilities(&mut capabilities);
        }
        let mut info = ServerConfig::new(capabilities).with_server_info(implementation);
        if let Some(instructions) = &identity.instructions {
            info = info.with_instructions(instructions.clone());
        }
        info
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        // A client that lists tools hears when they change.
        self.session.attach(&context.peer);
        let cursor = request.and_then(|request| request.cursor);
        let catalog = self.catalog();
        let page = page_within(
            cursor.as_deref(),
            catalog.wire().sizes(),
            self.server.inner.page_size,
            MAX_PAGE_BYTES,
        )
        .map_err(|error| ErrorData::invalid_params(error.to_string(), None))?;
        // `execution` exists on the wire of 2025-11-25 only.
        let with_execution = context.protocol_version() == Some(ProtocolVersion::V_2025_11_25);
        let mut result =
            ListToolsResult::with_all_items(catalog.wire().page(page.range, with_execution));
        result.next_cursor = page.next_cursor;
        Ok(result)
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.session.attach(&context.peer);
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let cursor = request.and_then(|request| request.cursor);
        let inner = &self.server.inner;
        super::resources::list(&inner.resources, cursor.as_deref(), inner.page_size)
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let cursor = request.and_then(|request| request.cursor);
        let inner = &self.server.inner;
        super::resources::list_templates(&inner.resources, cursor.as_deref(), inner.page_size)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let session_id = session_id(&context);
        let ctx = self.session_ctx(session_id.clone());
        let meta = request_meta(&context.meta, request.meta.as_ref());
        super::resources::read(
            &self.server.inner.resources,
            &request.uri,
            ctx,
            session_id,
            meta,
        )
        .await
        .map(ReadResourceResponse::Complete)
    }

    fn get_tool(&self, name: &str) -> Option<WireTool> {
        let catalog = self.catalog();
        let index = catalog.set.index_of(name)?;
        catalog.wire().get(index).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let inner = &self.server.inner;
        let catalog = self.catalog();
        let Some(index) = catalog.set.index_of(&request.name) else {
            return Err(ErrorData::invalid_params(
                format!("unknown tool `{}`", request.name),
                None,
            ));
        };
        let def = catalog.set.all()[index].clone();
        let meta = request_meta(&context.meta, request.meta.as_ref());
        let call = CallToolRequest::new(request.name.clone(), request.arguments).meta(meta);
        let session_id = session_id(&context);
        let ctx = self.session_ctx(session_id.clone());
        match super::tasks::mode(catalog.set.declared_task_support(index), &context)? {
            super::tasks::Mode::Task => {
                let layers = inner.layers.clone();
                let name = request.name.clone();
                let created = inner.tasks.spawn(move |channel| {
                    let mut cx = def.context(call, ctx).channel(Arc::new(channel));
                    if let Some(id) = session_id {
                        cx = cx.session_id(id);
                    }
                    let running = AssertUnwindSafe(def.call_through(layers, cx)).catch_unwind();
                    Box::pin(async move {
                        running.await.unwrap_or_else(|_| {
                            tracing::error!(tool = %name, "the tool handler panicked");
                            mcp_core::CallToolResult::error(format!(
                                "tool `{name}` failed unexpectedly"
                            ))
                        })
                    })
                });
                return Ok(CallToolResponse::Task(created));
            }
            super::tasks::Mode::Inline => {}
        }
        let gate = gate_for(
            &context,
            request.input_responses.as_ref(),
            request.request_state.as_deref(),
        )?;
        let channel = PeerChannel::new(context.peer.clone(), context.ct.clone());
        let channel =
            InteractionChannel::new(channel, &context, self.session.clone(), gate.clone());
        let mut cx = def.context(call, ctx).channel(Arc::new(channel));
        if let Some(id) = session_id {
            cx = cx.session_id(id);
        }
        let running = AssertUnwindSafe(guard(
            gate.clone(),
            def.call_through(inner.layers.clone(), cx),
        ))
        .catch_unwind();
        let result = tokio::select! {
            result = running => match result {
                Ok(Ok(result)) => result,
                Ok(Err(input_required)) => return Ok(CallToolResponse::InputRequired(input_required)),
                Err(_) => {
                    tracing::error!(tool = %request.name, "the tool handler panicked");
                    mcp_core::CallToolResult::error(format!("tool `{}` failed unexpectedly", request.name))
                }
            },
            () = context.ct.cancelled() => {
                // The client cancelled: the handler future is dropped here, and
                // rmcp sends no response for a cancelled request.
                tracing::debug!(tool = %request.name, "tool call cancelled by the client");
                mcp_core::CallToolResult::error("the call was cancelled")
            }
        };
        // issue 7: a 2026-07-28 call that failed for want of an undeclared
        // client capability is JSON-RPC error -32021.
        if let Some(error) = gate
            .filter(|_| result.is_error())
            .and_then(|gate| gate.missing_capability_error())
        {
            return Err(error);
        }
        Ok(CallToolResponse::Complete(result_to_rmcp(result)))
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        self.server
            .inner
            .tasks
            .get(&request.task_id)
            .map(GetTaskResult::new)
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.server
            .inner
            .tasks
            .update(&request.task_id, request.input_responses)
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.server.inner.tasks.cancel(&request.task_id)
    }

    // issue 7: the requests below delegate to `super::prompts`.

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        super::prompts::list_prompts(&self.server, request)
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let session_id = session_id(&context);
        let ctx = self.session_ctx(session_id.clone());
        let session = self.session.clone();
        super::prompts::get_prompt(&self.server, request, &context, session, ctx, session_id).await
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        super::prompts::complete(&self.server, request)
    }

    #[allow(deprecated)] // logging is deprecated by 2026-07-28, current in 2025-11-25
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.session.attach(&context.peer);
        super::prompts::set_level(&self.session, request)
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.session.attach(&context.peer);
        super::prompts::subscribe(&self.session, request)
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        super::prompts::unsubscribe(&self.session, request)
    }

    fn accepted_subscription_filter(
        &self,
        requested: &::rmcp::model::SubscriptionFilter,
    ) -> Option<::rmcp::model::SubscriptionFilter> {
        Some(super::listen::accepted_filter(requested))
    }

    async fn listen(&self, context: ::rmcp::service::SubscriptionContext) -> Result<(), ErrorData> {
        super::listen::listen(&self.server, context).await
    }
}
