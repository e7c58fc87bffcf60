//! Serve MCP tools over stdio and Streamable HTTP.
//!
//! A [`Server`] hosts any mix of [`mcp_core::ToolDef`]s (from the `#[tool]`
//! macro, the fluent builder, or OpenAPI generation) behind one middleware
//! onion, and serves them on [rmcp](https://docs.rs/rmcp) 3.11 to clients of
//! both protocol generations (2025-11-25 with `initialize`, 2026-07-28 with
//! `server/discover` and per-request metadata).
//!
//! ```no_run
//! use mcp_server::{HttpConfig, Server};
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let server = Server::builder()
//!     .name("greeter")
//!     .version("1.0.0")
//!     .tool(mcp_core::tool("greet").description("Says hello.").run(|| async { "hello" })?)
//!     .tool_middleware(mcp_core::tool::middleware::from_fn(|cx, next| async move {
//!         tracing::info!(tool = cx.tool().name, "call");
//!         next.run(cx).await
//!     }))
//!     .build()?;
//! // stdio: server.serve_stdio().await?;
//! let http = server.bind_http("127.0.0.1:8000".parse()?, HttpConfig::new()).await?;
//! println!("{}", http.url());
//! http.run().await?; // until SIGINT or SIGTERM
//! # Ok(())
//! # }
//! ```
//!
//! What a client sees:
//! - `tools/list` is paginated ([`ServerBuilder::page_size`], 100 by default), so
//!   10,000 tools stay far below any message-size limit;
//! - `tools/call` runs server middleware, then the tool's own, then the
//!   handler; an unknown tool is JSON-RPC error -32602 naming the closest
//!   tools, a failing tool (or invalid arguments) a result with
//!   `isError: true`;
//! - `notifications/cancelled` drops the running handler; handlers send
//!   progress through [`mcp_core::ToolCallContext::progress`];
//! - `Tool.execution` appears for 2025-11-25 clients and not for 2026-07-28
//!   ones. Tools that declare `optional` or `required` task support run as
//!   tasks on one engine (rmcp's `TaskManager`) for both generations:
//!   2026-07-28 clients that declare the `io.modelcontextprotocol/tasks`
//!   extension get the task from `tools/call`, then `tasks/get`,
//!   `tasks/update`, `tasks/cancel`; 2025-11-25 clients send `params.task`
//!   (with an optional `ttl`) and use `tasks/get`, `tasks/result` (waits for
//!   the end), `tasks/list`, `tasks/cancel`, and hear
//!   `notifications/tasks/status`. A `required` tool called without a task
//!   is an error (-32601 for 2025-11-25, -32021 for 2026-07-28);
//! - tools can be added and removed while serving ([`Server::add_tool`],
//!   [`Server::remove_tool`]), and whole [`ToolSource`]s (tools plus their
//!   resources) replaced in one atomic swap ([`Server::replace_source`]):
//!   a request sees the old set or the new one, calls already running finish
//!   with the tool they started with, and sessions get
//!   `notifications/tools/list_changed` (and
//!   `notifications/resources/list_changed`) once per swap.
//!
//! # OpenAPI documents
//!
//! One call serves a document's operations next to hand-written tools
//! (feature `openapi`): [`ServerBuilder::openapi`] with an [`OpenApiSource`]
//! loads the file, generates the tools ([`mcp_openapi::RouteMap`]s decide
//! which routes become tools, resources or nothing), makes the HTTP client
//! ([`mcp_openapi::ClientConfig`]) and prefixes the names; a document that
//! cannot be loaded makes `build()` fail naming the file.
//!
//! ```
//! # #[cfg(feature = "openapi")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use mcp_openapi::{RouteKind, RouteMap, ir::HttpMethod};
//! use mcp_server::{OpenApiSource, Server};
//!
//! let server = Server::builder()
//!     .tool(mcp_core::tool("ping").run(|| async { "pong" })?)
//!     .openapi(
//!         OpenApiSource::path(testdata::openapi("petstore.yaml"))
//!             .base_url("http://127.0.0.1:4010")
//!             .route_maps([RouteMap::new(RouteKind::ResourceTemplate)
//!                 .methods([HttpMethod::Get])
//!                 .pattern(r"^/pets/\{petId\}$")?])
//!             .prefix("pets_"),
//!     )
//!     .build()?;
//! let tools: Vec<String> = server.tools().into_iter().map(|tool| tool.name).collect();
//! assert_eq!(tools, ["ping", "pets_listPets", "pets_createPets"]);
//! assert_eq!(server.resources().len(), 1); // GET /pets/{petId}, a resource template
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "openapi"))]
//! # fn main() {}
//! ```
//!
//! [`OpenApiSource`] shows the same done step by step with `mcp-openapi`
//! (for a [`mcp_openapi::Generator`] setting or one client shared by several
//! documents): load, generate, `tool_defs` and `resource_defs` with one
//! `ClientConfig`, then a [`ToolSource`].
//!
//! # Features
//!
//! The defaults, `stdio` and `http`, serve hand-written tools over both
//! transports; the rest is opt-in (`features = ["openapi"]`, ...), and
//! `default-features = false` keeps only what an app names:
//!
//! - `stdio` (default): [`Server::serve_stdio`] and `serve_io` (any byte
//!   streams);
//! - `http` (default): Streamable HTTP on axum (`bind_http`, `serve_http`,
//!   `router`, `HttpConfig`, the static bearer token);
//! - `oauth`: the HTTP endpoint as an OAuth 2.1 protected resource
//!   ([`auth::OAuth`], [`auth::TokenExchange`]; implies `http`);
//! - `openapi`: [`ServerBuilder::openapi`] and [`OpenApiSource`] (crate
//!   `mcp-toolkit-openapi` with its HTTP client);
//! - `redis`: session and task state shared by replicas in Redis
//!   ([`store::RedisStore`]; implies `http`);
//! - `otel`: OpenTelemetry traces and metrics ([`telemetry::Telemetry`]:
//!   OTLP over HTTP from the `OTEL_*` variables, a Prometheus text
//!   endpoint; implies `http`);
//! - `code-mode`: code mode ([`ServerBuilder::code_mode`], [`CodeMode`]):
//!   `search_tools` answers with TypeScript declarations and `execute` runs
//!   a JavaScript script in a QuickJS sandbox;
//! - `testing`: [`testing::TestClient`], a server tested in process (see
//!   [below](#testing-your-server); for `[dev-dependencies]`; implies
//!   `stdio`).
//!
//! # Testing your server
//!
//! [`testing::TestClient`] serves a [`Server`] in the test's own process
//! over an in-memory pipe and talks to it with rmcp's client, handshake
//! done: `list_tools()` gives every page of `tools/list`, `call_tool(name,
//! json)` the wire's result (a failing tool or bad arguments are a result
//! with `is_error`; an unknown tool is an `Err`), and `peer()` rmcp's peer
//! for the rest. Turn the feature on for tests only:
//!
//! ```toml
//! [dev-dependencies]
//! mcp-toolkit-server = { version = "0.1", default-features = false, features = ["testing"] }
//! ```
//!
//! ```
//! # #[cfg(feature = "testing")]
//! # mod example {
//! use mcp_server::Server;
//! use mcp_server::testing::{TestClient, TestClientError};
//! use serde_json::json;
//!
//! /// Adds two numbers.
//! #[mcp_core::tool]
//! async fn add(#[arg(description = "The first term.")] a: i64, b: i64) -> i64 {
//!     a + b
//! }
//!
//! # pub async fn test() -> Result<(), Box<dyn std::error::Error>> {
//! let client = TestClient::connect(Server::builder().tool(add_tool()?).build()?).await?;
//! let tools = client.list_tools().await?;
//! assert_eq!(tools[0].input_schema["properties"]["a"]["description"], "The first term.");
//! let sum = client.call_tool("add", json!({"a": 2, "b": 3})).await?;
//! assert_eq!(sum.structured_content, Some(json!({"result": 5})));
//! let Err(TestClientError::Protocol { error }) = client.call_tool("ad", json!({})).await else {
//!     panic!("an unknown tool is a JSON-RPC error");
//! };
//! assert_eq!(error.message, "unknown tool `ad`; did you mean `add`?");
//! # Ok(())
//! # }
//! # }
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # #[cfg(feature = "testing")]
//! # example::test().await?;
//! # Ok(())
//! # }
//! ```
//!
//! # OAuth-protected HTTP
//!
//! [`HttpConfig::auth`] with [`auth::Auth::oauth`] makes the endpoint an
//! OAuth 2.1 protected resource: it publishes its RFC 9728 metadata, and a
//! request needs a JWT access token from a trusted issuer, for this
//! resource, with the scopes asked for; handlers see the caller as
//! [`cx.scope().auth()`](mcp_core::RequestScope::auth). See [`auth`] for every check and
//! the status of each refusal.
//!
//! ```no_run
//! # #[cfg(feature = "oauth")]
//! # mod example {
//! use mcp_server::auth::{Auth, OAuth};
//! use mcp_server::{HttpConfig, Server};
//!
//! # async fn run(server: Server) -> Result<(), Box<dyn std::error::Error>> {
//! let oauth = OAuth::new("https://mcp.example.com/mcp")?
//!     .issuer("https://login.example.com")?
//!     .scope("mcp:tools");
//! let config = HttpConfig::new().allow_host("mcp.example.com").auth(Auth::oauth(oauth)?);
//! server.bind_http("0.0.0.0:8000".parse()?, config).await?.run().await?;
//! # Ok(())
//! # }
//! # }
//! ```
//!
//! # Discovery mode
//!
//! An API of hundreds of operations does not fit in a model's context.
//! With [`ServerBuilder::discovery`], `tools/list` shows two meta-tools,
//! `search_tools` (rank the tools for a task: `query`, `limit`, `tags`,
//! `detail`) and `call_tool` (run one by `name` with `arguments`, exactly
//! as `tools/call` would), plus the tools you pin; every tool stays
//! callable directly. See [`Discovery`] for what they answer.
//!
//! ```
//! use mcp_server::{Discovery, Server};
//!
//! let tool = |name: &str, description: &str| {
//!     mcp_core::tool(name).description(description).run(|| async { "" }).unwrap()
//! };
//! let server = Server::builder()
//!     .tool(tool("whoami", "The signed-in user."))
//!     .tool(tool("list_stargazers", "Lists the users who starred a repository."))
//!     .tool(tool("create_issue", "Opens an issue in a repository."))
//!     .discovery(Discovery::search().pin(["whoami"]))
//!     .build()?;
//! let listed: Vec<String> = server.listed_tools().into_iter().map(|tool| tool.name).collect();
//! assert_eq!(listed, ["search_tools", "call_tool", "whoami"]);
//! assert_eq!(server.search("who starred this repo?", 1), ["list_stargazers"]);
//! # Ok::<(), mcp_server::BuildError>(())
//! ```
//!
//! On the command line: `mcp-server serve --openapi api.json --discovery
//! [--pin NAME]...`.
//!
//! The `mcp-server` binary serves OpenAPI documents:
//! `mcp-server serve --openapi api.yaml [--route-map routes.toml]`. With
//! `--watch` it regenerates the tools when a file named by a flag changes
//! (it watches each file's directory, so editors that replace the file are
//! seen; bursts of writes are debounced); on Unix, `SIGHUP` regenerates them
//! too, with or without `--watch`. A successful regeneration is swapped in
//! with [`Server::replace_sources`]; a failed one is logged as one error line
//! on stderr and the previous tools stay.

