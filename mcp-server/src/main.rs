//! The `mcp-server` command: serve MCP tools generated from OpenAPI
//! documents, or the demo, over stdio or Streamable HTTP.

mod cli;

use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;
use tracing_subscriber::EnvFilter;

fn main() -> ExitCode {
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            return match error.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    let _ = error.print();
                    ExitCode::SUCCESS
                }
                ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    let _ = error.print();
                    ExitCode::from(2)
                }
                _ => {
                    let rendered = error.render().to_string();
                    let line = rendered
                        .lines()
                        .next()
                        .unwrap_or("error: invalid arguments");
                    eprintln!("mcp-server: {}", line.trim_start_matches("error: "));
                    ExitCode::from(2)
                }
            };
        }
    };
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .init();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("mcp-server: cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(cli::run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("mcp-server: {error}");
            ExitCode::FAILURE
        }
    }
}
