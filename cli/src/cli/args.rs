//! The command-line contract: subcommands, flags and their defaults.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use super::overlay_args::OverlayArgs;
use super::schema_budget::SchemaBudget;
use super::serving_args::{ModeArgs, ViewArgs};

/// Serve MCP tools (generated from OpenAPI documents, or hand-written) over
/// stdio or Streamable HTTP.
#[derive(Debug, Parser)]
#[command(name = "mcp-server", version, propagate_version = true)]
#[command(
    after_help = "Logs go to stderr (filter with RUST_LOG); in stdio mode stdout carries only MCP messages. \
                  Traces and metrics go out over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set."
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

impl Cli {
    /// The address of the Prometheus endpoint, when one is asked for.
    pub(crate) fn metrics_bind(&self) -> Option<SocketAddr> {
        match &self.command {
            Command::Serve(args) => args.metrics_bind,
            _ => None,
        }
    }
}

/// What to do.
#[derive(Debug, Subcommand)]
#[allow(clippy::large_enum_variant)] // parsed once per process
pub(crate) enum Command {
    /// Serve the tools generated from each OpenAPI document (stdio by default).
    ///
    /// On Unix, SIGHUP regenerates the tools from the files (with or without
    /// --watch) and swaps them in.
    Serve(Box<ServeArgs>),
    /// Print `{"tools":[...]}` exactly as `tools/list` would return it, then exit
    /// (indented on a terminal, compact JSON otherwise).
    Tools(ToolsArgs),
    /// Print the routes (the intermediate representation) of a document, one a line.
    Routes(RoutesArgs),
    /// Serve an embedded Petstore document against an embedded in-process
    /// Petstore API plus hand-written tools, and print how to connect.
    Demo(DemoArgs),
}

/// Where the tools come from.
#[derive(Debug, Args)]
pub(crate) struct SpecArgs {
    /// `--overlay FILE`s, each for the `--openapi` before it. Declared
    /// first: it reads where the `--openapi` values stand before their own
    /// field takes them out of the matches.
    #[command(flatten)]
    pub(crate) overlays: OverlayArgs,
    /// An OpenAPI document (path, JSON or YAML); `NAME=SPEC` prefixes its tools
    /// with `NAME_`. Repeatable.
    #[arg(long = "openapi", value_name = "[NAME=]SPEC")]
    pub(crate) openapi: Vec<String>,
    /// The API's base URL (overrides the document's `servers`).
    #[arg(long, value_name = "URL")]
    pub(crate) base_url: Option<String>,
    /// An HTTP header sent with every API call, as `'Name: value'`. Repeatable.
    #[arg(long = "header", value_name = "'K: V'", value_parser = parse_header)]
    pub(crate) headers: Vec<(String, String)>,
    /// A route-map file deciding which operations become tools, resources or nothing.
    #[arg(long, value_name = "FILE")]
    pub(crate) route_map: Option<PathBuf>,
    /// How generated schemas are written: `standard` (JSON Schema 2020-12, shared
    /// definitions under `$defs`) or `inline` (references inlined, cycles cut),
    /// for clients that cannot follow `$ref`.
    #[arg(long, value_name = "PROFILE", default_value = "standard")]
    pub(crate) schema_profile: mcp_openapi::schema::SchemaProfile,
    /// The most bytes (compact JSON) of each generated output schema: `full`,
    /// a number of bytes, or of KiB (`64k`). A larger output schema is
    /// loosened until it fits, never made wrong (expandable IDs-or-objects
    /// become a string or an object, definitions that do not fit become
    /// their type and name); `full` keeps output schemas whole. Input
    /// schemas are never trimmed. 4k unless given; with --code-mode, `full`
    /// (`tools/list` does not show them there, and search answers size
    /// their declarations themselves).
    #[arg(long, value_name = "BYTES|full")]
    pub(crate) output_schema_budget: Option<SchemaBudget>,
    /// Whether the tools are served in code mode (set from --code-mode).
    #[arg(skip)]
    pub(crate) code_mode: bool,
    /// The most bytes read of an API's response to a tool call; a longer
    /// successful response makes the call an error, read no further.
    #[arg(long, value_name = "BYTES", default_value_t = mcp_openapi::call::DEFAULT_MAX_RESPONSE_BYTES)]
    pub(crate) max_response_bytes: usize,
    /// Give every generated tool whose result is JSON (an object, or a list
    /// of objects) an optional `fields` argument: the top-level names or
    /// dotted paths (`user.login`) of the result to keep, of each item of a
    /// list. It is never sent to the API; the tool's output schema is
    /// loosened to match. A tool with its own `fields` input is left as it is.
    #[arg(long)]
    pub(crate) result_fields: bool,
    /// A file of tool transformations, applied to the generated tools after
    /// prefixes: one table per tool by its served name, renaming it, renaming,
    /// hiding or restricting its arguments, trimming its results. TOML for
    /// `.toml`, YAML for `.yaml`, `.yml` (and `.json`).
    #[arg(long, value_name = "FILE")]
    pub(crate) transform: Option<PathBuf>,
}

