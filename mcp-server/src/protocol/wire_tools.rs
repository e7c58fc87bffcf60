//! The hosted tools in rmcp's form, each converted once per catalog, when
//! first listed or asked for.

use std::ops::Range;
use std::sync::{Arc, OnceLock};

use mcp_core::schema::json_len;
use mcp_core::{Tool, ToolDef};
use rmcp::model::Tool as WireTool;
use serde_json::Value;

use super::convert::tool_to_rmcp;
use super::v2025::park_out::park;
use crate::catalog::Catalog;
use crate::discovery::view::DiscoveryView;

/// The discovery-mode listing of a catalog, kept apart from its full one.
struct DiscoveryListing(Arc<WireTools>);

/// The code-mode listing of a catalog, kept apart from its full one.
#[cfg(feature = "code-mode")]
struct CodeModeListing(Arc<WireTools>);

/// The hosted tools as rmcp values, in listing order, plus each tool's
/// `execution` as JSON (rmcp's `Tool` has no slot for it).
///
/// rmcp holds schemas as whole objects: a tool whose schema shares its
/// definitions with others is assembled when a page first shows it, so a
/// client that reads only the first page of a large API never pays for all.
#[derive(Debug, Default)]
pub(crate) struct WireTools {
    sources: Vec<Tool>,
    tools: Vec<OnceLock<WireTool>>,
    executions: Vec<Option<Value>>,
    /// Each tool's serialized size in bytes, for byte-bounded pages.
    sizes: Vec<usize>,
}

impl WireTools {
    /// The tools of `catalog` in rmcp's form, converted on first use.
    pub(crate) fn of<C: Send + Sync + 'static>(catalog: &Catalog<C>) -> Arc<Self> {
        catalog
            .attachments()
            .get_or_insert_with(|| Self::new(catalog.tools().all().iter().map(ToolDef::tool)))
    }

    /// What `tools/list` shows of `catalog` in discovery mode (`view`):
    /// the meta-tools and the pinned tools, converted on first use.
    pub(crate) fn listed_in_discovery<C: Send + Sync + 'static>(
        catalog: &Catalog<C>,
        view: &DiscoveryView<C>,
    ) -> Arc<Self> {
        let listed = catalog
            .attachments()
            .get_or_insert_with(|| DiscoveryListing(Arc::new(Self::new(view.listed()))));
        listed.0.clone()
    }

    /// What `tools/list` shows of `catalog` in code mode (`view`): the
    /// meta-tools and the pinned tools, converted on first use.
    #[cfg(feature = "code-mode")]
    pub(crate) fn listed_in_code_mode<C: Send + Sync + 'static>(
        catalog: &Catalog<C>,
        view: &crate::code_mode::view::CodeModeView<C>,
    ) -> Arc<Self> {
        let listed = catalog
            .attachments()
            .get_or_insert_with(|| CodeModeListing(Arc::new(Self::new(view.listed()))));
        listed.0.clone()
    }

    fn new<'a>(tools: impl IntoIterator<Item = &'a Tool>) -> Self {
        let sources: Vec<Tool> = tools.into_iter().cloned().collect();
        let tools = sources.iter().map(|_| OnceLock::new()).collect();
        let executions = sources
            .iter()
            .map(|tool| {
                tool.execution
                    .and_then(|execution| serde_json::to_value(execution).ok())
            })
            .collect();
        let sizes = sources.iter().map(json_len).collect();
        Self {
            sources,
            tools,
            executions,
            sizes,
        }
    }

    /// Each tool's serialized size in bytes, in listing order.
    pub(crate) fn sizes(&self) -> &[usize] {
        &self.sizes
    }

    /// The tool at `index`.
    pub(crate) fn get(&self, index: usize) -> Option<&WireTool> {
        let source = self.sources.get(index)?;
        let tool = self.tools.get(index)?;
        Some(tool.get_or_init(|| tool_to_rmcp(source.clone())))
    }

    /// The tool called `name`.
    pub(crate) fn find(&self, name: &str) -> Option<&WireTool> {
        let index = self.sources.iter().position(|tool| tool.name == name)?;
        self.get(index)
    }

    /// The tools in `range`, with `execution` parked in `_meta` when
    /// `with_execution` (see [`super::v2025::park_out`]).
    pub(crate) fn page(&self, range: Range<usize>, with_execution: bool) -> Vec<WireTool> {
        let Some(executions) = self.executions.get(range.clone()) else {
            return Vec::new();
        };
        range
            .zip(executions)
            .filter_map(|(index, execution)| {
                let mut tool = self.get(index)?.clone();
                if let (true, Some(execution)) = (with_execution, execution) {
                    park(&mut tool, execution.clone());
                }
                Some(tool)
            })
            .collect()
    }
}
