//! `tools/list` with pagination and `tools/call` through the middleware
//! onion, inline or as a task.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use std::task::Poll;

use futures_util::FutureExt;
use mcp_core::BoxFuture;
use mcp_core::tool::CallToolRequest;
use mcp_core::{CallToolResult, RequestScope, TaskSupport, ToolDef};
use rmcp::ErrorData;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ListToolsResult, PaginatedRequestParams,
    ProtocolVersion, Tool as WireTool,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::Value;
use tracing::Instrument;

use super::channel::input_round::{InputRound, until_input_required};
use super::channel::interaction::InteractionChannel;
use super::convert::{protocol_error_to_rmcp, request_scope, result_to_rmcp};
use super::session_state::SessionState;
use super::task::channel::{Requestor, TaskChannel};
use super::task::engine::{TaskStart, Tasks};
use super::task::escalation::EscalatingChannel;
use super::task::mode::{CallMode, call_mode};
use super::v2025::park_in::take_parked;
use super::v2025::tasks as tasks_2025;
use super::v2025::wire::TaskParam;
use super::wire_tools::WireTools;
use crate::catalog::Catalog;
use crate::discovery::suggest::unknown_tool;
use crate::discovery::view::{CALL_TOOL, DiscoveryView, SEARCH_TOOLS};
use crate::results::Sizing;
use crate::server::pagination::{MAX_PAGE_BYTES, page_within};
use crate::server::state::ServerState;
use crate::server::view::ToolView;

/// A page of `tools/list`: at most a page size of tools and
/// [`MAX_PAGE_BYTES`] of tool JSON, with `execution` for 2025-11-25 clients.
pub(crate) fn list<C: Send + Sync + 'static>(
    state: &ServerState<C>,
    view: &ToolView,
    request: Option<PaginatedRequestParams>,
    context: &RequestContext<RoleServer>,
) -> Result<ListToolsResult, ErrorData> {
    let cursor = request.and_then(|request| request.cursor);
    let tools = listed(state, view)?;
    let page = page_within(
        cursor.as_deref(),
        tools.sizes(),
        state.page_size(),
        MAX_PAGE_BYTES,
    )
    .map_err(|error| ErrorData::invalid_params(error.to_string(), None))?;
    // `execution` exists on the wire of 2025-11-25 only.
    let with_execution = context.protocol_version() == Some(ProtocolVersion::V_2025_11_25);
    let mut result = ListToolsResult::with_all_items(tools.page(page.range, with_execution));
    result.next_cursor = page.next_cursor;
    Ok(result)
}

/// The tools `tools/list` shows: all of them, or in discovery mode the
/// meta-tools and the pinned tools.
fn listed<C: Send + Sync + 'static>(
    state: &ServerState<C>,
    view: &ToolView,
) -> Result<Arc<WireTools>, ErrorData> {
    let catalog = state.catalog_in(view);
    #[cfg(feature = "code-mode")]
    if let Some(code_mode) = state.code_mode() {
        let view = code_mode
            .view(&catalog)
            .map_err(|reason| ErrorData::internal_error(reason, None))?;
        return Ok(WireTools::listed_in_code_mode(&catalog, &view));
    }
    match state.discovery() {
        None => Ok(WireTools::of(&catalog)),
        Some(discovery) => {
            let view = DiscoveryView::of(&catalog, discovery)
                .map_err(|reason| ErrorData::internal_error(reason, None))?;
            Ok(WireTools::listed_in_discovery(&catalog, &view))
        }
    }
}

/// The tool called `name`, as rmcp's value (a meta-tool in discovery mode).
pub(crate) fn get<C: Send + Sync + 'static>(
    state: &ServerState<C>,
    view: &ToolView,
    name: &str,
) -> Option<WireTool> {
    let catalog = state.catalog_in(view);
    #[cfg(feature = "code-mode")]
    if state.code_mode().is_some() && (name == SEARCH_TOOLS || name == crate::EXECUTE) {
        let tools = listed(state, view).ok()?;
        return tools.find(name);
    }
    if state.discovery().is_some() && (name == SEARCH_TOOLS || name == CALL_TOOL) {
        let tools = listed(state, view).ok()?;
        return tools.find(name);
    }
    let index = catalog.tools().index_of(name)?;
    WireTools::of(&catalog).get(index)
}

