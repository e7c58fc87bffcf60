//! The `ServerHandler` requests beyond tools and resources: prompts,
//! completion, logging and resource subscriptions. [`super::handler`]
//! delegates to these.

use std::sync::Arc;

use ::rmcp::ErrorData;
#[allow(deprecated)] // logging is deprecated by 2026-07-28, current in 2025-11-25
use ::rmcp::model::{
    CompleteRequestParams, CompleteResult, GetPromptRequestParams, GetPromptResponse,
    GetPromptResult, ListPromptsResult, PaginatedRequestParams, ResultType, ServerCapabilities,
    SetLevelRequestParams, SubscribeRequestParams, UnsubscribeRequestParams,
};
use ::rmcp::service::{RequestContext, RoleServer};
use mcp_core::{CompleteRequest, Completion, CompletionReference, LoggingLevel, PromptError};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::channel::PeerChannel;
use super::convert::request_meta;
use super::interaction::{InteractionChannel, gate_for, guard};
use super::session_state::SessionState;
use crate::Server;
use crate::server::pagination::page;

/// Converts between our values and rmcp's through their shared wire JSON.
fn wire<T: Serialize, U: DeserializeOwned>(value: &T) -> Result<U, ErrorData> {
    serde_json::to_value(value)
        .and_then(serde_json::from_value)
        .map_err(|error| {
            ErrorData::internal_error(format!("cannot encode a result: {error}"), None)
        })
}

/// Adds what this module serves to the server's capabilities: logging,
/// completions, prompts (with list changes) and resource subscriptions
/// (when the server has resources).
pub(crate) fn extend_capabilities(capabilities: &mut ServerCapabilities) {
    let extra = json!({
        "logging": {},
        "completions": {},
        "prompts": {"listChanged": true},
    });
    if let Some(resources) = capabilities.resources.as_mut() {
        resources.subscribe = Some(true);
    }
    match serde_json::from_value::<ServerCapabilities>(extra) {
        Ok(extra) => {
            #[allow(deprecated)] // logging is deprecated in 2026-07-28, current in 2025-11-25
            {
                capabilities.logging = capabilities.logging.take().or(extra.logging);
            }
            capabilities.completions = capabilities.completions.take().or(extra.completions);
            capabilities.prompts = capabilities.prompts.take().or(extra.prompts);
        }
        Err(error) => tracing::error!(%error, "cannot build the server capabilities"),
    }
}

fn cursor_page<T>(
    items: Vec<T>,
    request: Option<PaginatedRequestParams>,
    size: usize,
) -> Result<(Vec<T>, Option<String>), ErrorData> {
    let cursor = request.and_then(|request| request.cursor);
    let page = page(cursor.as_deref(), items.len(), size)
        .map_err(|error| ErrorData::invalid_params(error.to_string(), None))?;
    let items = items
        .into_iter()
        .skip(page.range.start)
        .take(page.range.len())
        .collect();
    Ok((items, page.next_cursor))
}

/// `prompts/list`.
pub(crate) fn list_prompts<C: Send + Sync + 'static>(
    server: &Server<C>,
    request: Option<PaginatedRequestParams>,
) -> Result<ListPromptsResult, ErrorData> {
    let prompts: Vec<_> = server
        .inner
        .surface
        .prompts()
        .iter()
        .map(|def| def.prompt().clone())
        .collect();
    let (prompts, next_cursor) = cursor_page(prompts, request, server.inner.page_size)?;
    let mut result = ListPromptsResult::with_all_items(wire(&prompts)?);
    result.next_cursor = next_cursor;
    Ok(result)
}

