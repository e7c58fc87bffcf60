//! Named groups of tools (and the resources that come with them), so clashes
//! can be reported and prefixed, and a group can be replaced while serving.

use std::fmt;
use std::sync::Arc;

use mcp_core::ToolDef;
use mcp_core::resource::ResourceDef;

use crate::error::BuildError;

/// A named group of tools (hand-written ones, or those generated from one
/// OpenAPI document), optionally renamed with a prefix, plus the resources
/// that come from the same place.
///
/// Tool names must be unique across a server. When two sources define the
/// same name, [`build`](crate::ServerBuilder::build) fails naming both
/// sources; a [`prefix`](Self::prefix) (for example `github_`) resolves it by
/// renaming every tool of one source.
///
/// The name also identifies the source while the server runs:
/// [`Server::replace_source`](crate::Server::replace_source) swaps in a new
/// version of the source with the same name.
///
/// ```
/// use mcp_server::{Server, ToolSource};
///
/// let ping = || mcp_core::tool("ping").run(|| async { "pong" }).unwrap();
/// let server = Server::builder()
///     .tool(ping())
///     .source(ToolSource::new("the mirror", [ping()]).prefix("mirror_"))
///     .build()
///     .unwrap();
/// assert!(server.tool("mirror_ping").is_some());
///
/// let clash = Server::builder().tool(ping()).source(ToolSource::new("the mirror", [ping()])).build();
/// assert_eq!(
///     clash.unwrap_err().to_string(),
///     "duplicate tool `ping`: defined by hand-written tools and by the mirror (rename one, or give one source a prefix)"
/// );
/// ```
pub struct ToolSource<C = ()> {
    pub(crate) label: String,
    pub(crate) prefix: Option<String>,
    pub(crate) tools: Vec<ToolDef<C>>,
    pub(crate) resources: Vec<ResourceDef<C>>,
    pub(crate) toolset_descriptions: Vec<(String, String)>,
}

impl<C> ToolSource<C> {
    /// A source called `label` (used in error messages, and to replace it
    /// at runtime) holding `tools`.
    pub fn new(label: impl Into<String>, tools: impl IntoIterator<Item = ToolDef<C>>) -> Self {
        Self {
            label: label.into(),
            prefix: None,
            tools: tools.into_iter().collect(),
            resources: Vec::new(),
            toolset_descriptions: Vec::new(),
        }
    }