/// The tool a `tools/call` runs and its declared task support, or the
/// result to answer at once.
enum Resolved<C> {
    Run(ToolDef<C>, TaskSupport),
    Answer(CallToolResponse),
}

/// Finds the tool `request` names; in discovery mode `search_tools` is the
/// search, and `call_tool` becomes a call of the tool it names (the request
/// is rewritten to that tool's name and arguments).
fn resolve<C: Send + Sync + 'static>(
    state: &ServerState<C>,
    catalog: &Catalog<C>,
    request: &mut CallToolRequestParams,
    context: &RequestContext<RoleServer>,
) -> Result<Resolved<C>, ErrorData> {
    #[cfg(feature = "code-mode")]
    if let Some(code_mode) = state.code_mode()
        && (request.name == SEARCH_TOOLS || request.name == crate::EXECUTE)
    {
        let view = code_mode
            .view(catalog)
            .map_err(|reason| ErrorData::internal_error(reason, None))?;
        let def = if request.name == SEARCH_TOOLS {
            view.search_tool().clone()
        } else {
            code_mode
                .execute_def(view, state.layers().clone(), configured_scopes(context))
                .map_err(|reason| ErrorData::internal_error(reason, None))?
        };
        return Ok(Resolved::Run(def, TaskSupport::Forbidden));
    }
    #[cfg(not(feature = "code-mode"))]
    let _ = context;
    if let Some(discovery) = state.discovery() {
        let view = DiscoveryView::of(catalog, discovery)
            .map_err(|reason| ErrorData::internal_error(reason, None))?;
        if request.name == SEARCH_TOOLS {
            return Ok(Resolved::Run(
                view.search_tool().clone(),
                TaskSupport::Forbidden,
            ));
        }
        if request.name == CALL_TOOL {
            match view.target(request.arguments.as_ref()) {
                Ok(target) => {
                    request.name = target.name.into();
                    request.arguments = target.arguments;
                }
                Err(message) => {
                    let result = mcp_core::CallToolResult::error(message);
                    return Ok(Resolved::Answer(CallToolResponse::Complete(
                        result_to_rmcp(result),
                    )));
                }
            }
        }
    }
    let Some(index) = catalog.tools().index_of(&request.name) else {
        let tools = catalog.tools().all().iter().map(ToolDef::name);
        let names = meta_tools(state).iter().copied().chain(tools);
        return Err(ErrorData::invalid_params(
            unknown_tool(&request.name, names),
            None,
        ));
    };
    Ok(Resolved::Run(
        catalog.tools().all()[index].clone(),
        catalog.tools().declared_task_support(index),
    ))
}

/// The meta-tools a server in discovery mode or code mode answers besides
/// its tools.
fn meta_tools<C: Send + Sync + 'static>(state: &ServerState<C>) -> &'static [&'static str] {
    #[cfg(feature = "code-mode")]
    if state.code_mode().is_some() {
        return &[SEARCH_TOOLS, crate::EXECUTE];
    }
    if state.discovery().is_some() {
        &[SEARCH_TOOLS, CALL_TOOL]
    } else {
        &[]
    }
}

/// The scopes the OAuth settings ask of each tool, when the request came
/// through an OAuth-protected endpoint.
#[cfg(feature = "code-mode")]
fn configured_scopes(
    context: &RequestContext<RoleServer>,
) -> Option<crate::code_mode::invoke::ConfiguredScopes> {
    #[cfg(feature = "oauth")]
    {
        let parts = context.extensions.get::<http::request::Parts>()?;
        let configured = parts.extensions.get::<super::convert::ToolScopes>()?;
        Some(configured.0.clone())
    }
    #[cfg(not(feature = "oauth"))]
    {
        let _ = context;
        None
    }
}

