//! Tools generated from the Petstore OpenAPI document, proxied to a base URL,
//! over Streamable HTTP.
//!
//! `cargo run -p examples --bin petstore -- --openapi testdata/openapi/petstore.yaml \
//!     --base-url http://127.0.0.1:4010 --bind 127.0.0.1:8000`
//! prints the MCP endpoint URL, then serves until SIGINT or SIGTERM.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use clap::Parser;
use mcp_openapi::{ClientConfig, OpenApi, call::SecuritySchemes};
use mcp_server::{HttpConfig, Server};

/// Serve an OpenAPI document's operations as MCP tools over HTTP.
#[derive(Parser)]
struct Args {
    /// The OpenAPI document (JSON or YAML).
    #[arg(long)]
    openapi: PathBuf,
    /// Where the API lives (default: the document's first server).
    #[arg(long)]
    base_url: Option<String>,
    /// The address to serve MCP on.
    #[arg(long, default_value = "127.0.0.1:8000")]
    bind: SocketAddr,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let api = OpenApi::from_path(&args.openapi)?;
    let generated = api.generator().generate()?;
    let mut config = ClientConfig::builder()
        .security_schemes(SecuritySchemes::from_components(&api.security_schemes())?);
    if let Some(base_url) = args.base_url {
        config = config.base_url(base_url);
    }
    let tools = generated.tool_defs(&Arc::new(config.build()?))?;
    let server = Server::builder().name("petstore").tools(tools).build()?;
    let http = server.bind_http(args.bind, HttpConfig::new()).await?;
    println!("{}", http.url());
    http.run().await?;
    Ok(())
}
