//! Generated tools with their HTTP handlers: the `ToolDef`s a server hosts.

use std::sync::Arc;

use mcp_core::ToolDef;

use crate::{ClientConfig, Generated, GeneratedTool, HttpToolHandler, SpecError};

impl GeneratedTool {
    /// The tool with the handler that performs its HTTP call through `config`.
    pub fn tool_def<C: Send + Sync + 'static>(
        &self,
        config: &Arc<ClientConfig>,
    ) -> Result<ToolDef<C>, SpecError> {
        let handler =
            HttpToolHandler::new(self.route.clone(), self.binding.clone(), config.clone());
        ToolDef::new(self.tool.clone(), handler).map_err(|source| SpecError::Tool {
            pointer: self.route.pointer.clone(),
            source,
        })
    }
}

impl Generated {
    /// Every generated tool with its HTTP handler, in document order.
    pub fn tool_defs<C: Send + Sync + 'static>(
        &self,
        config: &Arc<ClientConfig>,
    ) -> Result<Vec<ToolDef<C>>, SpecError> {
        self.tools
            .iter()
            .map(|tool| tool.tool_def(config))
            .collect()
    }
}
