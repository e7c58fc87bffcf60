//! Whether a tool takes part in task-augmented execution.

use serde::{Deserialize, Serialize};

use crate::error::ToolError;

/// Execution-related properties of a tool (`ToolExecution` of the MCP
/// 2025-11-25 specification): `{"taskSupport": "optional"}` on the wire.
///
/// ```
/// use mcp_core::{TaskSupport, ToolExecution};
///
/// assert_eq!(
///     serde_json::to_string(&ToolExecution::optional()).unwrap(),
///     r#"{"taskSupport":"optional"}"#
/// );
/// assert_eq!(ToolExecution::default().task_support, TaskSupport::Forbidden);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolExecution {
    /// Whether the tool can be run as a task; absent on the wire means forbidden.
    #[serde(default)]
    pub task_support: TaskSupport,
}

/// Whether a tool supports task-augmented execution.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TaskSupport {
    /// Never run as a task (the spec default).
    #[default]
    Forbidden,
    /// A client may run the tool as a task.
    Optional,
    /// The tool must be run as a task.
    Required,
}

impl ToolExecution {
    /// `{"taskSupport": "forbidden"}`.
    pub const fn forbidden() -> Self {
        Self::new(TaskSupport::Forbidden)
    }

    /// `{"taskSupport": "optional"}`.
    pub const fn optional() -> Self {
        Self::new(TaskSupport::Optional)
    }

    /// `{"taskSupport": "required"}`.
    pub const fn required() -> Self {
        Self::new(TaskSupport::Required)
    }

    /// The execution properties with the given task support.
    pub const fn new(task_support: TaskSupport) -> Self {
        Self { task_support }
    }
}

impl From<TaskSupport> for ToolExecution {
    fn from(task_support: TaskSupport) -> Self {
        Self::new(task_support)
    }
}

impl TaskSupport {
    /// The wire spelling: `"forbidden"`, `"optional"` or `"required"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Forbidden => "forbidden",
            Self::Optional => "optional",
            Self::Required => "required",
        }
    }
}

impl std::str::FromStr for TaskSupport {
    type Err = ToolError;

    /// Parses the wire spelling.
    ///
    /// ```
    /// use mcp_core::TaskSupport;
    ///
    /// assert_eq!("optional".parse::<TaskSupport>().unwrap(), TaskSupport::Optional);
    /// assert!("sometimes".parse::<TaskSupport>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "forbidden" => Ok(Self::Forbidden),
            "optional" => Ok(Self::Optional),
            "required" => Ok(Self::Required),
            other => Err(ToolError::InvalidExecution {
                value: other.to_owned(),
            }),
        }
    }
}