/// What a `tools/call` answers.
pub(crate) enum Called {
    /// rmcp's response: a result, a 2026-07-28 task or an input-required result.
    Response(CallToolResponse),
    /// A 2025-11-25 `CreateTaskResult`, as JSON (rmcp has no type for it).
    Task2025(Value),
}

/// Who is calling: the session's peer, its id (an HTTP session) and its key
/// for `tasks/list`.
pub(crate) struct Caller {
    pub(crate) session_id: Option<String>,
    pub(crate) owner: Option<String>,
}

/// `tools/call`: an unknown tool is JSON-RPC error -32602 (in discovery
/// mode, `call_tool` runs the tool it names through all that follows); the call runs
/// as a task when [`call_mode`] says so (`params.task` of a 2025-11-25 client
/// arrives parked in `_meta`, see [`super::v2025::park_in`]), else inline, where
/// a panicking handler, a cancelled call and (for 2026-07-28 clients) a
/// question for the client each end the call with a result.
///
/// `session_ctx` makes (or finds) the session's context once the tool is
/// known.
pub(crate) async fn call<C: Send + Sync + 'static>(
    state: &ServerState<C>,
    view: &ToolView,
    session: &Arc<SessionState>,
    mut request: CallToolRequestParams,
    mut context: RequestContext<RoleServer>,
    caller: Caller,
    session_ctx: impl FnOnce(Option<String>) -> Arc<C>,
) -> Result<Called, ErrorData> {
    let asked: Option<TaskParam> = take_parked(&mut request.meta, &mut context.meta);
    // The call keeps the tool it found, even if the tools change meanwhile.
    let catalog = state.catalog_in(view);
    let (def, task_support) = match resolve(state, &catalog, &mut request, &context)? {
        Resolved::Run(def, task_support) => (def, task_support),
        Resolved::Answer(response) => return Ok(Called::Response(response)),
    };
    drop(catalog);
    let sizing = Sizing {
        bound: state.result_bound(&def),
        kept: state.kept_results().clone(),
        tool: def.tool_arc().clone(),
        owner: caller.owner.clone(),
    };
    let session_id = caller.session_id;
    let scope = request_scope(session_id.clone(), &context, request.meta.as_ref());
    let call = CallToolRequest::new(request.name.clone(), request.arguments.take());
    let mode = call_mode(task_support, &context, asked.is_some())?;
    let ctx = session_ctx(session_id.clone());
    match mode {
        CallMode::Task => {
            return gather_then_escalate(
                state, session, &request, &context, def, call, ctx, scope, sizing,
            )
            .await;
        }
        CallMode::Task2025 => {
            super::task::limit::admit(state, caller.owner.as_deref()).await?;
            let run = run_in_task(def, call, ctx, scope, state, sizing);
            let start = TaskStart {
                ttl_ms: asked.and_then(|task| task.ttl),
                requestor: Some(Requestor {
                    peer: context.peer.clone(),
                    owner: caller.owner,
                }),
            };
            let created = tasks_2025::start(&Tasks::of(state), start, run).await?;
            return Ok(Called::Task2025(created));
        }
        CallMode::Inline => {}
    }
    let (channel, round) = InteractionChannel::for_request(
        &context,
        session.clone(),
        request.input_responses.as_ref(),
        request.request_state.as_deref(),
        Tasks::of(state).seal(),
    )
    .await?;
    let cx = def
        .context(call, ctx)
        .in_scope(scope)
        .channel(Arc::new(channel));
    let running = AssertUnwindSafe(until_input_required(
        round.clone(),
        def.call_inside(state.layers().clone(), cx),
    ))
    .catch_unwind();
    let result = tokio::select! {
        result = running => match result {
            Ok(Ok(result)) => result,
            Ok(Err(input_required)) => {
                return Ok(Called::Response(CallToolResponse::InputRequired(input_required)));
            }
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
    answer(sizing.apply(result), round)
}

/// The answer of a call that ended in the request: the JSON-RPC error the
/// handler raised, -32021 for a 2026-07-28 call that failed for want of an
/// undeclared client capability, else the result.
fn answer(result: CallToolResult, round: Option<Arc<InputRound>>) -> Result<Called, ErrorData> {
    if let Some(error) = result.protocol_error() {
        return Err(protocol_error_to_rmcp(error));
    }
    if let Some(error) = round
        .filter(|_| result.is_error())
        .and_then(|round| round.missing_capability_error())
    {
        return Err(error);
    }
    Ok(Called::Response(CallToolResponse::Complete(
        result_to_rmcp(result),
    )))
}

/// A 2026-07-28 call that may run as a task (see [`super::task::escalation`]):
/// the handler starts in the request; unanswered `before_task` questions
/// end the request with an input-required result, otherwise the handler
/// (waiting on anything else, or already done) moves into a task, which is
/// the answer.
#[allow(clippy::too_many_arguments)]
async fn gather_then_escalate<C: Send + Sync + 'static>(
    state: &ServerState<C>,
    session: &Arc<SessionState>,
    request: &CallToolRequestParams,
    context: &RequestContext<RoleServer>,
    def: ToolDef<C>,
    call: CallToolRequest,
    ctx: Arc<C>,
    scope: RequestScope,
    sizing: Sizing,
) -> Result<Called, ErrorData> {
    let (inline, round) = InteractionChannel::for_request(
        context,
        session.clone(),
        request.input_responses.as_ref(),
        request.request_state.as_deref(),
        Tasks::of(state).seal(),
    )
    .await?;
    let channel = Arc::new(EscalatingChannel::new(inline));
    let cx = def
        .context(call, ctx)
        .in_scope(scope)
        .channel(channel.clone());
    let name = request.name.to_string();
    // The handler stays in the request's span when it moves into the task.
    let mut running = AssertUnwindSafe(def.call_inside(state.layers().clone(), cx))
        .catch_unwind()
        .instrument(tracing::Span::current())
        .boxed();
    let waker = std::task::Waker::noop();
    let first = running
        .as_mut()
        .poll(&mut std::task::Context::from_waker(waker));
    if let Poll::Pending = first
        && let Some(required) = round.as_ref().and_then(|round| round.input_required())
    {
        return Ok(Called::Response(CallToolResponse::InputRequired(required)));
    }
    // A handler that finished at once still answers through its task, so
    // the client sees one way to get the result of this tool.
    let created = Tasks::of(state)
        .spawn_2026(move |task| {
            channel.escalate(task);
            Box::pin(async move {
                let outcome = match first {
                    Poll::Ready(outcome) => outcome,
                    Poll::Pending => running.await,
                };
                sizing.apply(outcome.unwrap_or_else(|_| panicked(&name)))
            })
        })
        .await?;
    Ok(Called::Response(CallToolResponse::Task(created)))
}

fn panicked(name: &str) -> CallToolResult {
    tracing::error!(tool = %name, "the tool handler panicked");
    CallToolResult::error(format!("tool `{name}` failed unexpectedly"))
}

/// The handler run of a task: the tool through the middleware, on the
/// task's channel; a panic ends it with an error result.
fn run_in_task<C: Send + Sync + 'static>(
    def: ToolDef<C>,
    call: CallToolRequest,
    ctx: Arc<C>,
    scope: RequestScope,
    state: &ServerState<C>,
    sizing: Sizing,
) -> impl FnOnce(TaskChannel) -> BoxFuture<'static, CallToolResult> + Send + 'static {
    let layers = state.layers().clone();
    // The task's run belongs to the trace of the request that started it.
    let span = tracing::Span::current();
    move |channel| {
        let name = def.name().to_owned();
        let cx = def
            .context(call, ctx)
            .in_scope(scope)
            .channel(Arc::new(channel));
        let running = AssertUnwindSafe(def.call_inside(layers, cx)).catch_unwind();
        Box::pin(
            async move {
                let result = running.await.unwrap_or_else(|_| {
                    tracing::error!(tool = %name, "the tool handler panicked");
                    CallToolResult::error(format!("tool `{name}` failed unexpectedly"))
                });
                sizing.apply(result)
            }
            .instrument(span),
        )
    }
}
