//! The hosted tools in rmcp's form, converted when a page shows them.

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
/// definitions with others is assembled for the page that shows it and not
/// kept, so listing a large API holds one page at a time, never every
/// tool's copy of the definitions. The meta-tools of discovery and code
/// mode (few, and asked for on every listing) are kept converted.
#[derive(Debug, Default)]
pub(crate) struct WireTools {
    sources: Vec<Tool>,
    /// The converted tools, for a listing that keeps them.
    kept: Option<Vec<OnceLock<WireTool>>>,
    executions: Vec<Option<Value>>,
    /// Each tool's serialized size in bytes, for byte-bounded pages.
    sizes: Vec<usize>,
}

impl WireTools {
    /// The tools of `catalog` in rmcp's form, converted on first use.
    pub(crate) fn of<C: Send + Sync + 'static>(catalog: &Catalog<C>) -> Arc<Self> {
        catalog.attachments().get_or_insert_with(|| {
            Self::new(catalog.tools().all().iter().map(ToolDef::tool), false)
        })
    }

    /// What `tools/list` shows of `catalog` in discovery mode (`view`):
    /// the meta-tools and the pinned tools, converted on first use.
    pub(crate) fn listed_in_discovery<C: Send + Sync + 'static>(
        catalog: &Catalog<C>,
        view: &DiscoveryView<C>,
    ) -> Arc<Self> {
        let listed = catalog
            .attachments()
            .get_or_insert_with(|| DiscoveryListing(Arc::new(Self::new(view.listed(), true))));
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
            .get_or_insert_with(|| CodeModeListing(Arc::new(Self::new(view.listed(), true))));
        listed.0.clone()
    }

    /// The `tools` in rmcp's form, kept once converted when `keep`.
    fn new<'a>(tools: impl IntoIterator<Item = &'a Tool>, keep: bool) -> Self {
        let sources: Vec<Tool> = tools.into_iter().cloned().collect();
        let kept = keep.then(|| sources.iter().map(|_| OnceLock::new()).collect());
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
            kept,
            executions,
            sizes,
        }
    }

    /// Each tool's serialized size in bytes, in listing order.
    pub(crate) fn sizes(&self) -> &[usize] {
        &self.sizes
    }

    /// The tool at `index`.
    pub(crate) fn get(&self, index: usize) -> Option<WireTool> {
        let source = self.sources.get(index)?;
        Some(match &self.kept {
            Some(kept) => kept
                .get(index)?
                .get_or_init(|| tool_to_rmcp(source.clone()))
                .clone(),
            None => tool_to_rmcp(source.clone()),
        })
    }

    /// The tool called `name`.
    pub(crate) fn find(&self, name: &str) -> Option<WireTool> {
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
                let mut tool = self.get(index)?;
                if let (true, Some(execution)) = (with_execution, execution) {
                    park(&mut tool, execution.clone());
                }
                Some(tool)
            })
            .collect()
    }
}
