//! Call overhead and `tools/list` latency of `mcp-server` against a bare rmcp
//! server, same run, same transport, same rmcp client, interleaved in blocks
//! of ten calls.
//!
//! - Round trip of one hand-written tool call through our server vs the same
//!   tool on a bare rmcp `#[tool]` server, over an in-memory duplex, over
//!   stdio (this binary re-executed as the server process) and over
//!   Streamable HTTP on 127.0.0.1.
//! - `tools/list` first page with 10,000 tools registered (our server pages
//!   them) vs the bare rmcp server answering the same 10,000 tools in one
//!   reply, as rmcp's tool router does.
//!
//! `cargo bench -p mcp-toolkit-server --bench roundtrip -- --bench` prints
//! one JSON line per measurement (`cargo xtask bench` collects them);
//! `BENCH_ONLY=http` (or `duplex`, `stdio`, `tools_list`, comma-separated)
//! runs only those, and `BENCH_SERVER=ours` (or `bare`) makes only one
//! server's calls, nothing compared, for profiling it alone (under
//! `valgrind --tool=callgrind`, the two runs' instruction counts differ by
//! what our server adds). Without
//! `--bench` (as `cargo test --benches` runs it) it is a smoke test: a few
//! calls on every transport, nothing timed or asserted about time.