impl SpecArgs {
    /// Every file these flags read, in flag order: what `serve --watch`
    /// watches. A flag that names a file adds it here (and to the help of
    /// `--watch`).
    pub(crate) fn watched_paths(&self) -> Vec<PathBuf> {
        let mut paths = Vec::new();
        for (index, raw) in self.openapi.iter().enumerate() {
            paths.push(PathBuf::from(spec_ref(raw).path));
            paths.extend(self.overlays.of_document(index).iter().cloned());
        }
        paths.extend(self.route_map.clone());
        paths.extend(self.transform.clone());
        paths
    }
}

/// One `--openapi [NAME=]SPEC` argument.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct SpecRef<'a> {
    /// The tool-name prefix (`NAME_`), when given.
    pub(crate) name: Option<&'a str>,
    /// The document's path.
    pub(crate) path: &'a str,
}

/// Splits `NAME=SPEC`; a `=` inside a path (no valid name before it) is part
/// of the path.
pub(crate) fn spec_ref(raw: &str) -> SpecRef<'_> {
    match raw.split_once('=') {
        Some((name, path))
            if !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') =>
        {
            SpecRef {
                name: Some(name),
                path,
            }
        }
        _ => SpecRef {
            name: None,
            path: raw,
        },
    }
}

/// `TOOL=SCOPE[,SCOPE...]`.
fn parse_tool_scopes(raw: &str) -> Result<(String, Vec<String>), String> {
    let (tool, scopes) = raw
        .split_once('=')
        .ok_or_else(|| format!("`{raw}` is not TOOL=SCOPE[,SCOPE...]"))?;
    let scopes: Vec<String> = scopes
        .split(',')
        .map(str::trim)
        .filter(|scope| !scope.is_empty())
        .map(str::to_owned)
        .collect();
    if tool.is_empty() || scopes.is_empty() {
        return Err(format!("`{raw}` is not TOOL=SCOPE[,SCOPE...]"));
    }
    Ok((tool.to_owned(), scopes))
}

