//! The server: hosted tools, middleware and identity, shared by every
//! session and transport.

pub(crate) mod builder;
pub(crate) mod live_tools;
pub(crate) mod pagination;
pub(crate) mod prompt_set;
pub(crate) mod resource_set;
pub(crate) mod session;
pub(crate) mod tool_set;
pub(crate) mod tool_source;

use std::fmt;
use std::sync::Arc;

use mcp_core::middleware::Layer;
use mcp_core::{Tool, ToolDef};

use crate::BuildError;
use serde_json::{Value, json};

use crate::server::live_tools::Live;
use crate::server::prompt_set::SurfaceEvent;
use crate::server::resource_set::ResourceSet;
use crate::{ServerBuilder, Session};

/// Makes a session's context.
pub(crate) type ContextFn<C> = Arc<dyn Fn(&Session) -> Arc<C> + Send + Sync>;

/// Who the server says it is.
#[derive(Clone, Debug)]
pub(crate) struct Identity {
    pub(crate) name: String,
    pub(crate) version: String,
    pub(crate) title: Option<String>,
    pub(crate) instructions: Option<String>,
}

pub(crate) struct Inner<C> {
    pub(crate) identity: Identity,
    pub(crate) tools: Live<C>,
    /// Calls running as tasks (2026-07-28 clients with the tasks extension).
    pub(crate) tasks: crate::protocol::Tasks,
    pub(crate) resources: ResourceSet<C>,
    /// issue 7: prompts and the live sessions to notify.
    pub(crate) surface: crate::server::prompt_set::Surface<C>,
    pub(crate) layers: Arc<[Layer<C>]>,
    pub(crate) context: ContextFn<C>,
    pub(crate) page_size: usize,
}

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
    pub(crate) inner: Arc<Inner<C>>,
}

impl Server {
    /// A builder of a server without a per-session context, with no tools,
    /// named after this crate until [`name`](ServerBuilder::name) is called.
    /// For a typed per-session context use [`ServerBuilder::new`] and
    /// [`ServerBuilder::context`].
    pub fn builder() -> ServerBuilder {
        ServerBuilder::new()
    }
}

impl<C: Send + Sync + 'static> Server<C> {
    pub(crate) fn from_inner(inner: Inner<C>) -> Self {
        Self {
            inner: Arc::new(inner),
        }
    }

    /// The name sent as `serverInfo.name`.
    pub fn name(&self) -> &str {
        &self.inner.identity.name
    }

    /// The version sent as `serverInfo.version`.
    pub fn version(&self) -> &str {
        &self.inner.identity.version
    }

    /// The hosted tools' protocol values, in listing order.
    pub fn tools(&self) -> Vec<Tool> {
        self.inner
            .tools
            .current()
            .set
            .all()
            .iter()
            .map(|def| def.tool().clone())
            .collect()
    }

    /// The hosted tool called `name`.
    pub fn tool(&self, name: &str) -> Option<ToolDef<C>> {
        self.inner.tools.current().set.get(name).cloned()
    }

    /// Adds a tool while the server runs, then sends
    /// `notifications/tools/list_changed` to every session that can receive
    /// it (2025-11-25 sessions, and 2026-07-28 clients listening through
    /// `subscriptions/listen`; stateless HTTP has no one to tell). A name
    /// already hosted is an error.
    pub fn add_tool(&self, def: ToolDef<C>) -> Result<(), BuildError> {
        self.inner
            .tools
            .update(|set| set.with(def, "tools added at runtime").map(Some))?;
        self.inner.surface.broadcast(&SurfaceEvent::ToolsChanged);
        Ok(())
    }

    /// Removes the tool called `name` while the server runs and tells the
    /// sessions as [`add_tool`](Self::add_tool) does; returns whether there
    /// was such a tool.
    pub fn remove_tool(&self, name: &str) -> bool {
        let removed = self
            .inner
            .tools
            .update(|set| Ok::<_, std::convert::Infallible>(set.without(name)))
            .unwrap_or_else(|never| match never {});
        if removed {
            self.inner.surface.broadcast(&SurfaceEvent::ToolsChanged);
        }
        removed
    }

    /// The hosted resources and resource templates: fixed resources first,
    /// then templates, each in the order they were added.
    pub fn resources(&self) -> impl Iterator<Item = &mcp_core::ResourceDef<C>> {
        self.inner
            .resources
            .fixed()
            .iter()
            .chain(self.inner.resources.templates())
    }

    /// The number of tools per `tools/list` page.
    pub fn page_size(&self) -> usize {
        self.inner.page_size
    }

    /// Every tool as one `tools/list` result for a 2025-11-25 client
    /// (`{"tools": [...]}`, unpaginated), as `mcp-server tools` prints it.
    pub fn tools_json(&self) -> Value {
        let tools: Vec<Value> = self
            .tools()
            .iter()
            .map(|tool| serde_json::to_value(tool).unwrap_or(Value::Null))
            .collect();
        json!({ "tools": tools })
    }
}

impl<C> Clone for Server<C> {
    fn clone(&self) -> Self {
        Self {
            inner: self.inner.clone(),
        }
    }
}

impl<C> fmt::Debug for Server<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Server")
            .field("name", &self.inner.identity.name)
            .field("version", &self.inner.identity.version)
            .field("tools", &self.inner.tools.current().set.all().len())
            .field("middleware_layers", &self.inner.layers.len())
            .finish_non_exhaustive()
    }
}
