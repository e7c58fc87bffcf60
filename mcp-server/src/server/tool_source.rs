//! Named groups of tools, so clashes can be reported and prefixed.

use mcp_core::ToolDef;

/// A named group of tools (hand-written ones, or those generated from one
/// OpenAPI document), optionally renamed with a prefix.
///
/// Tool names must be unique across a server. When two sources define the
/// same name, [`build`](crate::ServerBuilder::build) fails naming both
/// sources; a [`prefix`](Self::prefix) (for example `github_`) resolves it by
/// renaming every tool of one source.
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
#[derive(Debug)]
pub struct ToolSource<C = ()> {
    pub(crate) label: String,
    pub(crate) prefix: Option<String>,
    pub(crate) tools: Vec<ToolDef<C>>,
}

impl<C> ToolSource<C> {
    /// A source called `label` (used in error messages) holding `tools`.
    pub fn new(label: impl Into<String>, tools: impl IntoIterator<Item = ToolDef<C>>) -> Self {
        Self {
            label: label.into(),
            prefix: None,
            tools: tools.into_iter().collect(),
        }
    }

    /// Prefixes every tool name of this source with `prefix`.
    pub fn prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = Some(prefix.into());
        self
    }
}
