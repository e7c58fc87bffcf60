//! The view of the tools a request asks for: over HTTP, the headers
//! `X-MCP-Toolsets: a,b` and `X-MCP-Readonly: true`, or the URLs
//! `/mcp/x/a,b`, `/mcp/x/a,b/readonly` and `/mcp/readonly` (for clients
//! that cannot send headers). A session keeps the view of its first
//! request; a stateless request is a session of its own.

use rmcp::ErrorData;
use rmcp::service::{RequestContext, RoleServer};

use crate::server::builder::unknown_toolset;
use crate::server::state::ServerState;
use crate::server::view::{ToolView, toolsets_of};

/// The header that selects toolsets.
#[cfg(feature = "http")]
pub(crate) const TOOLSETS_HEADER: &str = "x-mcp-toolsets";
/// The header that asks for read-only tools.
#[cfg(feature = "http")]
pub(crate) const READONLY_HEADER: &str = "x-mcp-readonly";

/// What one request asks for: toolsets (`None`: all) and read-only.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Asked {
    toolsets: Option<Vec<String>>,
    read_only: bool,
}

/// The server's view narrowed by what the request `context` asks for; a
/// toolset no hosted tool has is an error naming the toolsets there are.
pub(crate) fn view_of<C: Send + Sync + 'static>(
    state: &ServerState<C>,
    context: &RequestContext<RoleServer>,
) -> Result<ToolView, ErrorData> {
    let asked = asked(context);
    if let Some(toolsets) = &asked.toolsets {
        let known = toolsets_of(&state.catalog());
        if let Some(name) = unknown_toolset(toolsets, &known) {
            return Err(ErrorData::invalid_params(
                format!(
                    "unknown toolset `{name}`; the toolsets are: {}",
                    known.join(", ")
                ),
                None,
            ));
        }
    }
    Ok(state.view().narrowed(asked.toolsets, asked.read_only))
}

/// What the HTTP request behind `context` asks for (nothing over stdio).
#[cfg(feature = "http")]
fn asked(context: &RequestContext<RoleServer>) -> Asked {
    let Some(parts) = context.extensions.get::<http::request::Parts>() else {
        return Asked::default();
    };
    let header = |name: &str| {
        parts
            .headers
            .get(name)
            .and_then(|value| value.to_str().ok())
    };
    let mut asked = from_path(parts.uri.path());
    if let Some(list) = header(TOOLSETS_HEADER) {
        asked.toolsets = toolset_list(list);
    }
    if let Some(flag) = header(READONLY_HEADER) {
        asked.read_only |= matches!(
            flag.trim().to_ascii_lowercase().as_str(),
            "true" | "1" | "yes"
        );
    }
    asked
}

#[cfg(not(feature = "http"))]
fn asked(_: &RequestContext<RoleServer>) -> Asked {
    Asked::default()
}

/// What an endpoint path asks for: `.../x/{toolsets}[/readonly]` or
/// `.../readonly`.
#[cfg(feature = "http")]
fn from_path(path: &str) -> Asked {
    let (path, read_only) = match path.strip_suffix("/readonly") {
        Some(rest) => (rest, true),
        None => (path, false),
    };
    let toolsets = path.rsplit_once("/x/").and_then(|(_, segment)| {
        let decoded = percent_encoding::percent_decode_str(segment).decode_utf8_lossy();
        toolset_list(&decoded)
    });
    Asked {
        toolsets,
        read_only,
    }
}

/// The toolsets of a comma-separated list; `all` (or nothing) is all.
#[cfg(feature = "http")]
fn toolset_list(list: &str) -> Option<Vec<String>> {
    let names: Vec<String> = list
        .split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(str::to_owned)
        .collect();
    if names.is_empty() || names.iter().any(|name| name.eq_ignore_ascii_case("all")) {
        return None;
    }
    Some(names)
}

#[cfg(all(test, feature = "http"))]
mod tests {
    use super::*;

    #[test]
    fn paths_select_toolsets_and_the_read_only_view() {
        let names = |names: &[&str]| Some(names.iter().map(|name| (*name).to_owned()).collect());
        assert_eq!(from_path("/mcp"), Asked::default());
        assert_eq!(
            from_path("/mcp/readonly"),
            Asked {
                toolsets: None,
                read_only: true
            }
        );
        assert_eq!(
            from_path("/mcp/x/issues,pull%20requests"),
            Asked {
                toolsets: names(&["issues", "pull requests"]),
                read_only: false
            }
        );
        assert_eq!(
            from_path("/mcp/x/issues/readonly"),
            Asked {
                toolsets: names(&["issues"]),
                read_only: true
            }
        );
        assert_eq!(from_path("/mcp/x/all"), Asked::default());
        assert_eq!(toolset_list(" a, ,b "), names(&["a", "b"]));
    }
}
