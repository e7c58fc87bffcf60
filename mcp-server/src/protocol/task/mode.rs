//! Whether a `tools/call` runs inline or as a task, and as which
//! generation's task.

use mcp_core::TaskSupport;
use rmcp::ErrorData;
use rmcp::model::{ClientCapabilities, ErrorCode, ProtocolVersion};
use rmcp::service::{RequestContext, RoleServer};

/// How one `tools/call` runs.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum CallMode {
    /// In the request: the response is the result.
    Inline,
    /// As a 2026-07-28 task: the response is the task, the result comes from
    /// `tasks/get`.
    Task,
    /// As a 2025-11-25 task: the response is `{task}`, the result comes
    /// from `tasks/result`.
    Task2025,
}

/// Whether the request comes from a 2026-07-28 (or later) client.
pub(crate) fn is_modern(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|version| version.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
}

/// How a call of a tool declaring `support` runs.
///
/// A 2026-07-28 client gets a task when the tool supports it and the client
/// declared the tasks extension; a tool that requires a task, called by such
/// a client without the extension, is error -32021.
///
/// A 2025-11-25 client gets a task when it sent `params.task`
/// (`asked_2025`); asking for a task of a tool that forbids it, or calling a
/// tool that requires one without asking, is error -32601 as that
/// version's specification says.
pub(crate) fn call_mode(
    support: TaskSupport,
    context: &RequestContext<RoleServer>,
    asked_2025: bool,
) -> Result<CallMode, ErrorData> {
    if !is_modern(context) {
        return match (support, asked_2025) {
            (TaskSupport::Forbidden, true) => Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                "this tool does not run as a task (its execution.taskSupport is `forbidden`): call it without `task`",
                None,
            )),
            (TaskSupport::Required, false) => Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                "this tool runs only as a task (its execution.taskSupport is `required`): call it with `task`",
                None,
            )),
            (_, true) => Ok(CallMode::Task2025),
            (_, false) => Ok(CallMode::Inline),
        };
    }
    if support == TaskSupport::Forbidden {
        return Ok(CallMode::Inline);
    }
    let declared = context
        .client_capabilities()
        .is_some_and(|caps| caps.supports_tasks());
    match (declared, support) {
        (true, _) => Ok(CallMode::Task),
        (false, TaskSupport::Required) => Err(ErrorData::missing_required_client_capability(
            ClientCapabilities::builder().enable_tasks().build(),
        )),
        (false, _) => Ok(CallMode::Inline),
    }
}
