//! What a server serves: every tool or the meta-tools of discovery or
//! code mode (`--discovery`, `--code-mode` and their settings), and which
//! tools (`--toolsets`, `--read-only`, `--max-result-bytes`).

use clap::Args;

/// What `tools/list` shows: every tool, or the meta-tools of discovery
/// mode or code mode.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("meta_tools").args(["discovery", "code_mode"])))]
pub(crate) struct ModeArgs {
    /// List only the meta-tools `search_tools` and `call_tool` (plus
    /// --pin tools): the model searches the tools by task and runs them by
    /// name; every tool stays callable directly.
    #[arg(long)]
    pub(crate) discovery: bool,
    /// List only the meta-tools `search_tools` and `execute` (plus --pin
    /// tools): the model finds tools as TypeScript declarations and runs a
    /// JavaScript script that chains their calls in a sandbox, getting back
    /// only what the script returns; every tool stays callable directly.
    #[arg(long)]
    pub(crate) code_mode: bool,
    /// With --discovery or --code-mode, also list this tool. Repeatable.
    #[arg(long = "pin", value_name = "NAME", requires = "meta_tools")]
    pub(crate) pins: Vec<String>,
    /// With --code-mode, the wall time of one script, waiting on tools
    /// included.
    #[arg(long, value_name = "SECS", default_value_t = 30, requires = "code_mode", value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub(crate) code_timeout: u64,
    /// With --code-mode, the memory of one script's JavaScript runtime.
    #[arg(long, value_name = "MIB", default_value_t = 64, requires = "code_mode", value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub(crate) code_memory: u64,
    /// With --code-mode, the tool calls one script may make.
    #[arg(long, value_name = "N", default_value_t = 100, requires = "code_mode", value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub(crate) code_max_calls: u64,
}

impl ModeArgs {
    /// `builder` in the mode these flags ask for.
    pub(crate) fn apply(&self, builder: mcp_server::ServerBuilder) -> mcp_server::ServerBuilder {
        let pins = self.pins.iter().cloned();
        if self.discovery {
            return builder.discovery(mcp_server::Discovery::search().pin(pins));
        }
        if self.code_mode {
            let mib = usize::try_from(self.code_memory).unwrap_or(usize::MAX);
            let calls = usize::try_from(self.code_max_calls).unwrap_or(usize::MAX);
            return builder.code_mode(
                mcp_server::CodeMode::new()
                    .pin(pins)
                    .timeout(std::time::Duration::from_secs(self.code_timeout))
                    .memory_limit(mib.saturating_mul(1024 * 1024))
                    .max_calls(calls),
            );
        }
        builder
    }
}

/// Which tools are served: some toolsets, only read-only ones.
#[derive(Debug, Args)]
pub(crate) struct ViewArgs {
    /// Serve only the tools of these toolsets (each OpenAPI tag is a
    /// toolset; `all` is every tool). Over HTTP a client may narrow them for
    /// its session with the header `X-MCP-Toolsets: a,b` or the URL
    /// `/mcp/x/a,b`.
    #[arg(
        long,
        value_name = "NAME,...",
        value_delimiter = ',',
        default_value = "all"
    )]
    pub(crate) toolsets: Vec<String>,
    /// Serve only read-only tools (annotations `readOnlyHint: true`: GET,
    /// HEAD and OPTIONS operations unless an overlay or transform says
    /// otherwise). Over HTTP a client may ask for it alone with
    /// `X-MCP-Readonly: true` or a `/readonly` URL suffix.
    #[arg(long)]
    pub(crate) read_only: bool,
    /// The most bytes of a tool result sent to the client (0: no bound). A
    /// larger JSON result is cut at whole items (array elements, object
    /// members) and stays valid JSON, with a note saying what was cut and a
    /// link to the whole result (readable with resources/read for a while);
    /// a transform file's `result.max_bytes` sets it per tool.
    #[arg(long, value_name = "BYTES", default_value_t = 32_000)]
    pub(crate) max_result_bytes: usize,
}

impl ViewArgs {
    /// `builder` serving the tools these flags select.
    pub(crate) fn apply(&self, builder: mcp_server::ServerBuilder) -> mcp_server::ServerBuilder {
        let all = self
            .toolsets
            .iter()
            .any(|name| name.eq_ignore_ascii_case("all"));
        let bound = (self.max_result_bytes > 0).then_some(self.max_result_bytes);
        let builder = builder.read_only(self.read_only).max_result_bytes(bound);
        if all || self.toolsets.is_empty() {
            builder
        } else {
            builder.toolsets(self.toolsets.iter().cloned())
        }
    }
}
