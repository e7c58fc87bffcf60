//! The definitions a schema reaches, walked over numbered definitions:
//! each (definition, mode) is looked up by name once per run, and a schema's
//! walk only compares numbers.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use mcp_core::SharedDef;
use serde_json::Value;

use super::{DefCopier, Mode};

/// The definitions of one mode, numbered in the order of their names (the
/// registry's, then any other name in the order first mentioned).
#[derive(Debug, Default)]
pub(super) struct Graph {
    ids: HashMap<Arc<str>, usize>,
    nodes: Vec<Node>,
    /// The walk that last reached each node.
    seen: Vec<u32>,
    walk: u32,
    /// Each list of definitions given out, by the nodes it holds: schemas
    /// that reach the same definitions share one list.
    lists: HashMap<Box<[usize]>, Arc<[SharedDef]>>,
}

#[derive(Debug)]
struct Node {
    /// Shared by every schema that reaches the definition.
    name: Arc<str>,
    /// The prepared definition and the nodes it references, once known;
    /// `Some(None)` when it cannot be used.
    ready: Option<Option<(Arc<Value>, Vec<usize>)>>,
}

impl Graph {
    /// Numbers every definition of `names` (once per graph).
    fn number<'n>(&mut self, names: impl Iterator<Item = &'n String>) {
        if !self.nodes.is_empty() {
            return;
        }
        let mut names: Vec<&String> = names.collect();
        names.sort_unstable();
        for name in names {
            self.id(name);
        }
    }

    fn id(&mut self, name: &str) -> usize {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.nodes.len();
        let name: Arc<str> = Arc::from(name);
        self.ids.insert(name.clone(), id);
        self.nodes.push(Node { name, ready: None });
        self.seen.push(0);
        id
    }
}

impl DefCopier<'_> {
    /// The definitions reached from the references `roots`, sorted by name;
    /// `None` when one of them cannot be used.
    pub(super) fn reach(&mut self, roots: &BTreeSet<&str>, mode: Mode) -> Option<Arc<[SharedDef]>> {
        let index = mode as usize;
        self.graph[index].number(self.registry.defs.keys());
        let mut pending: Vec<usize> = roots
            .iter()
            .map(|name| self.graph[index].id(name))
            .collect();
        let graph = &mut self.graph[index];
        graph.walk = graph.walk.wrapping_add(1);
        if graph.walk == 0 {
            graph.seen.iter_mut().for_each(|seen| *seen = 0);
            graph.walk = 1;
        }
        let walk = graph.walk;
        let mut reached = Vec::new();
        while let Some(id) = pending.pop() {
            if self.graph[index].seen[id] == walk {
                continue;
            }
            self.graph[index].seen[id] = walk;
            if self.graph[index].nodes[id].ready.is_none() {
                let name = self.graph[index].nodes[id].name.clone();
                let prepared = self.prepared(&name, mode);
                let ready = match &prepared.value {
                    Ok(value) => {
                        let (value, names) = (value.clone(), prepared.refs.clone());
                        let graph = &mut self.graph[index];
                        let refs = names.iter().map(|name| graph.id(name)).collect();
                        Some((value, refs))
                    }
                    Err(_) => None,
                };
                self.graph[index].nodes[id].ready = Some(ready);
            }
            let node = &self.graph[index].nodes[id];
            let (_, refs) = node.ready.as_ref()?.as_ref()?;
            pending.extend(refs);
            reached.push(id);
        }
        let nodes = &self.graph[index].nodes;
        // Numbers follow names, but for names outside the registry.
        let registered = self.registry.defs.len();
        if reached.iter().all(|&id| id < registered) {
            reached.sort_unstable();
        } else {
            reached.sort_unstable_by(|a, b| nodes[*a].name.cmp(&nodes[*b].name));
        }
        let graph = &mut self.graph[index];
        if let Some(list) = graph.lists.get(reached.as_slice()) {
            return Some(list.clone());
        }
        let nodes = &graph.nodes;
        let list: Arc<[SharedDef]> = reached
            .iter()
            .map(|&id| {
                let node = &nodes[id];
                let (value, _) = node.ready.as_ref()?.as_ref()?;
                Some((node.name.clone(), value.clone()))
            })
            .collect::<Option<_>>()?;
        graph.lists.insert(reached.into(), list.clone());
        Some(list)
    }
}
