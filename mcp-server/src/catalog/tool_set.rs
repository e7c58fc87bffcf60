//! The tools a server hosts, by name, in listing order.

use std::collections::HashMap;
use std::sync::Arc;

use mcp_core::{TaskSupport, ToolDef};

use super::tool_source::ResolvedSource;
use crate::error::BuildError;

/// The hosted tools: listing order, an index by name, and where each came
/// from (for clash messages).
pub(crate) struct ToolSet<C> {
    defs: Vec<ToolDef<C>>,
    /// The task support each tool declared (as its `execution` says).
    declared: Vec<TaskSupport>,
    labels: Vec<Arc<str>>,
    by_name: HashMap<String, usize>,
}

impl<C: Send + Sync + 'static> ToolSet<C> {
    /// Collects the sources' tools in order, rejecting clashes.
    pub(crate) fn new(sources: &[ResolvedSource<C>]) -> Result<Self, BuildError> {
        let mut set = Self {
            defs: Vec::new(),
            declared: Vec::new(),
            labels: Vec::new(),
            by_name: HashMap::new(),
        };
        for source in sources {
            for def in &source.tools {
                set.push(def.clone(), source.label.clone())?;
            }
        }
        Ok(set)
    }

    fn push(&mut self, def: ToolDef<C>, label: Arc<str>) -> Result<(), BuildError> {
        let declared = def
            .tool()
            .execution
            .map(|execution| execution.task_support)
            .unwrap_or_default();
        if let Some(&first) = self.by_name.get(def.name()) {
            return Err(BuildError::DuplicateTool {
                name: def.name().to_owned(),
                first: self.labels[first].to_string(),
                second: label.to_string(),
            });
        }
        self.by_name.insert(def.name().to_owned(), self.defs.len());
        self.defs.push(def);
        self.declared.push(declared);
        self.labels.push(label);
        Ok(())
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

    /// The task support the tool at `index` declared.
    pub(crate) fn declared_task_support(&self, index: usize) -> TaskSupport {
        self.declared.get(index).copied().unwrap_or_default()
    }

    /// Whether any tool may run as a task.
    pub(crate) fn has_task_tools(&self) -> bool {
        self.declared
            .iter()
            .any(|support| *support != TaskSupport::Forbidden)
    }

    /// All tools in listing order.
    pub(crate) fn all(&self) -> &[ToolDef<C>] {
        &self.defs
    }

    /// The tools `keep` keeps, in the same order (a subset cannot clash).
    pub(crate) fn subset(&self, keep: impl Fn(&ToolDef<C>) -> bool) -> Self
    where
        C: Send + Sync + 'static,
    {
        let mut subset = Self {
            defs: Vec::new(),
            declared: Vec::new(),
            labels: Vec::new(),
            by_name: HashMap::new(),
        };
        for (index, def) in self.defs.iter().enumerate().filter(|(_, def)| keep(def)) {
            subset
                .by_name
                .insert(def.name().to_owned(), subset.defs.len());
            subset.defs.push(def.clone());
            subset.declared.push(self.declared[index]);
            subset.labels.push(self.labels[index].clone());
        }
        subset
    }
}
