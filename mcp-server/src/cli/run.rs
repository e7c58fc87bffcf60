//! Running a parsed command.

use std::io::Write;

use mcp_server::{Discovery, Server, ToolSource};

use super::args::{Cli, Command, Transport};
use super::error::CliError;
use super::serve::{announce, http_config};
use super::{demo, openapi, reload};

/// A server of the sources' tools and resources.
fn server_of(
    sources: Vec<ToolSource>,
    page_size: usize,
    discovery: Option<Discovery>,
) -> Result<Server, CliError> {
    let mut builder = Server::builder().page_size(page_size);
    if let Some(discovery) = discovery {
        builder = builder.discovery(discovery);
    }
    for source in sources {
        builder = builder.source(source);
    }
    Ok(builder.build()?)
}

/// Runs `cli`'s command.
pub(crate) async fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::Serve(args) => {
            let sources = openapi::tool_sources(&args.specs)?;
            if sources.is_empty() {
                tracing::warn!("no --openapi document given: serving no tools");
            }
            let server = server_of(sources, args.serving.page_size, args.discovery.settings())?;
            let _reloading = reload::start(server.clone(), args.specs, args.watch)?;
            match args.transport {
                Transport::Stdio => server.serve_stdio().await?,
                Transport::Http => {
                    let http = server
                        .bind_http(args.serving.bind, http_config(&args.serving))
                        .await?;
                    let url = http.url();
                    let running = http.run();
                    announce(&[url]);
                    running.await?;
                }
            }
            Ok(())
        }
        Command::Tools(args) => {
            let server = server_of(
                openapi::tool_sources(&args.specs)?,
                mcp_server::DEFAULT_PAGE_SIZE,
                args.discovery.settings(),
            )?;
            let json = server.tools_json();
            let text = serde_json::to_string_pretty(&json)
                .map_err(|error| CliError::Output(error.into()))?;
            let mut stdout = std::io::stdout().lock();
            writeln!(stdout, "{text}").map_err(CliError::Output)?;
            if args.stats {
                eprintln!("{}", mcp_openapi::generate::tool_stats(&server.tools()));
            }
            Ok(())
        }
        Command::Routes(args) => {
            let lines = openapi::routes(&args.openapi, args.overlays.of_document(0))?;
            let mut stdout = std::io::stdout().lock();
            for line in lines {
                writeln!(stdout, "{line}").map_err(CliError::Output)?;
            }
            Ok(())
        }
        Command::Demo(args) => demo::run(args).await,
    }
}
