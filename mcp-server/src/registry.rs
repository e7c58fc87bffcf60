//! The tools a server hosts, by name, in listing order.

use std::collections::HashMap;

use mcp_core::{TaskSupport, ToolDef, ToolExecution};

use crate::{BuildError, ToolSource};

/// The hosted tools: listing order plus an index by name.
pub(crate) struct ToolSet<C> {
    defs: Vec<ToolDef<C>>,
    by_name: HashMap<String, usize>,
}

impl<C: Send + Sync + 'static> ToolSet<C> {
    /// Collects the sources' tools, applying prefixes and rejecting clashes.
    pub(crate) fn from_sources(sources: Vec<ToolSource<C>>) -> Result<Self, BuildError> {
        let mut defs = Vec::new();
        let mut by_name = HashMap::new();
        let mut origin: Vec<usize> = Vec::new();
        for (source_index, source) in sources.iter().enumerate() {
            for def in &source.tools {
                let def = match &source.prefix {
                    None => def.clone(),
                    Some(prefix) => {
                        let name = format!("{prefix}{}", def.name());
                        def.clone()
                            .rename(name)
                            .map_err(|error| BuildError::InvalidPrefix {
                                source_label: source.label.clone(),
                                prefix: prefix.clone(),
                                tool: def.name().to_owned(),
                                reason: error.to_string(),
                            })?
                    }
                };
                let def = advertise_only_what_runs(def);
                if let Some(&first) = by_name.get(def.name()) {
                    let first_source: usize = origin[first];
                    return Err(BuildError::DuplicateTool {
                        name: def.name().to_owned(),
                        first: sources[first_source].label.clone(),
                        second: source.label.clone(),
                    });
                }
                by_name.insert(def.name().to_owned(), defs.len());
                origin.push(source_index);
                defs.push(def);
            }
        }
        Ok(Self { defs, by_name })
    }
}

impl<C> ToolSet<C> {
    /// The tool called `name`.
    pub(crate) fn get(&self, name: &str) -> Option<&ToolDef<C>> {
        self.by_name.get(name).map(|&index| &self.defs[index])
    }

    /// The listing position of the tool called `name`.
    pub(crate) fn index_of(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// All tools in listing order.
    pub(crate) fn all(&self) -> &[ToolDef<C>] {
        &self.defs
    }
}

/// This server runs every call synchronously (it implements no task
/// requests), so a tool declaring `optional` or `required` task support is
/// advertised as `forbidden`: a client must never be told it may create a
/// task the server cannot run.
fn advertise_only_what_runs<C: Send + Sync + 'static>(def: ToolDef<C>) -> ToolDef<C> {
    let declared = def
        .tool()
        .execution
        .as_ref()
        .map(|execution| execution.task_support);
    match declared {
        Some(TaskSupport::Optional | TaskSupport::Required) => {
            tracing::warn!(
                tool = def.name(),
                "the tool declares task support but this server does not run tasks; advertising `forbidden`"
            );
            def.map_tool(|tool| tool.execution = Some(ToolExecution::forbidden()))
        }
        _ => def,
    }
}
