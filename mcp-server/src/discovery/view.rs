//! A tool set as discovery mode shows it: the meta-tools `search_tools` and
//! `call_tool` plus the pinned tools, and the finder behind them. Made once
//! per tool set (kept with the catalog), never per request.

use std::sync::Arc;

use mcp_core::{CallToolResult, Hint, JsonObject, Tool, ToolDef, ToolError};
use serde_json::{Value, json};

use super::Discovery;
use super::finder::{DEFAULT_LIMIT, Finder, MAX_LIMIT, SearchArgs};
use super::suggest::closest_names;
use super::toolsets::Toolsets;
use crate::catalog::Catalog;

/// The meta-tool that ranks the tools for a task.
pub const SEARCH_TOOLS: &str = "search_tools";
/// The meta-tool that runs a tool by name.
pub const CALL_TOOL: &str = "call_tool";
/// How many bytes of the search tool's description may name categories.
const TAG_LIST_BYTES: usize = 600;

/// Discovery mode's view of one catalog.
pub(crate) struct DiscoveryView<C> {
    finder: Arc<Finder>,
    search: ToolDef<C>,
    /// What `tools/list` shows: the two meta-tools, then the pinned tools
    /// in listing order.
    listed: Vec<Tool>,
}

/// What a `call_tool` call asks for.
#[derive(Debug)]
pub(crate) struct Target {
    /// The tool to run.
    pub(crate) name: String,
    /// Its arguments.
    pub(crate) arguments: Option<JsonObject>,
}

impl<C: Send + Sync + 'static> DiscoveryView<C> {
    /// The view of `catalog` in the mode `discovery`, made on first use
    /// (the error says why the meta-tools could not be made).
    pub(crate) fn of(catalog: &Catalog<C>, discovery: &Discovery) -> Result<Arc<Self>, String> {
        let made: Arc<Result<Arc<Self>, String>> = catalog
            .attachments()
            .get_or_insert_with(|| Self::new(catalog, discovery).map(Arc::new));
        (*made).clone()
    }

    fn new(catalog: &Catalog<C>, discovery: &Discovery) -> Result<Self, String> {
        let started = std::time::Instant::now();
        let defs = catalog.tools().all();
        let tools: Vec<&Tool> = defs.iter().map(ToolDef::tool).collect();
        let finder = Arc::new(Finder::with_toolsets(&tools, Toolsets::of_catalog(catalog)));
        tracing::info!(
            tools = tools.len(),
            index_ms = started.elapsed().as_millis() as u64,
            "discovery: the search index is built"
        );
        let search = search_tool(finder.clone()).map_err(|error| error.to_string())?;
        let mut listed = vec![
            search.tool().clone(),
            call_tool().map_err(|error| error.to_string())?,
        ];
        listed.extend(
            tools
                .iter()
                .filter(|tool| discovery.pinned().contains(&tool.name))
                .map(|tool| (*tool).clone()),
        );
        Ok(Self {
            finder,
            search,
            listed,
        })
    }

    /// What `tools/list` shows.
    pub(crate) fn listed(&self) -> &[Tool] {
        &self.listed
    }

    /// The names of the tools best for `query`, best first, at most `limit`.
    pub(crate) fn search(&self, query: &str, limit: usize) -> Vec<String> {
        let names: Vec<&str> = self.finder.names().collect();
        self.finder
            .index()
            .search(query, limit, |_| true)
            .into_iter()
            .map(|hit| names[hit.tool].to_owned())
            .collect()
    }

    /// The `search_tools` tool.
    pub(crate) fn search_tool(&self) -> &ToolDef<C> {
        &self.search
    }

    /// The tool and arguments a `call_tool` call names, or the message of
    /// the error result to return: arguments of the wrong shape, or an unknown name (with
    /// the closest names).
    pub(crate) fn target(&self, arguments: Option<&JsonObject>) -> Result<Target, String> {
        let empty = JsonObject::new();
        let arguments = arguments.unwrap_or(&empty);
        if let Some(extra) = arguments
            .keys()
            .find(|key| !matches!(key.as_str(), "name" | "arguments"))
        {
            return Err(format!(
                "`call_tool` takes `name` and `arguments`, not `{extra}`"
            ));
        }
        let Some(name) = arguments.get("name").and_then(Value::as_str) else {
            return Err(
                "`call_tool` needs `name`: the name of a tool found with `search_tools`".into(),
            );
        };
        let inner = match arguments.get("arguments") {
            None | Some(Value::Null) => None,
            Some(Value::Object(inner)) => Some(inner.clone()),
            Some(other) => {
                return Err(format!(
                    "`arguments` of `call_tool` must be an object, not {other}"
                ));
            }
        };
        if !self.finder.names().any(|known| known == name) {
            let closest = closest_names(name, &self.finder);
            let hint = if closest.is_empty() {
                String::new()
            } else {
                let quoted: Vec<String> = closest.iter().map(|name| format!("`{name}`")).collect();
                format!("; did you mean {}?", quoted.join(", "))
            };
            return Err(format!(
                "unknown tool `{name}`{hint} (`search_tools` finds tools by task)"
            ));
        }
        Ok(Target {
            name: name.to_owned(),
            arguments: inner,
        })
    }
}