#![cfg_attr(docsrs, feature(doc_cfg))]
// The docs link to items of the opt-in features; they resolve when those are
// on (docs.rs and the workspace build all of them).
#![cfg_attr(
    not(all(
        feature = "openapi",
        feature = "oauth",
        feature = "redis",
        feature = "otel",
        feature = "code-mode",
        feature = "testing"
    )),
    allow(rustdoc::broken_intra_doc_links)
)]
// Without a transport, the protocol layer has no caller (the server can
// still be built and inspected).
#![cfg_attr(not(any(feature = "stdio", feature = "http")), allow(dead_code))]

mod catalog;
#[cfg(feature = "code-mode")]
mod code_mode;
mod discovery;
mod error;
mod protocol;
mod results;
#[cfg(all(test, feature = "openapi", feature = "code-mode"))]
mod schema_walks;
mod sentence;
mod server;
pub mod store;
pub mod telemetry;
pub mod transport;

pub use catalog::ListChanges;
pub use catalog::tool_source::ToolSource;
#[cfg(feature = "code-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "code-mode")))]
pub use code_mode::{CodeMode, EXECUTE};
pub use discovery::Discovery;
pub use discovery::view::{CALL_TOOL, SEARCH_TOOLS};
#[cfg(feature = "openapi")]
#[cfg_attr(docsrs, doc(cfg(feature = "openapi")))]
pub use error::OpenApiError;
pub use error::{AddPromptError, BuildError, ServeError};
pub use results::DEFAULT_MAX_RESULT_BYTES;
pub use server::Server;
pub use server::builder::ServerBuilder;
#[cfg(feature = "openapi")]
#[cfg_attr(docsrs, doc(cfg(feature = "openapi")))]
pub use server::openapi_source::OpenApiSource;
pub use server::pagination::{DEFAULT_PAGE_SIZE, MAX_PAGE_BYTES};
pub use server::session::{Session, TransportKind};
#[cfg(feature = "testing")]
#[cfg_attr(docsrs, doc(cfg(feature = "testing")))]
#[doc(inline)]
pub use transport::testing;
#[cfg(feature = "http")]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub use transport::{HttpConfig, HttpServer, auth};

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
mod readme {}