/// How to serve.
#[derive(Debug, Args)]
pub(crate) struct TransportArgs {
    /// Streamable HTTP address to listen on (the endpoint is `/mcp`). Beyond
    /// loopback, also pass `--allow-host` with the name clients use.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8000")]
    pub(crate) bind: SocketAddr,
    /// Serve HTTP without sessions, so replicas can sit behind any load balancer.
    #[arg(long)]
    pub(crate) stateless: bool,
    /// Require `Authorization: Bearer TOKEN` on every HTTP request.
    #[arg(
        long,
        value_name = "TOKEN",
        env = "MCP_SERVER_AUTH_TOKEN",
        hide_env_values = true
    )]
    pub(crate) auth_token: Option<String>,
    /// Accept OAuth 2.1 access tokens issued by this authorization server
    /// (its exact `iss`; https unless on loopback). Repeatable. Needs
    /// `--public-url`.
    #[arg(
        long = "oauth-issuer",
        value_name = "URL",
        requires = "public_url",
        conflicts_with = "auth_token"
    )]
    pub(crate) oauth_issuers: Vec<String>,
    /// The server's canonical URL (for example `https://mcp.example.com/mcp`):
    /// the resource tokens must be issued for, and their default audience.
    #[arg(long, value_name = "URL", requires = "oauth_issuers")]
    pub(crate) public_url: Option<String>,
    /// Accept tokens whose `aud` holds this value instead of the public URL. Repeatable.
    #[arg(
        long = "oauth-audience",
        value_name = "AUD",
        requires = "oauth_issuers"
    )]
    pub(crate) oauth_audiences: Vec<String>,
    /// A scope every request's token needs (403 without it). Repeatable.
    #[arg(long = "oauth-scope", value_name = "SCOPE", requires = "oauth_issuers")]
    pub(crate) oauth_scopes: Vec<String>,
    /// Scopes a call of one tool needs, as `TOOL=SCOPE[,SCOPE...]`. Repeatable.
    #[arg(long = "oauth-tool-scope", value_name = "TOOL=SCOPES", value_parser = parse_tool_scopes, requires = "oauth_issuers")]
    pub(crate) oauth_tool_scopes: Vec<(String, Vec<String>)>,
    /// Also accept opaque tokens, asking this RFC 7662 introspection endpoint
    /// (as `--oauth-client-id` with `MCP_SERVER_OAUTH_CLIENT_SECRET`).
    #[arg(long, value_name = "URL", requires_all = ["oauth_issuers", "oauth_client_id"])]
    pub(crate) oauth_introspection: Option<String>,
    /// The server's own OAuth client id, for introspection.
    #[arg(long, value_name = "ID", requires = "oauth_introspection")]
    pub(crate) oauth_client_id: Option<String>,
    /// The server's own OAuth client secret, for introspection.
    #[arg(
        long,
        value_name = "SECRET",
        env = "MCP_SERVER_OAUTH_CLIENT_SECRET",
        hide_env_values = true
    )]
    pub(crate) oauth_client_secret: Option<String>,
    /// Also accept this `Host` header (default: localhost, 127.0.0.1, ::1). Repeatable.
    #[arg(long = "allow-host", value_name = "HOST")]
    pub(crate) allow_hosts: Vec<String>,
    /// Also accept this browser `Origin` (default: loopback origins). Repeatable.
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    pub(crate) allow_origins: Vec<String>,
    /// The largest accepted HTTP request body, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = 4 * 1024 * 1024)]
    pub(crate) max_body_bytes: usize,
    /// The most live HTTP sessions; beyond, a new one ends the session idle
    /// longest (never-used ones first), and only when every session is busy
    /// is it refused with 503.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub(crate) max_sessions: usize,
    /// End an HTTP session after this many seconds without a message (its
    /// id then answers 404 and the client initializes again).
    #[arg(long, value_name = "SECONDS", default_value_t = 30 * 60)]
    pub(crate) session_idle_secs: u64,
    /// End an HTTP session that made no request after `initialize` after
    /// this many seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    pub(crate) unused_session_secs: u64,
    /// The most requests one HTTP session may have in flight (429 beyond).
    #[arg(long, value_name = "N", default_value_t = 64)]
    pub(crate) max_pending_requests: usize,
    /// The most tasks one HTTP session may keep, running or finished and
    /// kept for their TTL.
    #[arg(long, value_name = "N", default_value_t = 256)]
    pub(crate) max_session_tasks: usize,
    /// The number of tools per `tools/list` page.
    #[arg(long, value_name = "N", default_value_t = mcp_server::DEFAULT_PAGE_SIZE)]
    pub(crate) page_size: usize,
    /// With --state, how long this replica counts as alive without renewing
    /// its heartbeat (it renews every third of it); the tasks of a replica
    /// that stopped are reported failed after this long.
    #[arg(long, value_name = "SECONDS", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) task_heartbeat_secs: u64,
}

impl TransportArgs {
    /// The task heartbeat --task-heartbeat-secs sets.
    pub(crate) fn task_heartbeat(&self) -> std::time::Duration {
        std::time::Duration::from_secs(self.task_heartbeat_secs)
    }
}

impl SpecArgs {
    /// The output schema budget: the one given, else whole schemas in code
    /// mode and the generator's default otherwise.
    pub(crate) fn output_budget(&self) -> Option<usize> {
        match self.output_schema_budget {
            Some(budget) => budget.0,
            None if self.code_mode => None,
            None => SchemaBudget::default().0,
        }
    }
}

/// `serve`.
#[derive(Debug, Args)]
pub(crate) struct ServeArgs {
    #[command(flatten)]
    pub(crate) specs: SpecArgs,
    #[command(flatten)]
    pub(crate) mode: ModeArgs,
    #[command(flatten)]
    pub(crate) view: ViewArgs,
    /// The transport.
    #[arg(long, value_enum, default_value_t = Transport::Stdio)]
    pub(crate) transport: Transport,
    #[command(flatten)]
    pub(crate) serving: TransportArgs,
    /// Share sessions (and tasks) with the other replicas of this server
    /// through Redis at this URL, `redis://HOST:PORT[/DB]`, so a load
    /// balancer may send any request to any replica. Needs `--transport http`.
    #[arg(long, value_name = "URL")]
    pub(crate) state: Option<String>,
    /// Regenerate the tools when a file named by --openapi, --overlay,
    /// --route-map or --transform changes, and swap them in.
    ///
    /// Each file's directory is watched, so editors that replace the file
    /// are seen, and a burst of writes makes one regeneration. Clients are
    /// sent notifications/tools/list_changed (and resources/list_changed);
    /// calls already running finish with the tools they started with. When
    /// a document no longer loads, the previous tools stay and one error
    /// line goes to stderr. SIGHUP (Unix) regenerates with or without this
    /// flag.
    #[arg(long)]
    pub(crate) watch: bool,
    /// Serve the metrics in the Prometheus text format at
    /// `http://ADDR/metrics` (OTLP export needs no flag: set
    /// OTEL_EXPORTER_OTLP_ENDPOINT).
    #[arg(long, value_name = "ADDR")]
    pub(crate) metrics_bind: Option<SocketAddr>,
}

