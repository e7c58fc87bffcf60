//! `prompts/list` and `prompts/get`.

use std::sync::Arc;

use mcp_core::prompt::PromptError;
use rmcp::ErrorData;
use rmcp::model::{
    GetPromptRequestParams, GetPromptResponse, GetPromptResult, ListPromptsResult,
    PaginatedRequestParams, ResultType,
};
use rmcp::service::{RequestContext, RoleServer};

use super::channel::input_round::until_input_required;
use super::channel::interaction::InteractionChannel;
use super::convert::{request_scope, via_wire_json};
use super::session_state::SessionState;
use super::task::engine::Tasks;
use crate::server::pagination::page;
use crate::server::state::ServerState;

/// `prompts/list`.
pub(crate) fn list<C: Send + Sync + 'static>(
    state: &ServerState<C>,
    request: Option<PaginatedRequestParams>,
) -> Result<ListPromptsResult, ErrorData> {
    let prompts: Vec<_> = state
        .prompts()
        .all()
        .iter()
        .map(|def| def.prompt().clone())
        .collect();
    let cursor = request.and_then(|request| request.cursor);
    let page = page(cursor.as_deref(), prompts.len(), state.page_size())
        .map_err(|error| ErrorData::invalid_params(error.to_string(), None))?;
    let prompts = &prompts[page.range];
    let mut result = ListPromptsResult::with_all_items(via_wire_json(&prompts, "a result")?);
    result.next_cursor = page.next_cursor;
    Ok(result)
}

/// `prompts/get`: an unknown prompt and bad arguments are JSON-RPC error
/// -32602, a failing handler -32603. The handler may elicit and sample
/// (an input-required result for 2026-07-28 clients).
pub(crate) async fn get<C: Send + Sync + 'static>(
    state: &ServerState<C>,
    request: GetPromptRequestParams,
    context: &RequestContext<RoleServer>,
    session: Arc<SessionState>,
    ctx: Arc<C>,
    session_id: Option<String>,
) -> Result<GetPromptResponse, ErrorData> {
    let (channel, round) = InteractionChannel::for_request(
        context,
        session,
        request.input_responses.as_ref(),
        request.request_state.as_deref(),
        Tasks::of(state).seal(),
    )
    .await?;
    let Some(def) = state.prompts().get(&request.name) else {
        return Err(ErrorData::invalid_params(
            format!("unknown prompt `{}`", request.name),
            None,
        ));
    };
    let get = def
        .request(request.arguments.unwrap_or_default(), ctx)
        .in_scope(request_scope(session_id, context, request.meta.as_ref()));
    let rendered = match until_input_required(round, def.get(get.channel(Arc::new(channel)))).await
    {
        Ok(rendered) => rendered,
        Err(input_required) => return Ok(GetPromptResponse::InputRequired(input_required)),
    };
    match rendered {
        Ok(result) => {
            let mut result: GetPromptResult = via_wire_json(&result, "a result")?;
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
