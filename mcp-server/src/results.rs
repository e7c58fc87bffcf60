//! Results sized for a model: a tool result over the server's bound (32 KB
//! by default, [`ServerBuilder::max_result_bytes`](crate::ServerBuilder::max_result_bytes),
//! or the tool's own [`ToolDef::max_result_bytes`](mcp_core::ToolDef::max_result_bytes))
//! is cut at whole items, stays valid JSON of its shape, and says what was
//! cut; the whole result stays readable for a while through
//! `resources/read` by the session that got it.

use std::sync::Arc;

use mcp_core::{CallToolResult, Tool};

mod budget;
mod cut;
mod spill;

pub(crate) use budget::within;
pub(crate) use spill::{KeptResults, URI_PREFIX};

/// A byte count as a model reads it: `512 B`, `32.0 KB`, `64.0 MB`.
pub(crate) fn readable_size(bytes: usize) -> String {
    // Precision is irrelevant at these magnitudes.
    #[allow(clippy::cast_precision_loss)]
    let value = bytes as f64;
    if bytes < 1_000 {
        format!("{bytes} B")
    } else if bytes < 1_000_000 {
        format!("{:.1} KB", value / 1e3)
    } else {
        format!("{:.1} MB", value / 1e6)
    }
}

/// The bytes of a tool result a server sends unless told otherwise.
pub const DEFAULT_MAX_RESULT_BYTES: usize = 32_000;

/// How one call's result is sized: its bound, where a whole result is
/// kept, for whom.
pub(crate) struct Sizing {
    pub(crate) bound: Option<usize>,
    pub(crate) kept: Arc<KeptResults>,
    pub(crate) tool: Arc<Tool>,
    /// The session that may read the whole result.
    pub(crate) owner: Option<String>,
}

impl Sizing {
    /// `result` within the bound.
    pub(crate) fn apply(self, result: CallToolResult) -> CallToolResult {
        let Some(bound) = self.bound else {
            return result;
        };
        let owner = self.owner.as_deref();
        within(&self.tool, result, bound, |whole| {
            self.kept.keep(owner, whole)
        })
    }
}