/// `prompts/get`: an unknown prompt and bad arguments are JSON-RPC error
/// -32602, a failing handler -32603. The handler may elicit and sample
/// (an input-required result for 2026-07-28 clients).
pub(crate) async fn get_prompt<C: Send + Sync + 'static>(
    server: &Server<C>,
    request: GetPromptRequestParams,
    context: &RequestContext<RoleServer>,
    session: Arc<SessionState>,
    ctx: Arc<C>,
    session_id: Option<String>,
) -> Result<GetPromptResponse, ErrorData> {
    let meta = &context.meta;
    let gate = gate_for(
        context,
        request.input_responses.as_ref(),
        request.request_state.as_deref(),
    )?;
    let channel = PeerChannel::new(context.peer.clone(), context.ct.clone());
    let channel = InteractionChannel::new(channel, context, session, gate.clone());
    let Some(def) = server.inner.surface.prompt(&request.name) else {
        return Err(ErrorData::invalid_params(
            format!("unknown prompt `{}`", request.name),
            None,
        ));
    };
    let mut get = def
        .request(request.arguments.unwrap_or_default(), ctx)
        .meta(request_meta(meta, request.meta.as_ref()));
    if let Some(id) = session_id {
        get = get.session_id(id);
    }
    let rendered = match guard(gate, def.get(get.channel(Arc::new(channel)))).await {
        Ok(rendered) => rendered,
        Err(input_required) => return Ok(GetPromptResponse::InputRequired(input_required)),
    };
    match rendered {
        Ok(result) => {
            let mut result: GetPromptResult = wire(&result)?;
            // Required by 2026-07-28; rmcp strips it for older peers.
            result.result_type = Some(ResultType::COMPLETE);
            Ok(GetPromptResponse::from(result))
        }
        Err(error @ PromptError::Failed { .. }) => {
            Err(ErrorData::internal_error(error.to_string(), None))
        }
        Err(error) => Err(ErrorData::invalid_params(error.to_string(), None)),
    }
}

/// `completion/complete` for prompt arguments and template variables; no
/// completer means no suggestions.
pub(crate) fn complete<C: Send + Sync + 'static>(
    server: &Server<C>,
    request: CompleteRequestParams,
) -> Result<CompleteResult, ErrorData> {
    let request: CompleteRequest =
        wire(&request).map_err(|error| ErrorData::invalid_params(error.message, None))?;
    let resolved = request
        .context
        .as_ref()
        .and_then(|context| context.get("arguments"))
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let completion = match &request.reference {
        CompletionReference::Prompt { name } => {
            let def = server.inner.surface.prompt(name).ok_or_else(|| {
                ErrorData::invalid_params(format!("unknown prompt `{name}`"), None)
            })?;
            def.completer(&request.argument.name)
                .map(|completer| completer.complete(&request.argument.value, &resolved))
        }
        CompletionReference::Resource { uri } => {
            let def = server
                .inner
                .resources
                .templates()
                .iter()
                .find(|def| def.uri() == uri)
                .ok_or_else(|| {
                    ErrorData::invalid_params(format!("unknown resource template `{uri}`"), None)
                })?;
            def.completer(&request.argument.name)
                .map(|completer| completer.complete(&request.argument.value, &resolved))
        }
        _ => None,
    };
    wire(&mcp_core::CompleteResult::new(
        completion.unwrap_or_else(Completion::default),
    ))
}

/// `logging/setLevel`.
#[allow(deprecated)] // logging is deprecated by 2026-07-28, current in 2025-11-25
pub(crate) fn set_level(
    session: &SessionState,
    request: SetLevelRequestParams,
) -> Result<(), ErrorData> {
    let level: LoggingLevel = wire(&request.level)?;
    session.set_level(level);
    Ok(())
}

/// `resources/subscribe`: the session gets `notifications/resources/updated`
/// for `uri` when [`Server::resource_updated`] is called.
pub(crate) fn subscribe(
    session: &SessionState,
    request: SubscribeRequestParams,
) -> Result<(), ErrorData> {
    session.subscribe(request.uri);
    Ok(())
}

/// `resources/unsubscribe`.
pub(crate) fn unsubscribe(
    session: &SessionState,
    request: UnsubscribeRequestParams,
) -> Result<(), ErrorData> {
    session.unsubscribe(&request.uri);
    Ok(())
}
