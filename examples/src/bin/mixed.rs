//! Hand-written tools next to a route-mapped subset of the GitHub API: only
//! the GET routes under `/repos/{owner}/{repo}/issues` become tools (prefixed
//! `github_`), everything else is excluded. Each session gets its own context,
//! and one tool is rate-limited by a middleware.
//!
//! `gunzip -c testdata/openapi/github-api.github.com.json.gz > github.json`, then
//! `cargo run -p examples --bin mixed -- --openapi github.json`
//! serves over stdio; `GITHUB_TOKEN`, when set, is sent as a bearer token.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Parser;
use mcp_core::tool::middleware::{self, Next};
use mcp_core::{CallToolResult, ToolCallContext, tool};
use mcp_openapi::{RouteKind, RouteMap, ir::HttpMethod};
use mcp_server::{OpenApiSource, ServerBuilder};

/// Serve hand-written tools and GitHub's issue routes together.
#[derive(Parser)]
struct Args {
    /// The GitHub OpenAPI document.
    #[arg(long)]
    openapi: PathBuf,
    /// Where the API lives (default: the document's first server).
    #[arg(long)]
    base_url: Option<String>,
}

/// What each session knows about itself.
#[derive(Debug)]
struct Visitor {
    number: u64,
    since: Instant,
}

/// Who this session is and how long it has been connected.
#[tool(annotations(read, closed_world))]
async fn whoami(cx: &ToolCallContext<Visitor>) -> String {
    let visitor = cx.ctx();
    format!(
        "visitor #{} for {} ms",
        visitor.number,
        visitor.since.elapsed().as_millis()
    )
}

/// Echoes a message back; at most `limit` calls per `window`.
#[tool(annotations(read, idempotent, closed_world))]
async fn echo(message: String) -> String {
    message
}

/// A middleware that refuses calls beyond `limit` per `window`.
fn rate_limit(
    limit: usize,
    window: Duration,
) -> impl mcp_core::tool::middleware::ToolMiddleware<Visitor> {
    let calls = Arc::new(Mutex::new(Vec::<Instant>::new()));
    middleware::from_fn(move |cx: ToolCallContext<Visitor>, next: Next<Visitor>| {
        let calls = calls.clone();
        async move {
            let allowed = calls.lock().is_ok_and(|mut calls| {
                calls.retain(|at| at.elapsed() < window);
                let allowed = calls.len() < limit;
                if allowed {
                    calls.push(Instant::now());
                }
                allowed
            });
            if allowed {
                next.run(cx).await
            } else {
                CallToolResult::error(format!(
                    "rate limit: at most {limit} calls per {} s",
                    window.as_secs()
                ))
            }
        }
    })
}

/// The GitHub document's issue routes, in one builder call.
fn github_issues(args: &Args) -> anyhow::Result<OpenApiSource> {
    let issues = RouteMap::new(RouteKind::Tool)
        .methods([HttpMethod::Get])
        .pattern(r"^/repos/\{owner\}/\{repo\}/issues")?;
    let mut github = OpenApiSource::path(&args.openapi)
        .name("the GitHub document")
        .route_maps([issues, RouteMap::new(RouteKind::Exclude)])
        .prefix("github_");
    if let Some(base_url) = &args.base_url {
        github = github.base_url(base_url.clone());
    }
    if let Ok(token) = std::env::var("GITHUB_TOKEN") {
        github = github.header("Authorization", format!("Bearer {token}"));
    }
    Ok(github)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let visitors = AtomicU64::new(0);
    let server = ServerBuilder::new()
        .name("mixed")
        .context(move |_session| Visitor {
            number: visitors.fetch_add(1, Ordering::Relaxed) + 1,
            since: Instant::now(),
        })
        .tool(whoami_tool()?)
        .tool(echo_tool()?.layer(rate_limit(3, Duration::from_secs(60))))
        .openapi(github_issues(&args)?)
        .build()?;
    server.serve_stdio().await?;
    Ok(())
}
