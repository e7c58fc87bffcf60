//! What a server hosts from its sources at one moment: the sources
//! ([`tool_source`]), and the tool and resource sets made of them
//! ([`tool_set`], [`resource_set`]), with the values other layers keep per
//! catalog ([`attachments`]). A change makes a new catalog.
//!
//! The server state holds the live catalog; discovery and code mode read
//! it, so it knows none of them.

pub(crate) mod attachments;
pub(crate) mod resource_set;
pub(crate) mod tool_set;
pub(crate) mod tool_source;

use std::collections::HashSet;
use std::sync::Arc;

use mcp_core::ToolDef;
use mcp_core::resource::ResourceDef;

use self::attachments::Attachments;
use self::resource_set::ResourceSet;
use self::tool_set::ToolSet;
use self::tool_source::{ResolvedSource, ToolSource};
use crate::error::BuildError;

/// Which lists a change of a server's sources changed, and so which
/// `notifications/*/list_changed` its sessions were sent.
///
/// ```
/// use mcp_server::{ListChanges, Server, ToolSource};
///
/// let ping = || mcp_core::tool("ping").run(|| async { "pong" }).unwrap();
/// let server = Server::builder().source(ToolSource::new("api", [ping()])).build()?;
/// // The same tools again: nothing to tell the clients.
/// assert_eq!(server.replace_source(ToolSource::new("api", [ping()]))?, ListChanges::default());
/// assert!(server.replace_source(ToolSource::new("api", []))?.tools);
/// # Ok::<(), mcp_server::BuildError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ListChanges {
    /// Whether `tools/list` now answers differently.
    pub tools: bool,
    /// Whether `resources/list` or `resources/templates/list` now answers
    /// differently.
    pub resources: bool,
}

impl ListChanges {
    /// Whether any list changed.
    pub fn any(&self) -> bool {
        self.tools || self.resources
    }
}

/// The sources of a server in order, and the tools and resources they make,
/// plus what the serving layers derived from them (see [`Attachments`]).
pub(crate) struct Catalog<C> {
    sources: Vec<ResolvedSource<C>>,
    tools: ToolSet<C>,
    resources: ResourceSet<C>,
    attachments: Attachments,
}

impl<C: Send + Sync + 'static> Catalog<C> {
    /// The catalog of `sources`; clashing names, clashing URIs and invalid
    /// prefixes are errors.
    pub(crate) fn new(sources: Vec<ToolSource<C>>) -> Result<Self, BuildError> {
        let sources = sources
            .into_iter()
            .map(ToolSource::resolve)
            .collect::<Result<Vec<_>, _>>()?;
        Self::of_resolved(sources)
    }

    fn of_resolved(sources: Vec<ResolvedSource<C>>) -> Result<Self, BuildError> {
        let tools = ToolSet::new(&sources)?;
        let resources = ResourceSet::new(
            sources
                .iter()
                .flat_map(|source| source.resources.iter().cloned())
                .collect(),
        )?;
        Ok(Self {
            sources,
            tools,
            resources,
            attachments: Attachments::default(),
        })
    }

    /// This catalog plus `def`, in the source `label` (made last when there
    /// is none).
    pub(crate) fn with_tool(&self, def: ToolDef<C>, label: &str) -> Result<Self, BuildError> {
        let mut sources = self.sources.clone();
        let index = match sources.iter().position(|s| &*s.label == label) {
            Some(index) => index,
            None => {
                sources.push(ResolvedSource::empty(label));
                sources.len() - 1
            }
        };
        sources[index].tools.push(def);
        Self::of_resolved(sources)
    }

    /// This catalog without the tool called `name`, when there is one.
    pub(crate) fn without_tool(&self, name: &str) -> Option<Self> {
        self.tools.get(name)?;
        let mut sources = self.sources.clone();
        for source in &mut sources {
            source.tools.retain(|def| def.name() != name);
        }
        // Removing a tool cannot make a clash.
        Self::of_resolved(sources).ok()
    }

    /// This catalog with each of `replacements` in place of the sources of
    /// its name (keeping their place in the listing order). Every
    /// replacement must name a source of this catalog; the result must have
    /// no clash.
    pub(crate) fn replacing(&self, replacements: Vec<ToolSource<C>>) -> Result<Self, BuildError> {
        for replacement in &replacements {
            if !self.sources.iter().any(|s| *s.label == replacement.label) {
                return Err(BuildError::UnknownSource {
                    name: replacement.label.clone(),
                    known: self.source_names(),
                });
            }
        }
        let mut replacements = replacements
            .into_iter()
            .map(ToolSource::resolve)
            .collect::<Result<Vec<_>, _>>()?;
        let replaced: HashSet<Arc<str>> = replacements.iter().map(|s| s.label.clone()).collect();
        let mut sources = Vec::with_capacity(self.sources.len());
        for source in &self.sources {
            if !replaced.contains(&source.label) {
                sources.push(source.clone());
                continue;
            }
            // The replacements of a name take the place of its first source.
            let (now, later): (Vec<_>, Vec<_>) = replacements
                .into_iter()
                .partition(|replacement| replacement.label == source.label);
            sources.extend(now);
            replacements = later;
        }
        Self::of_resolved(sources)
    }

    /// Which lists differ from those of `before`.
    pub(crate) fn changes_from(&self, before: &Self) -> ListChanges {
        let tools = self.tools.all().len() != before.tools.all().len()
            || self
                .tools
                .all()
                .iter()
                .zip(before.tools.all())
                .any(|(now, then)| now.tool() != then.tool());
        ListChanges {
            tools,
            resources: !same_resources(&self.resources, &before.resources),
        }
    }

    /// The names of the sources, in order, each once.
    fn source_names(&self) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for source in &self.sources {
            if !names.iter().any(|name| **name == *source.label) {
                names.push(source.label.to_string());
            }
        }
        names
    }
}

