//! The `mcp-server` command: serve MCP tools generated from OpenAPI
//! documents, or the demo, over stdio or Streamable HTTP.

mod cli;
#[cfg(test)]
mod readme_commands;

use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;

/// mimalloc: a server of a large document makes and frees millions of
/// small values while it loads; the system allocator spends a third of
/// that time on its free lists. Built with `no_thp`: transparent huge
/// pages would round every arena up to 2 MiB of resident memory, which
/// costs a server of a small document half its footprint.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
    // Before the runtime: dropped after it, the guard flushes what is buffered.
    let telemetry = match cli::telemetry::init(cli.metrics_bind().is_some()) {
        Ok(telemetry) => telemetry,
        Err(error) => {
            eprintln!("mcp-server: {error}");
            return ExitCode::FAILURE;
        }
    };
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
    let outcome = runtime.block_on(cli::run(cli, telemetry.prometheus()));
    drop(runtime);
    drop(telemetry);
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("mcp-server: {error}");
            ExitCode::FAILURE
        }
    }
}
