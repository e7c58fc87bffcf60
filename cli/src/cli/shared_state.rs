//! `--state redis://HOST:PORT[/DB]`: the store replicas share, HTTP only.

use mcp_server::store::RedisStore;

use super::args::Transport;
use super::error::CliError;

/// The store `--state` names, connected; `None` without the flag.
pub(crate) async fn connect(
    url: Option<&str>,
    transport: Transport,
) -> Result<Option<RedisStore>, CliError> {
    match (url, transport) {
        (None, _) => Ok(None),
        (Some(_), Transport::Stdio) => Err(CliError::StateNeedsHttp),
        (Some(url), Transport::Http) => {
            let store = RedisStore::connect(url).await?;
            tracing::info!(redis = store.url(), "sharing sessions through Redis");
            Ok(Some(store))
        }
    }
}
