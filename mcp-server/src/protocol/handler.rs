//! Our `rmcp::ServerHandler`: one session's view of the server state. Each
//! request goes to the module that serves it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use rmcp::ErrorData;
use rmcp::handler::server::ServerHandler;
#[allow(deprecated)] // logging is deprecated by 2026-07-28, current in 2025-11-25
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, CompleteRequestParams,
    CompleteResult, CustomRequest, CustomResult, ErrorCode, GetPromptRequestParams,
    GetPromptResponse, GetTaskParams, GetTaskResult, InitializeRequestParams, InitializeResult,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse, RequestMetaObject,
    ServerConfig, SetLevelRequestParams, SubscribeRequestParams, SubscriptionFilter,
    Tool as WireTool, UnsubscribeRequestParams, UpdateTaskParams,
};
use rmcp::service::{NotificationContext, RequestContext, RoleServer, SubscriptionContext};

use super::convert::{request_scope, via_wire_json};
use super::session_state::SessionState;
use super::task::engine::Tasks;
use super::task::record::detailed;
use super::tools::{Called, Caller};
use super::traced::{self, Target};
use super::v2025::park_in::{CANCEL_2025, GET_2025};
use super::v2025::park_out::park_result;
use super::v2025::tasks as tasks_2025;
use super::version::is_modern;
use super::{capabilities, completion, listen, prompts, resources, tool_view, tools};
use crate::server::session::{Session, TransportKind};
use crate::server::state::ServerState;
use crate::server::view::ToolView;
use crate::telemetry::request::RequestTrace;

/// One connection's (or, in stateless HTTP, one request's) view of a
/// server: the shared state plus the session's own, and its context, made
/// lazily.
pub(crate) struct SessionHandler<C> {
    state: Arc<ServerState<C>>,
    transport: TransportKind,
    ctx: OnceLock<Arc<C>>,
    /// The logging level, subscriptions and the peer for notifications.
    session: Arc<SessionState>,
    /// Tells this session's tasks from others' in `tasks/list` when there
    /// is no HTTP session id (stdio and other streams).
    local_key: u64,
    /// The tools this session is served, fixed by its first request.
    view: OnceLock<ToolView>,
}

impl<C: Send + Sync + 'static> SessionHandler<C> {
    /// A new session of the server `state` over `transport`; it hears of
    /// changes from now on.
    pub(crate) fn new(state: Arc<ServerState<C>>, transport: TransportKind) -> Self {
        let session = Arc::new(new_session_state(&state, transport));
        state.listeners().register(&session);
        static NEXT_KEY: AtomicU64 = AtomicU64::new(0);
        Self {
            state,
            transport,
            ctx: OnceLock::new(),
            session,
            local_key: NEXT_KEY.fetch_add(1, Ordering::Relaxed),
            view: OnceLock::new(),
        }
    }

    /// The tools this session is served: the view its first request asked
    /// for (see [`tool_view`]), within the server's.
    fn view(&self, context: &RequestContext<RoleServer>) -> Result<&ToolView, ErrorData> {
        if let Some(view) = self.view.get() {
            return Ok(view);
        }
        let view = tool_view::view_of(&self.state, context)?;
        Ok(self.view.get_or_init(|| view))
    }

    /// Who sends the request `context`: the HTTP session id, and the key of
    /// the session's tasks (none in stateless HTTP, where every request is
    /// a session of its own).
    fn caller(&self, context: &RequestContext<RoleServer>) -> Caller {
        let session_id = session_id(context);
        let owner = match (&session_id, self.transport) {
            (Some(id), _) => Some(id.clone()),
            (None, TransportKind::Http) => None,
            (None, _) => Some(format!("local-{}", self.local_key)),
        };
        Caller { session_id, owner }
    }

    /// The session's context, made on first use.
    fn session_ctx(&self, session_id: Option<String>) -> Arc<C> {
        self.ctx
            .get_or_init(|| {
                self.state
                    .session_context(&Session::new(session_id, self.transport))
            })
            .clone()
    }

    /// The span of the request `method` (see [`traced::start`]).
    fn trace(
        &self,
        method: &str,
        target: Target<'_>,
        context: &RequestContext<RoleServer>,
        params_meta: Option<&RequestMetaObject>,
    ) -> RequestTrace {
        let session_id = session_id(context);
        traced::start(method, target, context, params_meta, session_id.as_deref())
    }

    /// The 2025-11-25 task requests rmcp does not model (see
    /// [`super::v2025::park_in`]).
    async fn custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let tasks = Tasks::of(&self.state);
        let CustomRequest { method, params, .. } = request;
        // The 2026-07-28 protocol removed `tasks/result` and `tasks/list`.
        let legacy = !is_modern(&context);
        let result = match method.as_str() {
            _ if !legacy => Err(method_not_found(&method)),
            "tasks/result" => tasks_2025::result(&tasks, params).await,
            "tasks/list" => {
                let owner = self.caller(&context).owner;
                tasks_2025::list(&tasks, owner.as_deref(), params, self.state.page_size()).await
            }
            GET_2025 => tasks_2025::get(&tasks, params).await,
            CANCEL_2025 => tasks_2025::cancel(&tasks, params).await,
            _ => Err(method_not_found(&method)),
        };
        result.map(CustomResult)
    }
}