    /// Prefixes every tool name of this source with `prefix`.
    pub fn prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = Some(prefix.into());
        self
    }

    /// Adds resources and resource templates that come from the same place
    /// as the tools (for example those a route map makes of an OpenAPI
    /// document's operations); they are replaced together with the tools.
    /// Their URIs are not prefixed.
    ///
    /// ```
    /// use mcp_server::{Server, ToolSource};
    ///
    /// let readme = mcp_core::resource::resource("docs://readme", "readme").read(|| async { "Hi." })?;
    /// let server = Server::builder().source(ToolSource::new("docs", []).resources([readme])).build()?;
    /// assert_eq!(server.resources()[0].uri(), "docs://readme");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resources(mut self, defs: impl IntoIterator<Item = ResourceDef<C>>) -> Self {
        self.resources.extend(defs);
        self
    }

    /// Says what the toolset `name` (see
    /// [`ToolBuilder::toolset`](mcp_core::ToolBuilder::toolset)) is about:
    /// discovery's and code mode's category listings show it. When several
    /// sources describe the same toolset, the first description counts.
    ///
    /// ```
    /// use mcp_server::{Server, ToolSource};
    ///
    /// let star = mcp_core::tool("star").toolset("activity").run(|| async { "" })?;
    /// let source = ToolSource::new("github", [star])
    ///     .describe_toolset("activity", "Stars, watching and notifications.");
    /// Server::builder().source(source).build()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn describe_toolset(
        mut self,
        name: impl Into<String>,
        description: impl Into<String>,
    ) -> Self {
        self.toolset_descriptions
            .push((name.into(), description.into()));
        self
    }

    /// Describes the toolsets of an OpenAPI document's tags (see
    /// [`OpenApi::tags`](mcp_openapi::OpenApi::tags)): each tag with a
    /// description (else a summary) describes its toolset. A source made
    /// with [`OpenApiSource`](crate::OpenApiSource) already has them.
    ///
    /// ```
    /// use mcp_openapi::OpenApi;
    /// use mcp_server::ToolSource;
    ///
    /// let api = OpenApi::from_path(testdata::openapi("tags-example-3.2.yaml"))?;
    /// let source = ToolSource::<()>::new("flights", []).describe_tags(&api.tags());
    /// assert!(format!("{source:?}").contains("Core flight operations"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "openapi")]
    #[cfg_attr(docsrs, doc(cfg(feature = "openapi")))]
    pub fn describe_tags(self, tags: &[mcp_openapi::Tag]) -> Self {
        tags.iter().fold(self, |source, tag| match tag.about() {
            Some(about) => source.describe_toolset(&tag.name, about),
            None => source,
        })
    }

    /// OAuth scopes a call of any of this source's tools needs (see
    /// [`ToolDef::require_scopes`](mcp_core::ToolDef::require_scopes)).
    pub fn scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self
    where
        C: Send + Sync + 'static,
    {
        let scopes: Vec<String> = scopes.into_iter().map(Into::into).collect();
        self.tools = self
            .tools
            .into_iter()
            .map(|def| def.require_scopes(scopes.iter().cloned()))
            .collect();
        self
    }

    /// The source's name, as given to [`new`](Self::new).
    pub fn name(&self) -> &str {
        &self.label
    }
}

impl<C: Send + Sync + 'static> ToolSource<C> {
    /// The source with its prefix applied to every tool name.
    pub(crate) fn resolve(self) -> Result<ResolvedSource<C>, BuildError> {
        let tools = match &self.prefix {
            None => self.tools,
            Some(prefix) => self
                .tools
                .into_iter()
                .map(|def| {
                    let name = format!("{prefix}{}", def.name());
                    let tool = def.name().to_owned();
                    def.rename(name).map_err(|error| BuildError::InvalidPrefix {
                        source_label: self.label.clone(),
                        prefix: prefix.clone(),
                        tool,
                        reason: error.to_string(),
                    })
                })
                .collect::<Result<_, _>>()?,
        };
        Ok(ResolvedSource {
            label: Arc::from(self.label),
            tools,
            resources: self.resources,
            toolset_descriptions: self.toolset_descriptions,
        })
    }
}

impl<C> fmt::Debug for ToolSource<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolSource")
            .field("label", &self.label)
            .field("prefix", &self.prefix)
            .field("tools", &self.tools.len())
            .field("resources", &self.resources.len())
            .field("toolset_descriptions", &self.toolset_descriptions)
            .finish()
    }
}

/// A source as a server holds it: its tools carry their final names.
pub(crate) struct ResolvedSource<C> {
    pub(crate) label: Arc<str>,
    pub(crate) tools: Vec<ToolDef<C>>,
    pub(crate) resources: Vec<ResourceDef<C>>,
    /// What the source says of toolsets: name, then description.
    pub(crate) toolset_descriptions: Vec<(String, String)>,
}

impl<C> ResolvedSource<C> {
    /// An empty source called `label`.
    pub(crate) fn empty(label: &str) -> Self {
        Self {
            label: Arc::from(label),
            tools: Vec::new(),
            resources: Vec::new(),
            toolset_descriptions: Vec::new(),
        }
    }
}

impl<C> Clone for ResolvedSource<C> {
    fn clone(&self) -> Self {
        Self {
            label: self.label.clone(),
            tools: self.tools.clone(),
            resources: self.resources.clone(),
            toolset_descriptions: self.toolset_descriptions.clone(),
        }
    }
}
