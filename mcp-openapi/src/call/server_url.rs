//! The base URL a route's requests go to.
//!
//! Precedence: the configured override (`--base-url`, `ClientConfigBuilder::base_url`)
//! replaces every server of the document; else the first of the route's
//! servers (operation-level, else path-level, else document-level: parsing
//! has already picked them) with its `{variables}` substituted, configured
//! values first, else the variable's default.

use std::collections::BTreeMap;

use url::Url;

use crate::call::error::CallError;
use crate::ir::ServerInfo;

/// Resolves the base URL for a route whose servers are `servers`.
///
/// A configured variable value outside the variable's `enum` is refused; a
/// relative server URL (`/api/v3`) needs an override, since the document's
/// own location is not known here.
pub(crate) fn resolve_base_url(
    servers: &[ServerInfo],
    override_url: Option<&Url>,
    variables: &BTreeMap<String, String>,
) -> Result<Url, CallError> {
    if let Some(url) = override_url {
        return check_scheme(url.clone());
    }
    let server = servers.first().ok_or_else(|| {
        CallError::BaseUrl("the document names no server: configure a base url".to_owned())
    })?;
    let mut text = String::with_capacity(server.url.len());
    let mut rest = server.url.as_str();
    while let Some(open) = rest.find('{') {
        text.push_str(&rest[..open]);
        let close = rest[open..].find('}').map(|c| open + c).ok_or_else(|| {
            CallError::BaseUrl(format!("server url `{}` has an unclosed `{{`", server.url))
        })?;
        let name = &rest[open + 1..close];
        let variable = server.variables.get(name);
        let value = match (variables.get(name), variable) {
            (Some(value), Some(variable))
                if !variable.allowed.is_empty() && !variable.allowed.contains(value) =>
            {
                return Err(CallError::BaseUrl(format!(
                    "server variable `{name}`: `{value}` is not one of {}",
                    variable.allowed.join(", ")
                )));
            }
            (Some(value), _) => value.as_str(),
            (None, Some(variable)) => variable.default.as_str(),
            (None, None) => {
                return Err(CallError::BaseUrl(format!(
                    "server variable `{name}` has no value"
                )));
            }
        };
        text.push_str(value);
        rest = &rest[close + 1..];
    }
    text.push_str(rest);
    match Url::parse(&text) {
        Ok(url) => check_scheme(url),
        Err(url::ParseError::RelativeUrlWithoutBase) => Err(CallError::BaseUrl(format!(
            "server url `{text}` is relative: configure a base url"
        ))),
        Err(error) => Err(CallError::BaseUrl(format!("server url `{text}`: {error}"))),
    }
}

fn check_scheme(url: Url) -> Result<Url, CallError> {
    match url.scheme() {
        "http" | "https" if url.has_host() => Ok(url),
        _ => Err(CallError::BaseUrl(format!(
            "`{url}` is not an http(s) url with a host"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn server(value: serde_json::Value) -> Vec<ServerInfo> {
        serde_json::from_value(json!([value])).unwrap_or_default()
    }

    #[test]
    fn substitutes_defaults_and_overrides() {
        let servers = server(json!({
            "url": "https://{region}.example.com:{port}/v1",
            "description": null,
            "variables": {
                "region": {"default": "eu", "allowed": ["eu", "us"], "description": null},
                "port": {"default": "443", "allowed": [], "description": null}
            }
        }));
        let none = BTreeMap::new();
        let url = resolve_base_url(&servers, None, &none).map(String::from);
        assert_eq!(url.ok().as_deref(), Some("https://eu.example.com/v1"));
        let us = BTreeMap::from([
            ("region".to_owned(), "us".to_owned()),
            ("port".to_owned(), "8443".to_owned()),
        ]);
        let url = resolve_base_url(&servers, None, &us).map(String::from);
        assert_eq!(url.ok().as_deref(), Some("https://us.example.com:8443/v1"));
        let bad = BTreeMap::from([("region".to_owned(), "mars".to_owned())]);
        assert!(resolve_base_url(&servers, None, &bad).is_err());
    }

    #[test]
    fn override_wins_and_relative_needs_one() {
        let servers = server(json!({"url": "/api/v3", "description": null, "variables": {}}));
        assert!(resolve_base_url(&servers, None, &BTreeMap::new()).is_err());
        let base = Url::parse("http://127.0.0.1:9/").ok();
        let url = resolve_base_url(&servers, base.as_ref(), &BTreeMap::new()).map(String::from);
        assert_eq!(url.ok().as_deref(), Some("http://127.0.0.1:9/"));
        assert!(resolve_base_url(&[], None, &BTreeMap::new()).is_err());
    }
}
