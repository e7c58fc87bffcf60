//! How the command line serves: its HTTP settings, and the lines that say
//! where the server listens.

use std::io::Write;

use mcp_server::HttpConfig;
use mcp_server::auth::{Auth, AuthError, Introspection, OAuth};

use super::args::TransportArgs;

/// The HTTP settings of the command line.
pub(crate) fn http_config(args: &TransportArgs) -> Result<HttpConfig, AuthError> {
    let mut config = HttpConfig::new()
        .stateless(args.stateless)
        .max_body_bytes(args.max_body_bytes)
        .max_sessions(args.max_sessions)
        .session_idle_timeout(std::time::Duration::from_secs(args.session_idle_secs))
        .unused_session_grace(std::time::Duration::from_secs(args.unused_session_secs))
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
    if let Some(public_url) = &args.public_url {
        config = config.auth(Auth::oauth(oauth(args, public_url)?)?);
    }
    Ok(config)
}

/// The OAuth settings of the `--oauth-*` flags.
fn oauth(args: &TransportArgs, public_url: &str) -> Result<OAuth, AuthError> {
    let mut oauth = OAuth::new(public_url)?;
    for issuer in &args.oauth_issuers {
        oauth = oauth.issuer(issuer)?;
    }
    for audience in &args.oauth_audiences {
        oauth = oauth.audience(audience.clone());
    }
    for scope in &args.oauth_scopes {
        oauth = oauth.scope(scope.clone());
    }
    for (tool, scopes) in &args.oauth_tool_scopes {
        oauth = oauth.tool_scopes(tool.clone(), scopes.iter().cloned());
    }
    if let (Some(endpoint), Some(client_id)) = (&args.oauth_introspection, &args.oauth_client_id) {
        let secret = args.oauth_client_secret.clone().unwrap_or_default();
        oauth = oauth.introspection(Introspection::new(endpoint, client_id.clone(), secret)?);
    }
    Ok(oauth)
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
