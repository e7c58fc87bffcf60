//! `completion/complete` for prompt arguments and resource template
//! variables.

use mcp_core::completion::{CompleteRequest, Completion, CompletionReference};
use rmcp::ErrorData;
use rmcp::model::{CompleteRequestParams, CompleteResult};
use serde_json::Value;

use super::convert::via_wire_json;
use crate::server::state::ServerState;

/// The suggestions of the completer of the referenced argument; no
/// completer means no suggestions, an unknown prompt or template is
/// JSON-RPC error -32602.
pub(crate) fn complete<C: Send + Sync + 'static>(
    state: &ServerState<C>,
    request: CompleteRequestParams,
) -> Result<CompleteResult, ErrorData> {
    let request: CompleteRequest = via_wire_json(&request, "a result")
        .map_err(|error| ErrorData::invalid_params(error.message, None))?;
    let resolved = request
        .context
        .as_ref()
        .and_then(|context| context.get("arguments"))
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let completion = match &request.reference {
        CompletionReference::Prompt { name } => {
            let def = state.prompts().get(name).ok_or_else(|| {
                ErrorData::invalid_params(format!("unknown prompt `{name}`"), None)
            })?;
            def.completer(&request.argument.name)
                .map(|completer| completer.complete(&request.argument.value, &resolved))
        }
        CompletionReference::Resource { uri } => {
            let catalog = state.catalog();
            let def = catalog
                .resources()
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
    via_wire_json(
        &mcp_core::completion::CompleteResult::new(completion.unwrap_or_else(Completion::default)),
        "a result",
    )
}