/// A session's own state: shared through the server's store for HTTP
/// sessions when it has one, else in this process.
fn new_session_state<C: Send + Sync + 'static>(
    state: &ServerState<C>,
    transport: TransportKind,
) -> SessionState {
    #[cfg(feature = "redis")]
    if let (Some(store), TransportKind::Http) = (state.store(), transport) {
        return SessionState::shared(store.clone());
    }
    let _ = (state, transport);
    SessionState::new()
}

fn method_not_found(method: &str) -> ErrorData {
    ErrorData::new(
        ErrorCode::METHOD_NOT_FOUND,
        format!("unknown method `{method}`"),
        None,
    )
}

/// The `Mcp-Session-Id` of an HTTP request.
fn session_id(context: &RequestContext<RoleServer>) -> Option<String> {
    #[cfg(feature = "http")]
    {
        let parts = context.extensions.get::<http::request::Parts>()?;
        let id = parts.headers.get("mcp-session-id")?.to_str().ok()?;
        Some(id.to_owned())
    }
    #[cfg(not(feature = "http"))]
    {
        let _ = context;
        None
    }
}

impl<C: Send + Sync + 'static> ServerHandler for SessionHandler<C> {
    fn get_info(&self) -> ServerConfig {
        capabilities::server_config(&self.state)
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        let trace = self.trace(
            "initialize",
            Target::default(),
            &context,
            request.meta.as_ref(),
        );
        traced::run(trace, async {
            self.view(&context)?;
            context.peer.set_peer_info(request.clone());
            let mut result = self.negotiate_initialize(&request)?;
            capabilities::add_tasks_2025(&self.state, &mut result);
            Ok(result)
        })
        .await
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.session.attach(&context.peer);
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let meta = request.as_ref().and_then(|request| request.meta.as_ref());
        let trace = self.trace("tools/list", Target::default(), &context, meta);
        traced::run(trace, async {
            // A client that lists tools hears when they change.
            self.session.attach(&context.peer);
            let view = self.view(&context)?;
            tools::list(&self.state, view, request, &context)
        })
        .await
    }

    fn get_tool(&self, name: &str) -> Option<WireTool> {
        let view = self.view.get().unwrap_or(self.state.view());
        tools::get(&self.state, view, name)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let target = Target {
            tool: Some(&request.name),
            prompt: None,
        };
        let trace = self.trace("tools/call", target, &context, request.meta.as_ref());
        self.session.refresh(&context);
        let caller = self.caller(&context);
        let view = match self.view(&context) {
            Ok(view) => view,
            Err(error) => return traced::run_call(trace, async { Err(error) }).await,
        };
        let call = tools::call(
            &self.state,
            view,
            &self.session,
            request,
            context,
            caller,
            |session_id| self.session_ctx(session_id),
        );
        traced::run_call(trace, async {
            Ok(match call.await? {
                Called::Response(response) => response,
                // rmcp has no type for the 2025-11-25 `CreateTaskResult`: it
                // travels parked in a result and the transport puts it in place.
                Called::Task2025(created) => CallToolResponse::Complete(park_result(created)),
            })
        })
        .await
    }

    /// The 2025-11-25 task requests rmcp does not model (see
    /// [`super::v2025::park_in`]): `tasks/result`, `tasks/list`, and
    /// `tasks/get` and `tasks/cancel` under their private names.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        // The span names the method the client sent, not its private alias;
        // any other method is `_OTHER`, so clients cannot mint metric series.
        let method = match request.method.as_str() {
            GET_2025 => "tasks/get",
            CANCEL_2025 => "tasks/cancel",
            known @ ("tasks/result" | "tasks/list") => known,
            _ => "_OTHER",
        };
        let trace = self.trace(method, Target::default(), &context, None);
        traced::run(trace, self.custom_request(request, context)).await
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        let trace = self.trace("tasks/get", Target::default(), &context, None);
        traced::run(trace, async {
            Tasks::of(&self.state)
                .get(&request.task_id)
                .await
                .map(|record| GetTaskResult::new(detailed(&record)))
        })
        .await
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let trace = self.trace("tasks/update", Target::default(), &context, None);
        traced::run(trace, async {
            Tasks::of(&self.state)
                .update(&request.task_id, request.input_responses)
                .await
        })
        .await
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let trace = self.trace("tasks/cancel", Target::default(), &context, None);
        traced::run(trace, async {
            Tasks::of(&self.state).cancel(&request.task_id).await
        })
        .await
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let meta = request.as_ref().and_then(|request| request.meta.as_ref());
        let trace = self.trace("resources/list", Target::default(), &context, meta);
        traced::run(trace, async {
            let cursor = request.and_then(|request| request.cursor);
            resources::list(
                self.state.catalog().resources(),
                cursor.as_deref(),
                self.state.page_size(),
            )
        })
        .await
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let meta = request.as_ref().and_then(|request| request.meta.as_ref());
        let trace = self.trace(
            "resources/templates/list",
            Target::default(),
            &context,
            meta,
        );
        traced::run(trace, async {
            let cursor = request.and_then(|request| request.cursor);
            resources::list_templates(
                self.state.catalog().resources(),
                cursor.as_deref(),
                self.state.page_size(),
            )
        })
        .await
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let trace = self.trace(
            "resources/read",
            Target::default(),
            &context,
            request.meta.as_ref(),
        );
        if request.uri.starts_with(crate::results::URI_PREFIX) {
            let owner = self.caller(&context).owner;
            let read = resources::read_kept_result(&self.state, &request.uri, owner.as_deref());
            return traced::run(trace, async { read.map(ReadResourceResponse::Complete) }).await;
        }
        let session_id = session_id(&context);
        let ctx = self.session_ctx(session_id.clone());
        let scope = request_scope(session_id, &context, request.meta.as_ref());
        // The read keeps the resource it found, even if resources change meanwhile.
        let catalog = self.state.catalog();
        let read = resources::read(catalog.resources(), &request.uri, ctx, scope);
        traced::run(trace, async {
            read.await.map(ReadResourceResponse::Complete)
        })
        .await
    }

    /// `resources/subscribe`: the session gets
    /// `notifications/resources/updated` for the URI when
    /// [`Server::resource_updated`](crate::Server::resource_updated) is
    /// called.
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let trace = self.trace("resources/subscribe", Target::default(), &context, None);
        traced::run(trace, async {
            self.session.attach(&context.peer);
            self.session
                .subscribe_shared(request.uri, session_id(&context).as_deref())
                .await
        })
        .await
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let trace = self.trace("resources/unsubscribe", Target::default(), &context, None);
        traced::run(trace, async {
            self.session
                .unsubscribe_shared(&request.uri, session_id(&context).as_deref())
                .await
        })
        .await
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let meta = request.as_ref().and_then(|request| request.meta.as_ref());
        let trace = self.trace("prompts/list", Target::default(), &context, meta);
        traced::run(trace, async { prompts::list(&self.state, request) }).await
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let target = Target {
            tool: None,
            prompt: Some(&request.name),
        };
        let trace = self.trace("prompts/get", target, &context, request.meta.as_ref());
        let session_id = session_id(&context);
        self.session.refresh(&context);
        let ctx = self.session_ctx(session_id.clone());
        let session = self.session.clone();
        let get = prompts::get(&self.state, request, &context, session, ctx, session_id);
        traced::run(trace, get).await
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let trace = self.trace("completion/complete", Target::default(), &context, None);
        traced::run(trace, async { completion::complete(&self.state, request) }).await
    }

    #[allow(deprecated)] // logging is deprecated by 2026-07-28, current in 2025-11-25
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let trace = self.trace("logging/setLevel", Target::default(), &context, None);
        traced::run(trace, async {
            self.session.attach(&context.peer);
            self.session
                .set_shared_level(
                    via_wire_json(&request.level, "a result")?,
                    session_id(&context).as_deref(),
                )
                .await
        })
        .await
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(listen::accepted_filter(requested))
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        listen::listen(&self.state, context).await
    }
}
