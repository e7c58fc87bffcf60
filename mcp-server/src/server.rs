//! The server: what it hosts (tools, resources, prompts), its middleware
//! and identity, shared by every session and transport.

pub(crate) mod builder;
pub(crate) mod live_catalog;
pub(crate) mod notifications;
#[cfg(feature = "openapi")]
pub(crate) mod openapi_source;
pub(crate) mod pagination;
pub(crate) mod prompt_set;
pub(crate) mod session;
pub(crate) mod state;
pub(crate) mod view;

use std::fmt;
use std::sync::Arc;

use mcp_core::{Tool, ToolDef, prompt::PromptDef, resource::ResourceDef};
use serde_json::{Value, json};

use self::state::ServerState;
use crate::catalog::ListChanges;
use crate::catalog::tool_source::ToolSource;
use crate::discovery::Discovery;
use crate::discovery::view::DiscoveryView;
use crate::error::{AddPromptError, BuildError};

/// An MCP server hosting [`ToolDef`]s from any source (the `#[tool]` macro,
/// the builder, OpenAPI generation) behind one middleware onion.
///
/// Build one with [`Server::builder`], then serve it with
/// [`serve_stdio`](Self::serve_stdio), [`serve_http`](Self::serve_http),
/// [`serve_io`](Self::serve_io), or mount [`router`](Self::router) in an
/// axum app. Cloning is cheap: clones share the tools.
///
/// ```
/// use mcp_server::Server;
///
/// let server = Server::builder()
///     .name("greeter")
///     .version("1.0.0")
///     .instructions("Use `greet` to greet someone.")
///     .tool(mcp_core::tool("greet").description("Greets.").run(|| async { "hello" })?)
///     .build()?;
/// assert_eq!(server.tools().iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["greet"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Server<C = ()> {
    state: Arc<ServerState<C>>,
}

