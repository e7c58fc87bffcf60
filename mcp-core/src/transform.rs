//! Tool transformation: a new tool derived from any [`ToolDef`](crate::ToolDef)
//! (hand-written or generated) without touching its source.
//!
//! [`from_tool`] starts from the original; the new tool may have another
//! name, title, description, annotations, icons and `_meta`, and each
//! argument may be renamed, re-described, hidden behind a fixed or computed
//! value, restricted to an `enum`, given a default or made required
//! ([`ArgTransform`]). The input schema clients see is regenerated from
//! those changes.
//!
//! A call of the new tool is checked against the new schema first, so an
//! error names the arguments as the client knows them. Then the arguments
//! are mapped back to the original names, hidden values are added, and the
//! original is called through its own middleware and handler, which check
//! them again. A [`wrap`](ToolTransform::wrap) function may stand in
//! between, with the arguments typed and a [`Forward`] to the original, to
//! validate, change arguments or post-process the result;
//! [`keep_fields`](ToolTransform::keep_fields) trims structured results.
//!
//! ```
//! use mcp_core::transform::{ArgTransform, from_tool};
//! use mcp_core::{tool, CallToolResult, ToolDef};
//! use schemars::JsonSchema;
//! use serde::Deserialize;
//! use serde_json::json;
//!
//! #[derive(Deserialize, JsonSchema)]
//! struct ListIssues {
//!     owner: String,
//!     repo: String,
//!     state: Option<String>,
//! }
//!
//! let list: ToolDef = tool("issues_list")
//!     .input::<ListIssues>()
//!     .run(|args: ListIssues| async move {
//!         let state = args.state.unwrap_or_default();
//!         CallToolResult::structured(json!({"result": [
//!             {"number": 1, "title": format!("{}/{} {state}", args.owner, args.repo), "body": "..."}
//!         ]}))
//!     })?;
//!
//! let widgets: ToolDef = from_tool(list)
//!     .name("widget_issues")
//!     .description("Issues of acme/widgets.")
//!     .arg("owner", ArgTransform::new().hide().value("acme"))
//!     .arg("repo", ArgTransform::new().hide().value("widgets"))
//!     .arg("state", ArgTransform::new().rename("status").enum_values(["open", "closed"]).default_value("open"))
//!     .build()?;
//!
//! assert_eq!(
//!     widgets.tool().input_schema["properties"],
//!     json!({"status": {"type": "string", "enum": ["open", "closed"], "default": "open"}})
//! );
//! let listed = futures_executor::block_on(widgets.call_detached(json!({})));
//! assert_eq!(listed.structured_content.unwrap()["result"][0]["title"], "acme/widgets open");
//!
//! let refused = futures_executor::block_on(widgets.call_detached(json!({"status": "all"})));
//! assert!(refused.text_content().contains("/status: "), "{}", refused.text_content());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The same changes can come from a file: [`TransformFile`] is its serde
//! model (the `mcp-server` command reads it from TOML or YAML with
//! `--transform FILE`).

mod arg;
mod builder;
mod check;
mod error;
mod file;
mod forward;
mod handler;
mod keep;
mod plan;
mod schema;
mod wrap;

pub use arg::ArgTransform;
pub use builder::{ToolTransform, from_tool};
pub use error::TransformError;
pub use file::{AnnotationsEntry, ArgEntry, ResultEntry, ToolEntry, TransformFile};
pub use forward::Forward;
