//! The fluent builder of a [`Server`]; what [`build`](ServerBuilder::build)
//! checks and assembles is in `build`.

mod build;

pub(crate) use build::unknown_toolset;

use std::fmt;
use std::sync::Arc;

use mcp_core::tool::middleware::{Layer, ToolMiddleware};
use mcp_core::{ToolDef, prompt::PromptDef, resource::ResourceDef};

use super::Server;
use super::pagination::DEFAULT_PAGE_SIZE;
use super::session::Session;
use super::state::{ContextFn, Identity};
use crate::catalog::tool_source::ToolSource;
use crate::discovery::Discovery;
use crate::store::task::backend::DEFAULT_HEARTBEAT;

const HAND_WRITTEN: &str = "hand-written tools";

impl Server {
    /// A builder of a server without a per-session context, with no tools,
    /// named after this crate until [`name`](ServerBuilder::name) is called.
    /// For a typed per-session context use [`ServerBuilder::new`] and
    /// [`ServerBuilder::context`].
    pub fn builder() -> ServerBuilder {
        ServerBuilder::new()
    }
}

/// Configures a [`Server`]: identity, tools, middleware and the per-session
/// context. Start with [`Server::builder`].
pub struct ServerBuilder<C = ()> {
    identity: Identity,
    sources: Vec<ToolSource<C>>,
    prompts: Vec<PromptDef<C>>,
    layers: Vec<Layer<C>>,
    context: Option<ContextFn<C>>,
    page_size: usize,
    discovery: Option<Discovery>,
    toolsets: Option<Vec<String>>,
    read_only: bool,
    max_result_bytes: Option<usize>,
    #[cfg(feature = "code-mode")]
    code_mode: Option<crate::CodeMode>,
    /// How long a replica running tasks counts as alive after a heartbeat.
    task_heartbeat: std::time::Duration,
    /// The first OpenAPI document that could not be loaded, reported by `build`.
    #[cfg(feature = "openapi")]
    openapi_error: Option<crate::error::OpenApiError>,
    #[cfg(feature = "redis")]
    store: Option<crate::store::RedisStore>,
}