impl<C: Send + Sync + 'static> Server<C> {
    pub(crate) fn new(state: ServerState<C>) -> Self {
        Self {
            state: Arc::new(state),
        }
    }

    /// The state the serving layers read.
    pub(crate) fn state(&self) -> &Arc<ServerState<C>> {
        &self.state
    }

    /// The name sent as `serverInfo.name`.
    pub fn name(&self) -> &str {
        &self.state.identity().name
    }

    /// The version sent as `serverInfo.version`.
    pub fn version(&self) -> &str {
        &self.state.identity().version
    }

    /// The hosted tools' protocol values, in listing order.
    pub fn tools(&self) -> Vec<Tool> {
        self.state
            .catalog()
            .tools()
            .all()
            .iter()
            .map(|def| def.tool().clone())
            .collect()
    }

    /// The tools `tools/list` shows, in order: every hosted tool, or in
    /// discovery mode (see [`ServerBuilder::discovery`](crate::ServerBuilder::discovery))
    /// `search_tools`, `call_tool` and the pinned tools, or in code mode
    /// `search_tools`, `execute` and the pinned tools; only the tools of
    /// the server's toolsets (and only read-only ones when it serves those,
    /// see [`ServerBuilder::toolsets`](crate::ServerBuilder::toolsets)).
    pub fn listed_tools(&self) -> Vec<Tool> {
        let catalog = self.state.catalog_in(self.state.view());
        #[cfg(feature = "code-mode")]
        if let Some(code_mode) = self.state.code_mode() {
            return match code_mode.view(&catalog) {
                Ok(view) => view.listed().to_vec(),
                Err(reason) => {
                    tracing::error!("code mode: {reason}");
                    Vec::new()
                }
            };
        }
        let Some(discovery) = self.state.discovery() else {
            return catalog
                .tools()
                .all()
                .iter()
                .map(|def| def.tool().clone())
                .collect();
        };
        match DiscoveryView::of(&catalog, discovery) {
            Ok(view) => view.listed().to_vec(),
            Err(reason) => {
                tracing::error!("discovery mode: {reason}");
                Vec::new()
            }
        }
    }

    /// The names of the hosted tools that best serve `query`, best first,
    /// at most `limit`: the ranking of discovery mode's `search_tools`
    /// (available with or without discovery mode).
    ///
    /// ```
    /// use mcp_server::Server;
    ///
    /// let tool = |name: &str, description: &str| {
    ///     mcp_core::tool(name).description(description).run(|| async { "" }).unwrap()
    /// };
    /// let server = Server::builder()
    ///     .tool(tool("list_stargazers", "Lists the people that have starred the repository."))
    ///     .tool(tool("create_issue", "Opens an issue."))
    ///     .build()?;
    /// assert_eq!(server.search("who starred my repo?", 1), ["list_stargazers"]);
    /// # Ok::<(), mcp_server::BuildError>(())
    /// ```
    pub fn search(&self, query: &str, limit: usize) -> Vec<String> {
        let default = Discovery::search();
        let discovery = self.state.discovery().unwrap_or(&default);
        match DiscoveryView::of(&self.state.catalog(), discovery) {
            Ok(view) => view.search(query, limit),
            Err(reason) => {
                tracing::error!("discovery mode: {reason}");
                Vec::new()
            }
        }
    }

    /// The hosted tool called `name`; in discovery mode `search_tools` too
    /// (`call_tool` has no handler of its own: the server runs the tool it
    /// names); in code mode `search_tools` and `execute` (whose calls run
    /// inside the server's middleware, without a session).
    pub fn tool(&self, name: &str) -> Option<ToolDef<C>> {
        let catalog = self.state.catalog();
        #[cfg(feature = "code-mode")]
        if let Some(code_mode) = self.state.code_mode()
            && (name == crate::SEARCH_TOOLS || name == crate::EXECUTE)
        {
            let view = code_mode.view(&catalog).ok()?;
            if name == crate::SEARCH_TOOLS {
                return Some(view.search_tool().clone());
            }
            return code_mode
                .execute_def(view, self.state.layers().clone(), None)
                .ok();
        }
        if let (Some(discovery), crate::SEARCH_TOOLS) = (self.state.discovery(), name) {
            return DiscoveryView::of(&catalog, discovery)
                .ok()
                .map(|view| view.search_tool().clone());
        }
        catalog.tools().get(name).cloned()
    }

    /// Adds a tool while the server runs, then sends
    /// `notifications/tools/list_changed` to every session that can receive
    /// it (2025-11-25 sessions, and 2026-07-28 clients listening through
    /// `subscriptions/listen`; stateless HTTP has no one to tell). A name
    /// already hosted is an error.
    pub fn add_tool(&self, def: impl Into<ToolDef<C>>) -> Result<(), BuildError> {
        self.state.add_tool(def.into(), "tools added at runtime")
    }

    /// Removes the tool called `name` while the server runs and tells the
    /// sessions as [`add_tool`](Self::add_tool) does; returns whether there
    /// was such a tool.
    pub fn remove_tool(&self, name: &str) -> bool {
        self.state.remove_tool(name)
    }

    /// Replaces, while the server runs, the source named like `source` (see
    /// [`ToolSource::new`]): its tools and resources give way to those of
    /// `source`, which takes its place in the listing order. Shorthand for
    /// [`replace_sources`](Self::replace_sources) with one source.
    ///
    /// ```
    /// use mcp_server::{Server, ToolSource};
    ///
    /// let ping = |name: &str| mcp_core::tool(name).run(|| async { "pong" }).unwrap();
    /// let server = Server::builder()
    ///     .tool(ping("local"))
    ///     .source(ToolSource::new("github", [ping("issues")]).prefix("gh_"))
    ///     .build()?;
    /// let changes = server.replace_source(ToolSource::new("github", [ping("issues"), ping("pulls")]).prefix("gh_"))?;
    /// assert!(changes.tools && !changes.resources);
    /// let names: Vec<_> = server.tools().into_iter().map(|tool| tool.name).collect();
    /// assert_eq!(names, ["local", "gh_issues", "gh_pulls"]);
    ///
    /// // A clash with another source changes nothing.
    /// let clash = server.replace_source(ToolSource::new("github", [ping("local")]));
    /// assert!(clash.unwrap_err().to_string().starts_with("duplicate tool `local`"));
    /// assert_eq!(server.tools().len(), 3);
    /// # Ok::<(), mcp_server::BuildError>(())
    /// ```
    pub fn replace_source(&self, source: ToolSource<C>) -> Result<ListChanges, BuildError> {
        self.replace_sources([source])
    }

    /// Replaces several sources in one atomic swap: each of `sources` takes
    /// the place of the sources of its name (a tool may so move from one
    /// source to another). The builder's hand-written tools and resources
    /// form the source named `hand-written tools`; tools added with
    /// [`add_tool`](Self::add_tool), `tools added at runtime`.
    ///
    /// A request sees the tools and resources before the swap or after it,
    /// never a mix, and calls already running finish with the tool they
    /// started with. Every session that can receive them gets one
    /// `notifications/tools/list_changed` when the tool list changed and one
    /// `notifications/resources/list_changed` when the resource list did;
    /// the result says which.
    ///
    /// A name that is no source of this server, a tool name or resource URI
    /// that clashes with another source, or a prefix that makes a name
    /// invalid is an error, and the server keeps what it had.
    ///
    /// A session learns the server's capabilities when it starts: one that
    /// started while the server had no resources was told of none, and may
    /// not look for the resources a replacement brings.
    pub fn replace_sources(
        &self,
        sources: impl IntoIterator<Item = ToolSource<C>>,
    ) -> Result<ListChanges, BuildError> {
        self.state.replace_sources(sources.into_iter().collect())
    }

    /// The hosted resources and resource templates: fixed resources first,
    /// then templates, each in the order of their sources.
    pub fn resources(&self) -> Vec<ResourceDef<C>> {
        let catalog = self.state.catalog();
        let resources = catalog.resources();
        resources
            .fixed()
            .iter()
            .chain(resources.templates())
            .cloned()
            .collect()
    }

    /// Tells the clients subscribed to `uri` (`resources/subscribe`) that it
    /// changed (`notifications/resources/updated`).
    pub fn resource_updated(&self, uri: &str) {
        self.state.resource_updated(uri);
    }

    /// The names of the hosted prompts, in order.
    pub fn prompt_names(&self) -> Vec<String> {
        self.state
            .prompts()
            .all()
            .iter()
            .map(|def| def.name().to_owned())
            .collect()
    }

    /// Adds a prompt at runtime; every connected client gets
    /// `notifications/prompts/list_changed`.
    pub fn add_prompt(&self, def: PromptDef<C>) -> Result<(), AddPromptError> {
        self.state.add_prompt(def)
    }

    /// Removes the prompt `name` at runtime, notifying clients; whether it
    /// existed.
    pub fn remove_prompt(&self, name: &str) -> bool {
        self.state.remove_prompt(name)
    }

    /// The number of tools per `tools/list` page.
    pub fn page_size(&self) -> usize {
        self.state.page_size()
    }

    /// The listed tools (see [`listed_tools`](Self::listed_tools)) as one
    /// `tools/list` result for a 2025-11-25 client (`{"tools": [...]}`,
    /// unpaginated), as `mcp-server tools` prints it.
    pub fn tools_json(&self) -> Value {
        let tools: Vec<Value> = self
            .listed_tools()
            .iter()
            .map(|tool| serde_json::to_value(tool).unwrap_or(Value::Null))
            .collect();
        json!({ "tools": tools })
    }
}

impl<C> Clone for Server<C> {
    fn clone(&self) -> Self {
        Self {
            state: self.state.clone(),
        }
    }
}

impl<C> fmt::Debug for Server<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Server")
            .field("name", &self.state.identity().name)
            .field("version", &self.state.identity().version)
            .field("tools", &self.state.catalog().tools().all().len())
            .field("middleware_layers", &self.state.layers().len())
            .finish_non_exhaustive()
    }
}
