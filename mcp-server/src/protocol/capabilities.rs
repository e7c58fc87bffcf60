//! What the server tells a client about itself: identity, instructions and
//! capabilities.

use rmcp::model::{
    Implementation, InitializeResult, ProtocolVersion, ServerCapabilities, ServerConfig,
    TASKS_EXTENSION_ID,
};
use serde_json::json;

use super::v2025::park_out::park_tasks_capability;
use crate::server::state::ServerState;

/// The server's answer to `initialize` (and `server/discover`).
pub(crate) fn server_config<C: 'static>(state: &ServerState<C>) -> ServerConfig {
    let identity = state.identity();
    let mut implementation = Implementation::new(identity.name.clone(), identity.version.clone());
    if let Some(title) = &identity.title {
        implementation = implementation.with_title(title.clone());
    }
    let catalog = state.catalog();
    let mut capabilities = if catalog.resources().is_empty() {
        ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .build()
    } else {
        ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .enable_resources()
            .enable_resources_list_changed()
            .build()
    };
    add_prompts_and_logging(&mut capabilities);
    if catalog.tools().has_task_tools() {
        add_tasks_extension(&mut capabilities);
    }
    let mut config = ServerConfig::new(capabilities).with_server_info(implementation);
    if let Some(instructions) = &identity.instructions {
        config = config.with_instructions(instructions.clone());
    }
    config
}

/// Adds logging, completions, prompts (with list changes) and resource
/// subscriptions (when the server has resources).
fn add_prompts_and_logging(capabilities: &mut ServerCapabilities) {
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

/// Declares the tasks extension (only when some tool may run as a task).
fn add_tasks_extension(capabilities: &mut ServerCapabilities) {
    capabilities
        .extensions
        .get_or_insert_with(Default::default)
        .insert(TASKS_EXTENSION_ID.to_owned(), Default::default());
}

/// Declares the 2025-11-25 `tasks` capability (`tools/call` as a task,
/// `tasks/list`, `tasks/cancel`) in an `initialize` result that negotiated
/// 2025-11-25, when some tool may run as a task. rmcp's capabilities have
/// no slot for it: it is parked for the transport to restore.
pub(crate) fn add_tasks_2025<C: 'static>(state: &ServerState<C>, result: &mut InitializeResult) {
    let legacy = result.protocol_version.as_str() < ProtocolVersion::V_2026_07_28.as_str();
    if legacy && state.catalog().tools().has_task_tools() {
        park_tasks_capability(
            result,
            json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}),
        );
    }
}
