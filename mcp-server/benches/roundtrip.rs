//! Round-trip latency of one hand-written tool call through `mcp-server`
//! against the same tool on a bare rmcp `#[tool]` server: same run, same
//! transport (`tokio::io::duplex`), same rmcp client, interleaved rounds.
//!
//! `cargo bench -p mcp-server --bench roundtrip` (env `BENCH_CALLS`, default
//! 2000 calls per round, 5 rounds each).

use std::time::{Duration, Instant};

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolRequestParams, ServerCapabilities, ServerConfig};
use rmcp::service::{RoleClient, RunningService};
use rmcp::{ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;

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

async fn client_of_ours() -> RunningService<RoleClient, ()> {
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let (reader, writer) = tokio::io::split(server_end);
    tokio::spawn(ours().serve_io(reader, writer));
    ().serve(client_end).await.expect("connects to mcp-server")
}

async fn client_of_bare() -> RunningService<RoleClient, ()> {
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        let bare = Bare {
            tool_router: Bare::tool_router(),
        };
        if let Ok(running) = bare.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    ().serve(client_end)
        .await
        .expect("connects to the bare rmcp server")
}

async fn round(client: &RunningService<RoleClient, ()>, calls: usize) -> Vec<Duration> {
    let mut times = Vec::with_capacity(calls);
    for i in 0..calls {
        let arguments = serde_json::json!({"a": i, "b": 1});
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

fn mean(times: &[Duration]) -> Duration {
    times.iter().sum::<Duration>() / u32::try_from(times.len()).unwrap_or(u32::MAX)
}

fn main() {
    let calls: usize = std::env::var("BENCH_CALLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let ours = client_of_ours().await;
        let bare = client_of_bare().await;
        round(&ours, 200).await;
        round(&bare, 200).await;
        let (mut ours_times, mut bare_times) = (Vec::new(), Vec::new());
        for _ in 0..5 {
            ours_times.extend(round(&ours, calls).await);
            bare_times.extend(round(&bare, calls).await);
        }
        let (ours_median, bare_median) = (median(&mut ours_times), median(&mut bare_times));
        let (ours_mean, bare_mean) = (mean(&ours_times), mean(&bare_times));
        println!("calls per server: {}", ours_times.len());
        println!("mcp-server: median {ours_median:?}, mean {ours_mean:?}");
        println!("bare rmcp:  median {bare_median:?}, mean {bare_mean:?}");
        println!(
            "ratio (mcp-server / bare rmcp): median {:.3}, mean {:.3}",
            ours_median.as_secs_f64() / bare_median.as_secs_f64(),
            ours_mean.as_secs_f64() / bare_mean.as_secs_f64()
        );
    });
}
