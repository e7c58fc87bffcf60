//! The protocol value of a tool.

use serde::{Deserialize, Serialize};

use crate::icon::Icon;
use crate::meta::Meta;
use crate::tool::annotations::ToolAnnotations;
use crate::tool::execution::ToolExecution;
use crate::tool::schema::ToolSchema;

/// A tool as the MCP 2025-11-25 specification puts it on the wire.
///
/// Fields absent on the wire are `None` (or empty) here and are omitted when
/// serializing, so `serde_json` gives exactly the spec's JSON and reads it back
/// unchanged. Build one with [`tool`](fn@crate::tool); the macro and OpenAPI
/// generation build theirs the same way.
///
/// ```
/// use mcp_core::{tool, Hint, ToolDef};
/// use serde_json::json;
///
/// let def: ToolDef = tool("delete_user")
///     .title("Delete user")
///     .description("Permanently remove a user account by id.")
///     .annotations([Hint::Destroy, Hint::ClosedWorld])
///     .run(|_args: serde_json::Map<String, serde_json::Value>| async { "deleted" })
///     .unwrap();
/// assert_eq!(
///     serde_json::to_value(def.tool()).unwrap(),
///     json!({
///         "name": "delete_user",
///         "title": "Delete user",
///         "description": "Permanently remove a user account by id.",
///         "inputSchema": {"type": "object"},
///         "annotations": {"readOnlyHint": false, "destructiveHint": true, "openWorldHint": false}
///     })
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Tool {
    /// The programmatic name (1 to 128 characters of `A-Z a-z 0-9 _ - .`).
    pub name: String,
    /// A human-readable display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the tool does, for people and models.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The JSON Schema of the arguments; its root is `"type": "object"`.
    pub input_schema: ToolSchema,
    /// The JSON Schema of `structuredContent`, when the tool returns one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<ToolSchema>,
    /// Behavioural hints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<ToolAnnotations>,
    /// Icons a client may display.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub icons: Vec<Icon>,
    /// Task-augmented execution support.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub execution: Option<ToolExecution>,
    /// Extension metadata (`_meta`).
    #[serde(rename = "_meta", default, skip_serializing_if = "Meta::is_empty")]
    pub meta: Meta,
}

impl Tool {
    /// The name a client shows: `title`, else `annotations.title`, else `name`
    /// (the specification's precedence).
    ///
    /// ```
    /// use mcp_core::{tool, Hint, ToolDef};
    ///
    /// let def: ToolDef = tool("rm").annotations([Hint::Title("Remove".into())])
    ///     .run(|_: serde_json::Map<String, serde_json::Value>| async { "" })
    ///     .unwrap();
    /// assert_eq!(def.tool().display_name(), "Remove");
    /// ```
    pub fn display_name(&self) -> &str {
        self.title
            .as_deref()
            .or_else(|| self.annotations.as_ref().and_then(|a| a.title.as_deref()))
            .unwrap_or(&self.name)
    }
}
