//! A tool set as code mode shows it: `search_tools`, `execute` and the
//! pinned tools, the identifiers scripts call tools by, and the catalog.
//! Made once per tool set (kept with the catalog), never per request.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use mcp_core::{Tool, ToolDef};

use super::CodeMode;
use super::catalog::catalog_json;
use super::execute_tool::execute_tool;
use super::identifiers::identifiers;
use super::sandbox::ToolRef;
use super::search::search_tool;
use crate::catalog::Catalog;
use crate::discovery::finder::Finder;
use crate::discovery::suggest::closest_names;
use crate::discovery::toolsets::Toolsets;

/// Code mode's view of one catalog.
pub(crate) struct CodeModeView<C> {
    finder: Arc<Finder>,
    /// The hosted tools, in the finder's order.
    tools: Vec<ToolDef<C>>,
    /// The identifier of each tool, in the same order.
    identifiers: Arc<[String]>,
    by_identifier: HashMap<String, usize>,
    by_name: HashMap<String, usize>,
    search: ToolDef<C>,
    execute: Tool,
    /// What `tools/list` shows.
    listed: Vec<Tool>,
    /// The sandbox's `catalog` as JSON, made on the first run.
    catalog: OnceLock<Arc<str>>,
}

impl<C: Send + Sync + 'static> CodeModeView<C> {
    /// The view of `catalog` with `settings`, made on first use (the error
    /// says why the meta-tools could not be made).
    pub(crate) fn of(catalog: &Catalog<C>, settings: &CodeMode) -> Result<Arc<Self>, String> {
        let made: Arc<Result<Arc<Self>, String>> = catalog
            .attachments()
            .get_or_insert_with(|| Self::new(catalog, settings).map(Arc::new));
        (*made).clone()
    }

    fn new(catalog: &Catalog<C>, settings: &CodeMode) -> Result<Self, String> {
        let started = std::time::Instant::now();
        let tools: Vec<ToolDef<C>> = catalog.tools().all().to_vec();
        let values: Vec<&Tool> = tools.iter().map(ToolDef::tool).collect();
        let finder = Arc::new(Finder::with_toolsets(
            &values,
            Toolsets::of_catalog(catalog),
        ));
        tracing::info!(
            tools = values.len(),
            index_ms = started.elapsed().as_millis() as u64,
            "code mode: the search index is built"
        );
        let identifiers: Arc<[String]> =
            identifiers(values.iter().map(|tool| tool.name.as_str())).into();
        let by_identifier = identifiers
            .iter()
            .enumerate()
            .map(|(position, identifier)| (identifier.clone(), position))
            .collect();
        let by_name = values
            .iter()
            .enumerate()
            .map(|(position, tool)| (tool.name.clone(), position))
            .collect();
        let search =
            search_tool(finder.clone(), identifiers.clone()).map_err(|error| error.to_string())?;
        let execute =
            execute_tool(settings, &values, &identifiers).map_err(|error| error.to_string())?;
        let mut listed = vec![search.tool().clone(), execute.clone()];
        listed.extend(
            values
                .iter()
                .filter(|tool| settings.pinned().contains(&tool.name))
                .map(|tool| (*tool).clone()),
        );
        Ok(Self {
            finder,
            tools,
            identifiers,
            by_identifier,
            by_name,
            search,
            execute,
            listed,
            catalog: OnceLock::new(),
        })
    }

    /// What `tools/list` shows.
    pub(crate) fn listed(&self) -> &[Tool] {
        &self.listed
    }

    /// The `search_tools` tool.
    pub(crate) fn search_tool(&self) -> &ToolDef<C> {
        &self.search
    }

    /// The `execute` tool's protocol value.
    pub(crate) fn execute_tool(&self) -> &Tool {
        &self.execute
    }

    /// The identifiers of the tools, in order.
    pub(crate) fn identifiers(&self) -> Arc<[String]> {
        self.identifiers.clone()
    }

    /// The identifier scripts call the tool `name` by (the name itself for
    /// a tool this view does not hold).
    pub(crate) fn identifier_of<'a>(&'a self, name: &'a str) -> &'a str {
        self.by_name
            .get(name)
            .map_or(name, |&position| self.identifiers[position].as_str())
    }

    /// The sandbox's `catalog` as JSON.
    pub(crate) fn catalog_json(&self) -> Arc<str> {
        self.catalog
            .get_or_init(|| catalog_json(&self.finder, &self.identifiers).into())
            .clone()
    }

    /// The tool a script names, or the message of the error the call
    /// throws: the unknown name and the closest existing ones.
    pub(crate) fn resolve(&self, tool: &ToolRef) -> Result<&ToolDef<C>, String> {
        let (found, asked) = match tool {
            ToolRef::Identifier(identifier) => (
                self.by_identifier.get(identifier),
                format!("tools.{identifier}"),
            ),
            // `callTool` takes a tool's name, or the identifier answers show.
            ToolRef::Name(name) => (
                self.by_name
                    .get(name)
                    .or_else(|| self.by_identifier.get(name)),
                format!("callTool(\"{name}\")"),
            ),
        };
        if let Some(&position) = found {
            return Ok(&self.tools[position]);
        }
        let (ToolRef::Identifier(key) | ToolRef::Name(key)) = tool;
        let closest: Vec<String> = closest_names(key, &self.finder)
            .into_iter()
            .filter_map(|name| {
                let position = *self.by_name.get(&name)?;
                Some(match tool {
                    ToolRef::Identifier(_) => format!("tools.{}", self.identifiers[position]),
                    ToolRef::Name(_) => format!("\"{name}\""),
                })
            })
            .collect();
        let hint = if closest.is_empty() {
            String::new()
        } else {
            format!("; did you mean {}?", closest.join(", "))
        };
        Err(format!(
            "unknown tool {asked}{hint} (search_tools finds tools by task; `catalog` lists them all)"
        ))
    }
}