impl<C: Send + Sync + 'static> ServerBuilder<C> {
    /// A builder for a server whose sessions have a context of type `C`
    /// (set its constructor with [`context`](Self::context)); for `C = ()`,
    /// [`Server::builder`] is shorter.
    ///
    /// ```
    /// use mcp_server::{ServerBuilder, TransportKind};
    ///
    /// struct Ctx {
    ///     over_http: bool,
    /// }
    ///
    /// let server = ServerBuilder::new()
    ///     .context(|session| Ctx { over_http: session.transport() == TransportKind::Http })
    ///     .tool(mcp_core::tool("where").run(|_: mcp_core::JsonObject, cx: mcp_core::ToolCallContext<Ctx>| async move {
    ///         if cx.ctx().over_http { "http" } else { "stdio" }
    ///     })?)
    ///     .build()?;
    /// assert!(server.tool("where").is_some());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new() -> Self {
        Self {
            identity: Identity {
                name: env!("CARGO_PKG_NAME").to_owned(),
                version: env!("CARGO_PKG_VERSION").to_owned(),
                title: None,
                instructions: None,
            },
            sources: Vec::new(),
            prompts: Vec::new(),
            layers: Vec::new(),
            context: None,
            page_size: DEFAULT_PAGE_SIZE,
            discovery: None,
            toolsets: None,
            read_only: false,
            max_result_bytes: Some(crate::DEFAULT_MAX_RESULT_BYTES),
            #[cfg(feature = "code-mode")]
            code_mode: None,
            task_heartbeat: DEFAULT_HEARTBEAT,
            #[cfg(feature = "openapi")]
            openapi_error: None,
            #[cfg(feature = "redis")]
            store: None,
        }
    }

    /// The server's name, sent to clients as `serverInfo.name`.
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.identity.name = name.into();
        self
    }

    /// The server's version, sent as `serverInfo.version`.
    pub fn version(mut self, version: impl Into<String>) -> Self {
        self.identity.version = version.into();
        self
    }

    /// A display name, sent as `serverInfo.title`.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.identity.title = Some(title.into());
        self
    }

    /// Instructions for the model about using this server.
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.identity.instructions = Some(instructions.into());
        self
    }

    /// Adds a hand-written tool (from the builder or the `#[tool]` macro):
    /// a `ToolDef<C>`, or a [`ContextFreeToolDef`](mcp_core::ContextFreeToolDef)
    /// (what `#[tool]` makes of a function that names no context), which
    /// every server takes.
    pub fn tool(self, def: impl Into<ToolDef<C>>) -> Self {
        self.tools([def])
    }

    /// Adds hand-written tools (each as [`tool`](Self::tool) takes it).
    pub fn tools(mut self, defs: impl IntoIterator<Item = impl Into<ToolDef<C>>>) -> Self {
        self.hand_written()
            .tools
            .extend(defs.into_iter().map(Into::into));
        self
    }

    /// Adds a named group of tools (and resources), such as those generated
    /// from one OpenAPI document, optionally prefixed (see [`ToolSource`]).
    /// Its name lets [`Server::replace_source`] swap it while serving.
    pub fn source(mut self, source: ToolSource<C>) -> Self {
        self.sources.push(source);
        self
    }

    /// Serves an OpenAPI document's operations as tools (and resources, as
    /// its route maps say), in one call: the document is loaded and its
    /// tools generated here, in the listing order of the builder calls; a
    /// document that cannot be loaded or generated makes
    /// [`build`](Self::build) fail naming the file. See [`OpenApiSource`]
    /// for the settings and for the steps it takes.
    ///
    /// ```
    /// use mcp_server::{OpenApiSource, Server};
    ///
    /// let server = Server::builder()
    ///     .tool(mcp_core::tool("ping").run(|| async { "pong" })?)
    ///     .openapi(OpenApiSource::path(testdata::openapi("petstore.yaml")).prefix("pets_"))
    ///     .build()?;
    /// assert!(server.tool("pets_showPetById").is_some());
    ///
    /// let missing = Server::builder().openapi(OpenApiSource::path("nowhere.yaml")).build();
    /// assert!(missing.unwrap_err().to_string().starts_with("OpenAPI document `nowhere.yaml`: cannot read"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// [`OpenApiSource`]: crate::OpenApiSource
    #[cfg(feature = "openapi")]
    #[cfg_attr(docsrs, doc(cfg(feature = "openapi")))]
    pub fn openapi(mut self, source: super::openapi_source::OpenApiSource) -> Self {
        if self.openapi_error.is_some() {
            return self;
        }
        match source.into_source() {
            Ok(source) => self.sources.push(source),
            Err(error) => self.openapi_error = Some(error),
        }
        self
    }

    /// Adds a hand-written resource or resource template (see
    /// [`mcp_core::resource::resource`]).
    pub fn resource(self, def: ResourceDef<C>) -> Self {
        self.resources([def])
    }

    /// Adds hand-written resources and resource templates.
    pub fn resources(mut self, defs: impl IntoIterator<Item = ResourceDef<C>>) -> Self {
        self.hand_written().resources.extend(defs);
        self
    }

    /// The source of hand-written tools and resources, made on first use.
    fn hand_written(&mut self) -> &mut ToolSource<C> {
        let position = self
            .sources
            .iter()
            .position(|s| s.label == HAND_WRITTEN && s.prefix.is_none());
        let index = match position {
            Some(index) => index,
            None => {
                self.sources.push(ToolSource::new(HAND_WRITTEN, []));
                self.sources.len() - 1
            }
        };
        &mut self.sources[index]
    }

    /// Adds a prompt (from [`mcp_core::prompt::prompt()`] or `#[mcp_core::prompt]`).
    ///
    /// ```
    /// use mcp_server::Server;
    ///
    /// let server = Server::builder()
    ///     .prompt(mcp_core::prompt::prompt("greet").description("Greets.").run(|| async { "Say hello." })?)
    ///     .build()?;
    /// assert_eq!(server.prompt_names(), ["greet"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn prompt(mut self, def: PromptDef<C>) -> Self {
        self.prompts.push(def);
        self
    }

    /// Adds prompts.
    pub fn prompts(mut self, defs: impl IntoIterator<Item = PromptDef<C>>) -> Self {
        self.prompts.extend(defs);
        self
    }

    /// Adds a server-wide middleware layer, wrapping every tool's own
    /// layers. The first added is the outermost: with server layers `a`, `b`
    /// and tool layers `c`, `d`, a call flows `a → b → c → d → handler`.
    pub fn tool_middleware(mut self, middleware: impl ToolMiddleware<C>) -> Self {
        self.layers.push(Arc::new(middleware));
        self
    }

    /// How each session's context is made; called once per session, when
    /// its first tool call arrives. Required unless the context type is `()`.
    pub fn context(mut self, make: impl Fn(&Session) -> C + Send + Sync + 'static) -> Self {
        self.context = Some(Arc::new(move |session: &Session| Arc::new(make(session))));
        self
    }

    /// The number of tools per `tools/list` page (default 100).
    pub fn page_size(mut self, page_size: usize) -> Self {
        self.page_size = page_size;
        self
    }

    /// Shares the state of sessions with the other replicas of this server
    /// through Redis (feature `redis`), so that any replica behind a load
    /// balancer serves any request of a 2025-11-25 session over HTTP: the
    /// negotiated version and capabilities, the logging level, resource
    /// subscriptions and the event log that resumes an SSE stream. Tasks
    /// (both protocol versions) are shared too: any replica reads, lists,
    /// answers and cancels a task another replica runs, and a task whose
    /// replica died is reported failed (see
    /// [`task_heartbeat`](Self::task_heartbeat)). Without a store, each
    /// process keeps its sessions and tasks in memory.
    ///
    /// ```no_run
    /// use mcp_server::store::RedisStore;
    /// use mcp_server::{HttpConfig, Server};
    ///
    /// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// let store = RedisStore::connect("redis://127.0.0.1:6379/0").await?;
    /// let server = Server::builder()
    ///     .tool(mcp_core::tool("ping").run(|| async { "pong" })?)
    ///     .store(store)
    ///     .build()?;
    /// server.bind_http("0.0.0.0:8000".parse()?, HttpConfig::new()).await?.run().await?;
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "redis")]
    #[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
    pub fn store(mut self, store: crate::store::RedisStore) -> Self {
        self.store = Some(store);
        self
    }

    /// Turns on discovery mode: `tools/list` shows the meta-tools
    /// `search_tools` and `call_tool` (plus the tools `discovery` pins)
    /// instead of every tool, and every tool stays callable. See
    /// [`Discovery`].
    ///
    /// ```
    /// use mcp_server::{Discovery, Server};
    ///
    /// let server = Server::builder()
    ///     .tool(mcp_core::tool("whoami").run(|| async { "me" })?)
    ///     .discovery(Discovery::search().pin(["whoami"]))
    ///     .build()?;
    /// assert_eq!(server.listed_tools().len(), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn discovery(mut self, discovery: Discovery) -> Self {
        self.discovery = Some(discovery);
        self
    }

    /// Serves only the tools of these toolsets (each OpenAPI tag is one;
    /// hand-written tools name theirs with
    /// [`ToolBuilder::toolset`](mcp_core::ToolBuilder::toolset)); a tool that
    /// names no toolset is always served. Every tool is served unless this
    /// is called. Over HTTP a client may narrow the selection further for
    /// its session (header `X-MCP-Toolsets: a,b` or URL `/mcp/x/a,b`), never
    /// widen it. Building fails on a name no hosted tool has.
    ///
    /// ```
    /// use mcp_server::Server;
    ///
    /// let tool = |name: &str, toolset: &str| {
    ///     mcp_core::tool(name).toolset(toolset).run(|| async { "" }).unwrap()
    /// };
    /// let server = Server::builder()
    ///     .tools([tool("list_issues", "issues"), tool("list_pulls", "pulls")])
    ///     .toolsets(["issues"])
    ///     .build()?;
    /// let listed: Vec<String> = server.listed_tools().into_iter().map(|tool| tool.name).collect();
    /// assert_eq!(listed, ["list_issues"]);
    /// # Ok::<(), mcp_server::BuildError>(())
    /// ```
    pub fn toolsets(mut self, names: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.toolsets = Some(names.into_iter().map(Into::into).collect());
        self
    }

    /// Serves only read-only tools: those whose annotations say
    /// `readOnlyHint: true` (generated tools of GET, HEAD and OPTIONS
    /// operations unless an overlay or transform says otherwise; a
    /// hand-written tool must declare it, e.g. `annotations(read)`). Over
    /// HTTP a client may ask for the read-only view for its session alone
    /// (header `X-MCP-Readonly: true` or a `/readonly` URL suffix).
    ///
    /// ```
    /// use mcp_core::Hint;
    /// use mcp_server::Server;
    ///
    /// let tool = |name: &str, hint: Hint| mcp_core::tool(name).annotations([hint]).run(|| async { "" }).unwrap();
    /// let server = Server::builder()
    ///     .tools([tool("get_pet", Hint::Read), tool("delete_pet", Hint::Destroy)])
    ///     .read_only(true)
    ///     .build()?;
    /// let listed: Vec<String> = server.listed_tools().into_iter().map(|tool| tool.name).collect();
    /// assert_eq!(listed, ["get_pet"]);
    /// # Ok::<(), mcp_server::BuildError>(())
    /// ```
    pub fn read_only(mut self, read_only: bool) -> Self {
        self.read_only = read_only;
        self
    }

    /// Bounds the bytes of a tool result sent to clients
    /// ([`DEFAULT_MAX_RESULT_BYTES`](crate::DEFAULT_MAX_RESULT_BYTES), 32 KB,
    /// unless set; `None`: no bound; a tool's own
    /// [`ToolDef::max_result_bytes`](mcp_core::ToolDef::max_result_bytes) wins).
    /// A larger result is cut at whole items (the last elements of its
    /// largest list, then its largest optional members, then its longest
    /// text) and stays valid JSON of the same shape, so it still matches
    /// the output schema; a note says what was cut, names the tool's
    /// paging arguments, and links the whole result, which the session can
    /// read with `resources/read` for ten minutes.
    ///
    /// ```
    /// use mcp_server::Server;
    ///
    /// let huge = mcp_core::tool("huge").run(|| async { "x".repeat(100_000) })?;
    /// let server = Server::builder().tool(huge).max_result_bytes(Some(10_000)).build()?;
    /// # drop(server);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn max_result_bytes(mut self, bytes: impl Into<Option<usize>>) -> Self {
        self.max_result_bytes = bytes.into();
        self
    }

    /// Turns on code mode: `tools/list` shows `search_tools` (answering
    /// with TypeScript declarations) and `execute` (running a JavaScript
    /// script that calls the tools in a sandbox), plus the tools
    /// `code_mode` pins; every tool stays callable. See [`CodeMode`] for
    /// the limits of a run. Discovery mode and code mode exclude each
    /// other.
    ///
    /// ```
    /// use mcp_server::{CodeMode, Server};
    ///
    /// let server = Server::builder()
    ///     .tool(mcp_core::tool("whoami").run(|| async { "me" })?)
    ///     .code_mode(CodeMode::new())
    ///     .build()?;
    /// let listed: Vec<String> = server.listed_tools().into_iter().map(|tool| tool.name).collect();
    /// assert_eq!(listed, ["search_tools", "execute"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// [`CodeMode`]: crate::CodeMode
    #[cfg(feature = "code-mode")]
    #[cfg_attr(docsrs, doc(cfg(feature = "code-mode")))]
    pub fn code_mode(mut self, code_mode: crate::CodeMode) -> Self {
        self.code_mode = Some(code_mode);
        self
    }

    /// How long a replica running tasks counts as alive after its last
    /// heartbeat in the shared [`store`](Self::store) (10 seconds unless
    /// set; it beats every third of that): when a replica stops for longer,
    /// the other replicas report its unfinished tasks as failed, and never
    /// run them again. A shorter time notices a dead replica sooner, at
    /// the price of more writes to the store.
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// let server = mcp_server::Server::builder()
    ///     .task_heartbeat(Duration::from_secs(3))
    ///     .build()?;
    /// # drop(server);
    /// # Ok::<(), mcp_server::BuildError>(())
    /// ```
    pub fn task_heartbeat(mut self, heartbeat: std::time::Duration) -> Self {
        self.task_heartbeat = heartbeat;
        self
    }
}

impl<C: Send + Sync + 'static> Default for ServerBuilder<C> {
    fn default() -> Self {
        Self::new()
    }
}

impl<C> fmt::Debug for ServerBuilder<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServerBuilder")
            .field("name", &self.identity.name)
            .field("sources", &self.sources.len())
            .field("middleware_layers", &self.layers.len())
            .field("page_size", &self.page_size)
            .field("discovery", &self.discovery)
            .field("task_heartbeat", &self.task_heartbeat)
            .finish_non_exhaustive()
    }
}