use std::net::SocketAddr;
use std::process::Stdio;
use std::time::{Duration, Instant};

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolRequestParams, ListToolsResult, PaginatedRequestParams, ServerCapabilities,
    ServerConfig,
};
use rmcp::service::{RequestContext, RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

/// The tool's arguments, shared by both servers.
#[derive(Debug, Deserialize, JsonSchema)]
struct SumArgs {
    a: i64,
    b: i64,
}

/// The bare rmcp server.
#[derive(Clone)]
struct Bare {
    #[allow(dead_code, reason = "read by the tool_handler macro")]
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Bare {
    fn new() -> Self {
        Self {
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Adds two integers.")]
    async fn sum(&self, Parameters(SumArgs { a, b }): Parameters<SumArgs>) -> String {
        (a + b).to_string()
    }
}

#[tool_handler]
impl ServerHandler for Bare {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

/// A bare rmcp server answering `tools/list` with every tool in one reply.
#[derive(Clone)]
struct BareMany {
    tools: Vec<rmcp::model::Tool>,
}

impl ServerHandler for BareMany {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.clone()))
    }
}

fn ours() -> mcp_server::Server {
    let sum = mcp_core::tool("sum")
        .description("Adds two integers.")
        .input::<SumArgs>()
        .run(|args: SumArgs| async move { (args.a + args.b).to_string() })
        .expect("a valid tool");
    mcp_server::Server::builder()
        .tool(sum)
        .build()
        .expect("a valid server")
}

/// `count` tools shaped like generated ones (a few typed properties each).
fn many_tools(count: usize) -> Vec<mcp_core::ToolDef> {
    let schema = json!({
        "type": "object",
        "properties": {
            "owner": {"type": "string", "description": "The account owner."},
            "repo": {"type": "string", "description": "The repository name."},
            "per_page": {"type": "integer", "minimum": 1, "maximum": 100}
        },
        "required": ["owner", "repo"]
    });
    let schema = schema.as_object().cloned().unwrap_or_default();
    (0..count)
        .map(|i| {
            mcp_core::tool(format!("tool_{i}"))
                .description(format!("Lists the things of kind {i} in a repository."))
                .input_schema(schema.clone())
                .run(|| async { "" })
                .expect("a valid tool")
        })
        .collect()
}

#[derive(Clone, Copy, Debug)]
enum Transport {
    Duplex,
    Stdio,
    Http,
}

type Client = RunningService<RoleClient, ()>;

async fn connect_ours(transport: Transport) -> Client {
    match transport {
        Transport::Duplex => {
            let (server_end, client_end) = tokio::io::duplex(1 << 16);
            let (reader, writer) = tokio::io::split(server_end);
            tokio::spawn(ours().serve_io(reader, writer));
            ().serve(client_end).await.expect("connects to mcp-server")
        }
        Transport::Stdio => connect_child("--serve-ours").await,
        Transport::Http => {
            let http = ours()
                .bind_http(
                    "127.0.0.1:0".parse().expect("an address"),
                    mcp_server::HttpConfig::new(),
                )
                .await
                .expect("binds");
            let url = http.url();
            tokio::spawn(http.run());
            ().serve(StreamableHttpClientTransport::from_uri(url))
                .await
                .expect("connects over HTTP")
        }
    }
}

async fn connect_bare(transport: Transport) -> Client {
    match transport {
        Transport::Duplex => {
            let (server_end, client_end) = tokio::io::duplex(1 << 16);
            // The same split halves our server reads and writes.
            let halves = tokio::io::split(server_end);
            tokio::spawn(async move {
                if let Ok(running) = Bare::new().serve(halves).await {
                    let _ = running.waiting().await;
                }
            });
            ().serve(client_end)
                .await
                .expect("connects to the bare rmcp server")
        }
        Transport::Stdio => connect_child("--serve-bare").await,
        Transport::Http => {
            let service = StreamableHttpService::new(
                || Ok(Bare::new()),
                LocalSessionManager::default().into(),
                StreamableHttpServerConfig::default(),
            );
            let app = axum::Router::new().nest_service("/mcp", service);
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("binds");
            let addr: SocketAddr = listener.local_addr().expect("an address");
            tokio::spawn(async move { axum::serve(listener, app).await });
            let url = format!("http://{addr}/mcp");
            ().serve(StreamableHttpClientTransport::from_uri(url))
                .await
                .expect("connects over HTTP")
        }
    }
}

/// This binary, re-executed as a stdio server.
async fn connect_child(mode: &str) -> Client {
    let exe = std::env::current_exe().expect("the bench binary");
    let mut child = tokio::process::Command::new(exe)
        .arg(mode)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("starts the server process");
    let stdout = child.stdout.take().expect("piped stdout");
    let stdin = child.stdin.take().expect("piped stdin");
    // The child lives as long as the runtime; the client's end of its pipes owns it.
    tokio::spawn(async move { child.wait().await });
    ().serve((stdout, stdin))
        .await
        .expect("connects over stdio")
}

/// How many calls in a row go to one server before the other's turn.
const INTERLEAVED_BLOCK: usize = 10;

async fn round(client: &Client, calls: usize) -> Vec<Duration> {
    let mut times = Vec::with_capacity(calls);
    for i in 0..calls {
        let arguments = json!({"a": i, "b": 1});
        let request = CallToolRequestParams::new("sum")
            .with_arguments(arguments.as_object().cloned().unwrap_or_default());
        let start = Instant::now();
        let result = client.call_tool(request).await.expect("the call succeeds");
        times.push(start.elapsed());
        assert_ne!(result.is_error, Some(true), "the call failed: {result:?}");
    }
    times
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort_unstable();
    times[times.len() / 2]
}

async fn roundtrip(transport: Transport, calls: usize, rounds: usize) {
    if let Ok(server) = std::env::var("BENCH_SERVER") {
        return alone(transport, &server, calls * rounds).await;
    }
    let ours = connect_ours(transport).await;
    let bare = connect_bare(transport).await;
    round(&ours, calls.min(200)).await;
    round(&bare, calls.min(200)).await;
    // Blocks of a few calls, alternating between the servers, so that a
    // shared machine's drift weighs on both alike.
    let (mut ours_times, mut bare_times) = (Vec::new(), Vec::new());
    for _ in 0..rounds * calls.div_ceil(INTERLEAVED_BLOCK) {
        ours_times.extend(round(&ours, INTERLEAVED_BLOCK).await);
        bare_times.extend(round(&bare, INTERLEAVED_BLOCK).await);
    }
    let (ours_median, bare_median) = (median(&mut ours_times), median(&mut bare_times));
    println!(
        "{}",
        json!({
            "bench": "roundtrip",
            "transport": format!("{transport:?}").to_lowercase(),
            "calls": ours_times.len(),
            "ours_median_ns": ours_median.as_nanos() as u64,
            "bare_median_ns": bare_median.as_nanos() as u64,
            "ratio": ours_median.as_secs_f64() / bare_median.as_secs_f64(),
        })
    );
}

/// `calls` calls of one server alone (`ours` or `bare`), for a profiler.
async fn alone(transport: Transport, server: &str, calls: usize) {
    let client = match server {
        "ours" => connect_ours(transport).await,
        "bare" => connect_bare(transport).await,
        other => panic!("BENCH_SERVER is `ours` or `bare`, not `{other}`"),
    };
    let mut times = round(&client, calls).await;
    println!(
        "{}",
        json!({
            "bench": "roundtrip_alone",
            "transport": format!("{transport:?}").to_lowercase(),
            "server": server,
            "calls": calls,
            "median_ns": median(&mut times).as_nanos() as u64,
        })
    );
}

async fn tools_list(count: usize, runs: usize) {
    let tools = many_tools(count);
    // The same tools as rmcp values, through the wire JSON both share.
    let bare_tools: Vec<rmcp::model::Tool> = tools
        .iter()
        .map(|t| {
            serde_json::to_value(t.tool())
                .and_then(serde_json::from_value)
                .expect("an rmcp tool")
        })
        .collect();
    let server = mcp_server::Server::builder()
        .tools(tools)
        .build()
        .expect("a valid server");
    let (server_end, client_end) = tokio::io::duplex(1 << 20);
    let (reader, writer) = tokio::io::split(server_end);
    tokio::spawn(server.serve_io(reader, writer));
    let ours: Client = ().serve(client_end).await.expect("connects to mcp-server");

    let (server_end, client_end) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = (BareMany { tools: bare_tools }).serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    let bare: Client = ().serve(client_end).await.expect("connects to the bare server");

    let (mut ours_times, mut bare_times) = (Vec::new(), Vec::new());
    let mut first_page = 0;
    for _ in 0..runs {
        let start = Instant::now();
        let page = ours.list_tools(None).await.expect("tools/list");
        ours_times.push(start.elapsed());
        first_page = page.tools.len();
        let start = Instant::now();
        let all = bare.list_tools(None).await.expect("tools/list");
        bare_times.push(start.elapsed());
        assert_eq!(all.tools.len(), count);
    }
    let (ours_median, bare_median) = (median(&mut ours_times), median(&mut bare_times));
    println!(
        "{}",
        json!({
            "bench": "tools_list",
            "tools": count,
            "first_page_tools": first_page,
            "ours_first_page_ns": ours_median.as_nanos() as u64,
            "bare_one_page_ns": bare_median.as_nanos() as u64,
            "ratio": ours_median.as_secs_f64() / bare_median.as_secs_f64(),
        })
    );
}

/// Whether measurement `name` runs: `BENCH_ONLY` (a comma-separated list
/// such as `http,tools_list`) narrows the run, for profiling one of them.
fn chosen(name: &str) -> bool {
    std::env::var("BENCH_ONLY").map_or(true, |only| {
        only.split(',')
            .any(|wanted| wanted.trim().eq_ignore_ascii_case(name))
    })
}

/// Serves the benchmark tool over stdio: the child side of the stdio rounds.
async fn serve_child(mode: &str) {
    if mode == "--serve-ours" {
        let _ = ours().serve_stdio().await;
    } else if let Ok(running) = Bare::new().serve(rmcp::transport::stdio()).await {
        let _ = running.waiting().await;
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    if let Some(mode) = args.iter().find(|a| a.starts_with("--serve-")) {
        runtime.block_on(serve_child(mode));
        return;
    }
    let full = args.iter().any(|a| a == "--bench");
    let calls: usize = if full {
        std::env::var("BENCH_CALLS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(2000)
    } else {
        5
    };
    let (rounds, list_runs, list_tools_count) = if full { (5, 15, 10_000) } else { (1, 1, 300) };
    runtime.block_on(async {
        for transport in [Transport::Duplex, Transport::Stdio, Transport::Http] {
            if chosen(&format!("{transport:?}")) {
                roundtrip(transport, calls, rounds).await;
            }
        }
        if chosen("tools_list") {
            tools_list(list_tools_count, list_runs).await;
        }
    });
}
