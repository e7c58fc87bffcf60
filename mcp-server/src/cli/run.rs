//! Running a parsed command.

use std::io::Write;

use mcp_server::{HttpConfig, Server};

use super::args::{Cli, Command, Transport, TransportArgs};
use super::{CliError, demo, openapi};

/// The HTTP settings of the command line.
pub(crate) fn http_config(args: &TransportArgs) -> HttpConfig {
    let mut config = HttpConfig::new()
        .stateless(args.stateless)
        .max_body_bytes(args.max_body_bytes);
    for host in &args.allow_hosts {
        config = config.allow_host(host.clone());
    }
    for origin in &args.allow_origins {
        config = config.allow_origin(origin.clone());
    }
    if let Some(token) = &args.auth_token {
        config = config.bearer_token(token.clone());
    }
    config
}

/// Runs `cli`'s command.
pub(crate) async fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::Serve(args) => {
            let sources = openapi::sources(&args.specs)?;
            if sources.is_empty() {
                tracing::warn!("no --openapi document given: serving no tools");
            }
            let mut builder = Server::builder().page_size(args.serving.page_size);
            for source in sources {
                builder = builder.source(source);
            }
            let server = builder.build()?;
            match args.transport {
                Transport::Stdio => server.serve_stdio().await?,
                Transport::Http => {
                    let http = server
                        .bind_http(args.serving.bind, http_config(&args.serving))
                        .await?;
                    eprintln!("serving MCP at {}", http.url());
                    http.run().await?;
                }
            }
            Ok(())
        }
        Command::Tools(args) => {
            let mut builder = Server::builder();
            for source in openapi::sources(&args.specs)? {
                builder = builder.source(source);
            }
            let server = builder.build()?;
            let json = server.tools_json();
            let text = serde_json::to_string_pretty(&json)
                .map_err(|error| CliError::Output(error.into()))?;
            let mut stdout = std::io::stdout().lock();
            writeln!(stdout, "{text}").map_err(CliError::Output)?;
            if args.stats {
                eprintln!("{} tools, {} bytes", server.tools().count(), text.len());
            }
            Ok(())
        }
        Command::Routes(args) => {
            let specs = super::args::SpecArgs {
                openapi: vec![args.openapi],
                base_url: None,
                headers: Vec::new(),
                route_map: None,
            };
            openapi::sources(&specs).map(|_| ())
        }
        Command::Demo(args) => demo::run(args).await,
    }
}