/// The `search_tools` tool over `finder`.
fn search_tool<C: Send + Sync + 'static>(finder: Arc<Finder>) -> Result<ToolDef<C>, ToolError> {
    let description = search_description(&finder);
    let schema = json!({
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "The task, in a few words (empty: list `tags`, or the categories)"},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": DEFAULT_LIMIT},
            "tags": {"type": "array", "items": {"type": "string"}, "description": "Only tools of these categories"},
            "detail": {"type": "boolean", "default": false, "description": "Full input schemas"},
            "categories": {"type": "boolean", "default": false, "description": "List the categories with their tool counts"}
        }
    });
    mcp_core::tool(SEARCH_TOOLS)
        .description(description)
        .input_schema(object(schema))
        .annotations([Hint::Read, Hint::ClosedWorld])
        .run(move |arguments: JsonObject| {
            let finder = finder.clone();
            async move {
                match serde_json::from_value::<SearchArgs>(Value::Object(arguments)) {
                    Ok(args) => finder.answer(&args),
                    Err(error) => CallToolResult::error(format!("invalid arguments: {error}")),
                }
            }
        })
}

/// The description of `search_tools`: what it does, and the categories
/// with their tool counts (the largest first, within [`TAG_LIST_BYTES`]).
fn search_description(finder: &Finder) -> String {
    let count = finder.index().len();
    let mut description = format!(
        "Find tools of this server ({count}) for a task. Returns name, description and a compact inputSchema (`detail`: full), then `more` candidates by name. Run one with `call_tool`."
    );
    let categories = finder.index().categories();
    if categories.is_empty() {
        return description;
    }
    description
        .push_str(" Tags (`categories: true` lists them all; list one with an empty query): ");
    let mut listed = 0;
    for (tag, tools) in &categories {
        let item = format!("{tag} ({tools})");
        if listed > 0 && description.len() + item.len() > TAG_LIST_BYTES + 200 {
            break;
        }
        if listed > 0 {
            description.push_str(", ");
        }
        description.push_str(&item);
        listed += 1;
    }
    if listed < categories.len() {
        description.push_str(&format!(", and {} more", categories.len() - listed));
    }
    description.push('.');
    description
}

/// The `call_tool` tool's protocol value (its calls never reach a handler:
/// the server runs the named tool in its place).
fn call_tool() -> Result<Tool, ToolError> {
    let schema = json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "A tool name from search_tools"},
            "arguments": {"type": "object", "description": "The tool's arguments"}
        },
        "required": ["name"]
    });
    mcp_core::tool(CALL_TOOL)
        .description(
            "Run a tool found with search_tools, by name, with its arguments; returns its result.",
        )
        .input_schema(object(schema))
        .build()
}

/// The JSON object a meta-tool's `json!` schema literal is (an empty one
/// for anything else).
pub(crate) fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(object) => object,
        _ => JsonObject::new(),
    }
}
