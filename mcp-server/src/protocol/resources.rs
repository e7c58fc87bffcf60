//! `resources/list`, `resources/templates/list` and `resources/read`.

use std::sync::Arc;

use mcp_core::RequestScope;
use mcp_core::resource::{ResourceDef, ResourceError, ResourceRequest};
use rmcp::ErrorData;
use rmcp::model::{
    ListResourceTemplatesResult, ListResourcesResult, ReadResourceResult, ResultType,
};
use serde_json::json;

use super::convert::via_wire_json;
use crate::catalog::resource_set::ResourceSet;
use crate::server::pagination::page;
use crate::server::state::ServerState;

/// A page of the fixed resources.
pub(super) fn list<C: 'static>(
    set: &ResourceSet<C>,
    cursor: Option<&str>,
    page_size: usize,
) -> Result<ListResourcesResult, ErrorData> {
    let page = page(cursor, set.fixed().len(), page_size)
        .map_err(|e| ErrorData::invalid_params(e.to_string(), None))?;
    let resources = set.fixed()[page.range]
        .iter()
        .filter_map(ResourceDef::resource)
        .map(|resource| via_wire_json(resource, "a resource"))
        .collect::<Result<Vec<_>, _>>()?;
    let mut result = ListResourcesResult::with_all_items(resources);
    result.next_cursor = page.next_cursor;
    Ok(result)
}

/// A page of the resource templates.
pub(super) fn list_templates<C: 'static>(
    set: &ResourceSet<C>,
    cursor: Option<&str>,
    page_size: usize,
) -> Result<ListResourceTemplatesResult, ErrorData> {
    let page = page(cursor, set.templates().len(), page_size)
        .map_err(|e| ErrorData::invalid_params(e.to_string(), None))?;
    let templates = set.templates()[page.range]
        .iter()
        .filter_map(ResourceDef::template)
        .map(|template| via_wire_json(template, "a resource template"))
        .collect::<Result<Vec<_>, _>>()?;
    let mut result = ListResourceTemplatesResult::with_all_items(templates);
    result.next_cursor = page.next_cursor;
    Ok(result)
}

/// Reads `uri` with the session's context.
pub(super) async fn read<C: 'static>(
    set: &ResourceSet<C>,
    uri: &str,
    ctx: Arc<C>,
    scope: RequestScope,
) -> Result<ReadResourceResult, ErrorData> {
    let Some((def, variables)) = set.resolve(uri) else {
        return Err(not_found(uri));
    };
    let request = ResourceRequest::new(uri, variables, ctx).in_scope(scope);
    match def.read(request).await {
        Ok(result) => {
            let mut result: ReadResourceResult = via_wire_json(&result, "the resource contents")?;
            // Our value has no 2026-07-28 discriminator; rmcp strips it for older peers.
            result.result_type = Some(ResultType::COMPLETE);
            Ok(result)
        }
        Err(ResourceError::NotFound { uri }) => Err(not_found(&uri)),
        Err(error) => Err(ErrorData::internal_error(
            error.to_string(),
            Some(json!({ "uri": uri })),
        )),
    }
}

/// Reads the whole result of a cut tool result (see [`crate::results`]):
/// the session that got it may, while it is kept.
pub(super) fn read_kept_result<C: Send + Sync + 'static>(
    state: &ServerState<C>,
    uri: &str,
    owner: Option<&str>,
) -> Result<ReadResourceResult, ErrorData> {
    let Some(text) = state.kept_results().read(uri, owner) else {
        return Err(not_found(uri));
    };
    let contents = mcp_core::resource::ResourceContents::text(
        uri,
        Some("application/json".to_owned()),
        text.to_string(),
    );
    let mut result: ReadResourceResult = via_wire_json(
        &mcp_core::resource::ReadResourceResult::new(vec![contents]),
        "the resource contents",
    )?;
    result.result_type = Some(ResultType::COMPLETE);
    Ok(result)
}

fn not_found(uri: &str) -> ErrorData {
    ErrorData::resource_not_found(
        format!("resource `{uri}` not found"),
        Some(json!({ "uri": uri })),
    )
}
