//! How the command line serves: its HTTP settings, and the lines that say
//! where the server listens.

use std::io::Write;

use mcp_server::HttpConfig;

use super::args::TransportArgs;

/// The HTTP settings of the command line.
pub(crate) fn http_config(args: &TransportArgs) -> HttpConfig {
    let mut config = HttpConfig::new()
        .stateless(args.stateless)
        .max_body_bytes(args.max_body_bytes)
        .max_sessions(args.max_sessions)
        .session_idle_timeout(std::time::Duration::from_secs(args.session_idle_secs))
        .max_pending_requests(args.max_pending_requests)
        .max_tasks_per_session(args.max_session_tasks);
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

/// Prints the lines that tell where the server listens. A closed or broken
/// stdout (`mcp-server demo | head -3`) must not stop the server it
/// announces: the failure is logged and serving goes on.
pub(crate) fn announce<S: AsRef<str>>(lines: &[S]) {
    let mut out = std::io::stdout().lock();
    let written = lines
        .iter()
        .try_for_each(|line| writeln!(out, "{}", line.as_ref()))
        .and_then(|()| out.flush());
    if let Err(error) = written {
        tracing::warn!("cannot print where the server listens: {error}");
    }
}
