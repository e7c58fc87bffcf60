//! Generated tools with their HTTP handlers: the `ToolDef`s a server hosts.

use std::sync::Arc;

use mcp_core::ToolDef;

use crate::{
    ClientConfig, Generated, GeneratedTool, HttpToolHandler, SpecError, tolerant_output_schema,
};

impl GeneratedTool {
    /// The tool with the handler that performs its HTTP call through `config`.
    ///
    /// Real APIs do not always match their documents, so the served tool
    /// declares [`tolerant_output_schema`] of the documented output schema: a
    /// success that does not match is passed on in an envelope that still
    /// validates, for clients that check `structuredContent` against
    /// `outputSchema` (see the `response` module docs for the policy).
    pub fn tool_def<C: Send + Sync + 'static>(
        &self,
        config: &Arc<ClientConfig>,
    ) -> Result<ToolDef<C>, SpecError> {
        let handler =
            HttpToolHandler::new(self.route.clone(), self.binding.clone(), config.clone());
        let mut tool = self.tool.clone();
        if let Some(declared) = &tool.output_schema {
            tool.output_schema = Some(Arc::new(tolerant_output_schema(declared)));
        }
        ToolDef::new(tool, handler).map_err(|source| SpecError::Tool {
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
