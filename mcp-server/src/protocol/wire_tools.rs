//! The hosted tools in rmcp's form, converted once per catalog.

use std::ops::Range;
use std::sync::Arc;

use mcp_core::{Tool, ToolDef};
use rmcp::model::Tool as WireTool;
use serde_json::Value;

use super::convert::tool_to_rmcp;
use super::restore_execution::park;
use crate::discovery::view::DiscoveryView;
use crate::server::catalog::Catalog;

/// The discovery-mode listing of a catalog, kept apart from its full one.
struct DiscoveryListing(Arc<WireTools>);

/// The hosted tools as rmcp values, in listing order, plus each tool's
/// `execution` as JSON (rmcp's `Tool` has no slot for it).
#[derive(Debug, Default)]
pub(crate) struct WireTools {
    tools: Vec<WireTool>,
    executions: Vec<Option<Value>>,
    /// Each tool's serialized size in bytes, for byte-bounded pages.
    sizes: Vec<usize>,
}

/// The length of `value`'s JSON, counted without building the string.
fn serialized_len(value: &impl serde::Serialize) -> usize {
    struct Counter(usize);
    impl std::io::Write for Counter {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut counter = Counter(0);
    // Writing to a counter cannot fail; an unserializable value counts as empty.
    let _ = serde_json::to_writer(&mut counter, value);
    counter.0
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

    fn new<'a>(tools: impl IntoIterator<Item = &'a Tool> + Clone) -> Self {
        let sizes = tools.clone().into_iter().map(serialized_len).collect();
        let executions = tools
            .clone()
            .into_iter()
            .map(|tool| {
                tool.execution
                    .and_then(|execution| serde_json::to_value(execution).ok())
            })
            .collect();
        let tools = tools
            .into_iter()
            .map(|tool| tool_to_rmcp(tool.clone()))
            .collect();
        Self {
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
        self.tools.get(index)
    }

    /// The tool called `name`.
    pub(crate) fn find(&self, name: &str) -> Option<&WireTool> {
        self.tools.iter().find(|tool| tool.name == name)
    }

    /// The tools in `range`, with `execution` parked in `_meta` when
    /// `with_execution` (see [`super::restore_execution`]).
    pub(crate) fn page(&self, range: Range<usize>, with_execution: bool) -> Vec<WireTool> {
        let (Some(tools), Some(executions)) =
            (self.tools.get(range.clone()), self.executions.get(range))
        else {
            return Vec::new();
        };
        tools
            .iter()
            .zip(executions)
            .map(|(tool, execution)| {
                let mut tool = tool.clone();
                if let (true, Some(execution)) = (with_execution, execution) {
                    park(&mut tool, execution.clone());
                }
                tool
            })
            .collect()
    }
}