/// `tools`.
#[derive(Debug, Args)]
pub(crate) struct ToolsArgs {
    #[command(flatten)]
    pub(crate) specs: SpecArgs,
    #[command(flatten)]
    pub(crate) mode: ModeArgs,
    #[command(flatten)]
    pub(crate) view: ViewArgs,
    /// Print counts and sizes to stderr as well.
    #[arg(long)]
    pub(crate) stats: bool,
}

/// `routes`.
#[derive(Debug, Args)]
pub(crate) struct RoutesArgs {
    /// `--overlay FILE`s for the document (first, as in [`SpecArgs`]).
    #[command(flatten)]
    pub(crate) overlays: OverlayArgs,
    /// The OpenAPI document.
    #[arg(long = "openapi", value_name = "SPEC", required = true)]
    pub(crate) openapi: String,
}

/// `demo`.
#[derive(Debug, Args)]
pub(crate) struct DemoArgs {
    /// The transport (`stdio` prints the connection notes to stderr).
    #[arg(long, value_enum, default_value_t = Transport::Http)]
    pub(crate) transport: Transport,
    /// Call the Petstore API at this base URL (one another demo printed)
    /// instead of embedding one, so that several demo replicas share one.
    #[arg(long, value_name = "URL")]
    pub(crate) api: Option<String>,
    /// Share sessions (and tasks) with the other replicas of the demo
    /// through Redis at this URL, `redis://HOST:PORT[/DB]`, as `serve
    /// --state` does. Needs `--transport http`.
    #[arg(long, value_name = "URL")]
    pub(crate) state: Option<String>,
    #[command(flatten)]
    pub(crate) serving: TransportArgs,
}

/// A transport.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Transport {
    /// Standard input and output.
    Stdio,
    /// Streamable HTTP at `http://ADDR/mcp`.
    Http,
}

fn parse_header(raw: &str) -> Result<(String, String), String> {
    let (name, value) = raw
        .split_once(':')
        .ok_or_else(|| format!("`{raw}` is not a header: write it as 'Name: value'"))?;
    let name = name.trim();
    http::HeaderName::from_bytes(name.as_bytes())
        .map_err(|_| format!("`{name}` is not a valid header name"))?;
    let value = value.trim();
    http::HeaderValue::from_str(value)
        .map_err(|_| format!("the value of header `{name}` is not valid"))?;
    Ok((name.to_owned(), value.to_owned()))
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn the_cli_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn names_are_optional_prefixes() {
        assert_eq!(
            spec_ref("gh=api.json"),
            SpecRef {
                name: Some("gh"),
                path: "api.json"
            }
        );
        assert_eq!(
            spec_ref("api.json"),
            SpecRef {
                name: None,
                path: "api.json"
            }
        );
        assert_eq!(
            spec_ref("./a=b.json"),
            SpecRef {
                name: None,
                path: "./a=b.json"
            }
        );
    }

    #[test]
    fn every_file_flag_is_watched() {
        let cli = Cli::try_parse_from([
            "mcp-server",
            "serve",
            "--openapi",
            "gh=specs/github.json",
            "--overlay",
            "fixes.overlay.yaml",
            "--openapi",
            "petstore.yaml",
            "--route-map",
            "routes.toml",
            "--transform",
            "curated.toml",
            "--base-url",
            "http://127.0.0.1:1",
            "--watch",
        ])
        .unwrap();
        let Command::Serve(serve) = cli.command else {
            panic!("not `serve`");
        };
        assert!(serve.watch);
        assert_eq!(
            serve.specs.watched_paths(),
            [
                PathBuf::from("specs/github.json"),
                PathBuf::from("fixes.overlay.yaml"),
                PathBuf::from("petstore.yaml"),
                PathBuf::from("routes.toml"),
                PathBuf::from("curated.toml")
            ]
        );
    }

    #[test]
    fn headers_parse_or_say_why_not() {
        assert_eq!(
            parse_header("X-Key: a b").unwrap(),
            ("X-Key".to_owned(), "a b".to_owned())
        );
        assert!(
            parse_header("nocolon")
                .unwrap_err()
                .contains("'Name: value'")
        );
        assert!(
            parse_header("bad name: x")
                .unwrap_err()
                .contains("not a valid header name")
        );
    }
}
