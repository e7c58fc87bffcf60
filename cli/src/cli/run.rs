//! Running a parsed command.

use std::io::{BufWriter, IsTerminal, Write};
use std::time::Duration;

use mcp_core::Tool;
use mcp_server::store::RedisStore;
use mcp_server::telemetry::PrometheusMetrics;
use mcp_server::{Server, ToolSource};

use super::args::{Cli, Command, Transport};
use super::error::CliError;
use super::serve::{announce, http_config};
use super::serving_args::{ModeArgs, ViewArgs};
use super::{demo, openapi, reload};

/// `{"tools":[...]}` as `tools/list` has it, written to stdout as it is
/// serialized: indented for a person at a terminal, compact JSON for a
/// program (shared schema definitions are written, never assembled).
fn print_tools(tools: &[Tool]) -> Result<(), CliError> {
    #[derive(serde::Serialize)]
    struct ToolsList<'a> {
        tools: &'a [Tool],
    }
    let stdout = std::io::stdout();
    let pretty = stdout.is_terminal();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let list = ToolsList { tools };
    let written = if pretty {
        serde_json::to_writer_pretty(&mut out, &list)
    } else {
        serde_json::to_writer(&mut out, &list)
    };
    written.map_err(|error| CliError::Output(error.into()))?;
    writeln!(out).map_err(CliError::Output)?;
    out.flush().map_err(CliError::Output)
}

/// The most tools plain mode serves without advising search instead: past
/// it, a client lists every tool and a model reads every one of them.
const PLAIN_MODE_TOOLS: usize = 1_000;

/// Says at start-up, past [`PLAIN_MODE_TOOLS`], that discovery or code
/// mode fits `tools` tools better than plain mode.
fn advise_search(tools: usize) {
    if tools > PLAIN_MODE_TOOLS {
        tracing::warn!(
            tools,
            "{tools} tools in plain mode: every client lists them all and a model reads each one; \
             --discovery or --code-mode serve them through search instead"
        );
    }
}

/// A server of the sources' tools and resources; `shared` is the store
/// replicas share and the task heartbeat (with --state).
fn server_of(
    sources: Vec<ToolSource>,
    page_size: usize,
    mode: &ModeArgs,
    view: &ViewArgs,
    shared: Option<(RedisStore, Duration)>,
) -> Result<Server, CliError> {
    let mut builder = Server::builder()
        .name("mcp-server")
        .version(env!("CARGO_PKG_VERSION"))
        .page_size(page_size);
    if let Some((store, heartbeat)) = shared {
        builder = builder.store(store).task_heartbeat(heartbeat);
    }
    builder = view.apply(mode.apply(builder));
    for source in sources {
        builder = builder.source(source);
    }
    Ok(builder.build()?)
}

/// Runs `cli`'s command; `metrics` is the Prometheus view of the
/// process's metrics, when `--metrics-bind` asked for it.
pub(crate) async fn run(cli: Cli, metrics: Option<&PrometheusMetrics>) -> Result<(), CliError> {
    match cli.command {
        Command::Serve(mut args) => {
            args.specs.code_mode = args.mode.code_mode;
            if let (Some(addr), Some(metrics)) = (args.metrics_bind, metrics) {
                super::telemetry::serve_metrics(addr, metrics).await?;
            }
            let sources = openapi::tool_sources(&args.specs)?;
            if sources.is_empty() {
                tracing::warn!("no --openapi document given: serving no tools");
            }
            let store = super::shared_state::connect(args.state.as_deref(), args.transport).await?;
            let shared = store.map(|store| (store, args.serving.task_heartbeat()));
            let server = server_of(
                sources,
                args.serving.page_size,
                &args.mode,
                &args.view,
                shared,
            )?;
            if !(args.mode.discovery || args.mode.code_mode) {
                advise_search(server.listed_tools().len());
            }
            let _reloading = reload::start(server.clone(), args.specs, args.watch)?;
            match args.transport {
                Transport::Stdio => server.serve_stdio().await?,
                Transport::Http => {
                    let http = server
                        .bind_http(args.serving.bind, http_config(&args.serving)?)
                        .await?;
                    let url = http.url();
                    let running = http.run();
                    announce(&[url]);
                    running.await?;
                }
            }
            Ok(())
        }
        Command::Tools(mut args) => {
            args.specs.code_mode = args.mode.code_mode;
            let server = server_of(
                openapi::tool_sources(&args.specs)?,
                mcp_server::DEFAULT_PAGE_SIZE,
                &args.mode,
                &args.view,
                None,
            )?;
            // What `tools/list` returns: in discovery or code mode, the meta-tools and pins.
            let tools = server.listed_tools();
            print_tools(&tools)?;
            if args.stats {
                eprintln!("{}", mcp_openapi::generate::tool_stats(&tools));
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
