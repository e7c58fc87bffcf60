//! `everything`: a server with every fixture of the official MCP
//! conformance suite's server scenarios, built only with the public API
//! (`#[tool]`, the tool, resource and prompt builders, `Server::builder`).
//!
//! `cargo run -p examples --bin everything -- --bind 127.0.0.1:3001` serves
//! it at `http://127.0.0.1:3001/mcp` (`--stdio` over stdin and stdout);
//! `cargo xtask conformance` runs the suite against it.

mod changes;
mod input_required;
mod media;
mod prompts;
mod resources;
mod tasks;
mod tools;

use std::net::SocketAddr;

use clap::Parser;
use mcp_server::{HttpConfig, Server};

/// The conformance suite's `everything` server over Streamable HTTP.
#[derive(Parser, Debug)]
struct Args {
    /// Where to listen; the endpoint is `http://<bind>/mcp`.
    #[arg(long, default_value = "127.0.0.1:3001")]
    bind: SocketAddr,
    /// Serve without sessions (every request stands alone).
    #[arg(long)]
    stateless: bool,
    /// Serve over stdin and stdout instead of HTTP.
    #[arg(long, conflicts_with_all = ["bind", "stateless"])]
    stdio: bool,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .init();
    let args = Args::parse();
    let server = Server::builder()
        .name("everything")
        .version(env!("CARGO_PKG_VERSION"))
        .instructions("Every fixture of the MCP conformance suite.")
        .tools(tools::all()?)
        .tools(input_required::all()?)
        .tools(changes::all()?)
        .tools(tasks::all()?)
        .resources(resources::all()?)
        .prompts(prompts::all()?)
        .build()?;
    changes::watch(&server);
    if args.stdio {
        server.serve_stdio().await?;
        return Ok(());
    }
    let http = server
        .bind_http(args.bind, HttpConfig::new().stateless(args.stateless))
        .await?;
    println!("{}", http.url());
    http.run().await?;
    Ok(())
}
