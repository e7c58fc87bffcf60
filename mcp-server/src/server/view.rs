//! Which of the hosted tools a client is served: a selection of toolsets,
//! and the read-only view. The server has one (all tools unless its builder
//! says otherwise); an HTTP client may narrow it for its session.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, PoisonError};

use mcp_core::ToolDef;

use crate::catalog::Catalog;

/// The most views of one catalog kept made; past it they are made anew.
const KEPT_VIEWS: usize = 64;

/// A selection of the hosted tools: the tools of some toolsets (all tools
/// when `toolsets` is `None`), and only the read-only ones when
/// `read_only`. A tool that names no toolset is in every selection; a
/// read-only tool is one whose annotations say `readOnlyHint: true`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct ToolView {
    /// Lowercase toolset names.
    toolsets: Option<BTreeSet<String>>,
    read_only: bool,
}

impl ToolView {
    /// The tools of `toolsets` (all when `None`), only the read-only ones
    /// when `read_only`.
    pub(crate) fn new<S: AsRef<str>>(
        toolsets: Option<impl IntoIterator<Item = S>>,
        read_only: bool,
    ) -> Self {
        Self {
            toolsets: toolsets.map(|names| {
                names
                    .into_iter()
                    .map(|name| name.as_ref().to_lowercase())
                    .collect()
            }),
            read_only,
        }
    }

    /// Whether every tool is in the view.
    pub(crate) fn is_everything(&self) -> bool {
        self.toolsets.is_none() && !self.read_only
    }

    /// Whether `def` is in the view.
    pub(crate) fn admits<C: Send + Sync + 'static>(&self, def: &ToolDef<C>) -> bool {
        if self.read_only
            && def
                .tool()
                .annotations
                .as_ref()
                .and_then(|annotations| annotations.read_only_hint)
                != Some(true)
        {
            return false;
        }
        match &self.toolsets {
            None => true,
            Some(selected) => {
                def.toolsets().is_empty()
                    || def
                        .toolsets()
                        .iter()
                        .any(|name| selected.contains(&name.to_lowercase()))
            }
        }
    }

    /// This view narrowed to `toolsets` (within its own) and to read-only
    /// tools when `read_only`.
    pub(crate) fn narrowed<S: AsRef<str>>(
        &self,
        toolsets: Option<impl IntoIterator<Item = S>>,
        read_only: bool,
    ) -> Self {
        let asked = Self::new(toolsets, read_only);
        let toolsets = match (&self.toolsets, asked.toolsets) {
            (None, asked) => asked,
            (Some(allowed), None) => Some(allowed.clone()),
            (Some(allowed), Some(asked)) => Some(allowed.intersection(&asked).cloned().collect()),
        };
        Self {
            toolsets,
            read_only: self.read_only || read_only,
        }
    }
}

/// The toolsets of `catalog`'s tools, each once (as first spelled), sorted.
pub(crate) fn toolsets_of<C: Send + Sync + 'static>(catalog: &Catalog<C>) -> Vec<String> {
    let mut seen = BTreeSet::new();
    let mut names = Vec::new();
    for def in catalog.tools().all() {
        for name in def.toolsets() {
            if seen.insert(name.to_lowercase()) {
                names.push(name.clone());
            }
        }
    }
    names.sort_by_key(|name| name.to_lowercase());
    names
}

/// The views made of one catalog.
struct Views<C>(Mutex<HashMap<ToolView, Arc<Catalog<C>>>>);

/// The tools of `catalog` in `view`, as a catalog of their own (so every
/// listing, search and call sees only them); made once per view and kept
/// with `catalog`.
pub(crate) fn catalog_in<C: Send + Sync + 'static>(
    catalog: Arc<Catalog<C>>,
    view: &ToolView,
) -> Arc<Catalog<C>> {
    if view.is_everything() {
        return catalog;
    }
    let views = catalog
        .attachments()
        .get_or_insert_with(|| Views::<C>(Mutex::new(HashMap::new())));
    let mut made = views.0.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(viewed) = made.get(view) {
        return viewed.clone();
    }
    let viewed = Arc::new(catalog.tool_subset(|def| view.admits(def)));
    if made.len() >= KEPT_VIEWS {
        made.clear();
    }
    made.insert(view.clone(), viewed.clone());
    viewed
}

#[cfg(test)]
mod tests {
    use mcp_core::{Hint, tool};

    use super::*;

    fn def(name: &str, toolsets: &[&str], read: bool) -> ToolDef {
        let builder = tool(name).annotations(if read { [Hint::Read] } else { [Hint::Write] });
        toolsets
            .iter()
            .fold(builder, |builder, toolset| builder.toolset(*toolset))
            .run(|| async { "" })
            .unwrap()
    }

    #[test]
    fn views_select_toolsets_and_read_only_tools() {
        let list = def("list", &["Issues"], true);
        let close = def("close", &["issues"], false);
        let star = def("star", &["activity"], false);
        let whoami = def("whoami", &[], true);
        let issues = ToolView::new(Some(["issues"]), false);
        assert!(issues.admits(&list) && issues.admits(&close) && issues.admits(&whoami));
        assert!(!issues.admits(&star));
        let read = ToolView::new(None::<[&str; 0]>, true);
        assert!(read.admits(&list) && read.admits(&whoami));
        assert!(!read.admits(&close) && !read.admits(&star));
        assert!(ToolView::default().is_everything());
    }

    #[test]
    fn a_client_narrows_within_the_servers_view() {
        let server = ToolView::new(Some(["issues", "pulls"]), false);
        let client = server.narrowed(Some(["pulls", "activity"]), true);
        assert_eq!(client, ToolView::new(Some(["pulls"]), true));
        assert_eq!(server.narrowed(None::<[&str; 0]>, false), server);
        let everything = ToolView::default().narrowed(Some(["Activity"]), false);
        assert_eq!(everything, ToolView::new(Some(["activity"]), false));
    }
}