impl<C: Send + Sync + 'static> Catalog<C> {
    /// The catalog of the tools `keep` keeps (resources are not filtered),
    /// with attachments of its own.
    pub(crate) fn tool_subset(&self, keep: impl Fn(&ToolDef<C>) -> bool) -> Self {
        let sources = self
            .sources
            .iter()
            .map(|source| {
                let mut source = source.clone();
                source.tools.retain(&keep);
                source
            })
            .collect();
        Self {
            sources,
            tools: self.tools.subset(keep),
            resources: self.resources.clone(),
            attachments: Attachments::default(),
        }
    }
}

impl<C> Catalog<C> {
    /// The tools.
    pub(crate) fn tools(&self) -> &ToolSet<C> {
        &self.tools
    }

    /// The resources and resource templates.
    pub(crate) fn resources(&self) -> &ResourceSet<C> {
        &self.resources
    }

    /// What the sources say of toolsets, name then description, in source
    /// order (the first description of a toolset is the one that counts).
    pub(crate) fn toolset_descriptions(&self) -> impl Iterator<Item = (&str, &str)> {
        self.sources
            .iter()
            .flat_map(|source| &source.toolset_descriptions)
            .map(|(name, description)| (name.as_str(), description.as_str()))
    }

    /// Values derived from this catalog, made once per catalog.
    pub(crate) fn attachments(&self) -> &Attachments {
        &self.attachments
    }
}

/// Whether both sets list the same resources and templates.
fn same_resources<C: 'static>(now: &ResourceSet<C>, then: &ResourceSet<C>) -> bool {
    fn same<C: 'static>(now: &[ResourceDef<C>], then: &[ResourceDef<C>]) -> bool {
        now.len() == then.len()
            && now.iter().zip(then).all(|(now, then)| {
                now.resource() == then.resource() && now.template() == then.template()
            })
    }
    same(now.fixed(), then.fixed()) && same(now.templates(), then.templates())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ping(name: &str) -> ToolDef {
        mcp_core::tool(name).run(|| async { "pong" }).unwrap()
    }

    fn names(catalog: &Catalog<()>) -> Vec<&str> {
        catalog.tools().all().iter().map(ToolDef::name).collect()
    }

    fn catalog() -> Catalog<()> {
        Catalog::new(vec![
            ToolSource::new("a", [ping("a1"), ping("a2")]),
            ToolSource::new("b", []),
            ToolSource::new("c", [ping("c1")]).prefix("c_"),
        ])
        .unwrap()
    }

    #[test]
    fn a_replacement_keeps_the_place_of_its_source() {
        let before = catalog();
        assert_eq!(names(&before), ["a1", "a2", "c_c1"]);
        let after = before
            .replacing(vec![ToolSource::new("b", [ping("b1")])])
            .unwrap();
        assert_eq!(names(&after), ["a1", "a2", "b1", "c_c1"]);
        let after = after
            .replacing(vec![
                ToolSource::new("a", [ping("a3")]),
                ToolSource::new("c", [ping("c2")]),
            ])
            .unwrap();
        assert_eq!(names(&after), ["a3", "b1", "c2"]);
    }

    #[test]
    fn a_tool_may_move_between_sources_replaced_together() {
        let after = catalog()
            .replacing(vec![
                ToolSource::new("a", [ping("a1")]),
                ToolSource::new("b", [ping("a2")]),
            ])
            .unwrap();
        assert_eq!(names(&after), ["a1", "a2", "c_c1"]);
        let error = catalog()
            .replacing(vec![ToolSource::new("b", [ping("a2")])])
            .err()
            .unwrap();
        assert_eq!(
            error.to_string(),
            "duplicate tool `a2`: defined by a and by b (rename one, or give one source a prefix)"
        );
    }

    #[test]
    fn only_known_sources_can_be_replaced() {
        let error = catalog()
            .replacing(vec![ToolSource::new("d", [ping("d1")])])
            .err()
            .unwrap();
        assert_eq!(
            error.to_string(),
            "no tool source is named `d` (the sources are `a`, `b`, `c`)"
        );
    }

    #[test]
    fn changes_compare_what_clients_see() {
        let before = catalog();
        let same = before
            .replacing(vec![ToolSource::new("a", [ping("a1"), ping("a2")])])
            .unwrap();
        assert_eq!(same.changes_from(&before), ListChanges::default());
        let renamed = before
            .replacing(vec![ToolSource::new("a", [ping("a1"), ping("a9")])])
            .unwrap();
        assert!(renamed.changes_from(&before).tools);
        let readme = mcp_core::resource::resource("docs://readme", "readme")
            .read(|| async { "Hi." })
            .unwrap();
        let with_resource = before
            .replacing(vec![ToolSource::new("b", []).resources([readme])])
            .unwrap();
        assert_eq!(
            with_resource.changes_from(&before),
            ListChanges {
                tools: false,
                resources: true
            }
        );
    }

    #[test]
    fn runtime_tools_join_their_source_and_leave_it() {
        let before = catalog();
        let added = before.with_tool(ping("r1"), "runtime").unwrap();
        let added = added.with_tool(ping("a0"), "a").unwrap();
        assert_eq!(names(&added), ["a1", "a2", "a0", "c_c1", "r1"]);
        assert!(added.with_tool(ping("r1"), "runtime").is_err());
        let removed = added.without_tool("a1").unwrap();
        assert_eq!(names(&removed), ["a2", "a0", "c_c1", "r1"]);
        assert!(removed.without_tool("a1").is_none());
    }
}
