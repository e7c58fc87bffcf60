//! The axum layer of an OAuth-protected endpoint: every request needs a
//! valid access token with the scopes it needs before the MCP service sees
//! its body.

use std::sync::Arc;

use axum::body::{Body, to_bytes};
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::{Method, StatusCode, header};
use mcp_core::auth::AuthInfo;
use serde_json::Value;

use super::challenge::Challenge;
use super::oauth::add_scopes;
use super::refusal::Refusal;
use super::token::{Presented, bearer};
use super::verify::Verifier;
use crate::discovery::view::CALL_TOOL;
#[cfg(feature = "code-mode")]
use crate::protocol::convert::ToolScopes;

/// The scopes the hosted tools declare (their definitions'
/// [`required_scopes`](mcp_core::ToolDef::required_scopes)), read at each
/// request so tools swapped in while serving count.
pub(crate) trait DeclaredScopes: Send + Sync {
    /// The scopes a call of `tool` needs.
    fn of_tool(&self, tool: &str) -> Vec<String>;
    /// Every scope some tool needs (repeats possible).
    fn all(&self) -> Vec<String>;
    /// Whether `tool` sends its caller's own credentials upstream.
    fn forwards_credentials(&self, tool: &str) -> bool;
}

/// What the layer needs: the verifier, where the metadata is, the tools'
/// scopes, and the body limit (a body read here for per-tool scopes obeys
/// it too).
#[derive(Clone)]
pub(crate) struct Gate {
    pub(crate) verifier: Arc<Verifier>,
    pub(crate) metadata_url: Arc<str>,
    pub(crate) declared: Arc<dyn DeclaredScopes>,
    pub(crate) max_body_bytes: usize,
}

impl std::fmt::Debug for Gate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gate")
            .field("metadata_url", &self.metadata_url)
            .finish_non_exhaustive()
    }
}

/// Lets a request through with its caller's claims in its extensions, or
/// answers the refusal.
pub(crate) async fn require_token(
    State(gate): State<Gate>,
    request: Request,
    next: Next,
) -> Response {
    let settings = gate.verifier.settings();
    let header = request
        .headers()
        .get(header::AUTHORIZATION)
        .map(|value| value.as_bytes());
    let token = match bearer(header) {
        Presented::Bearer(token) => token.to_owned(),
        Presented::Nothing => {
            return Challenge::Missing {
                scopes: settings.required_scopes(),
            }
            .response(&gate.metadata_url);
        }
        Presented::Malformed(description) => {
            return Challenge::InvalidToken { description }.response(&gate.metadata_url);
        }
    };
    let info = match gate.verifier.verify(&token).await {
        Ok(info) => info.with_access_token(token),
        Err(Refusal::Invalid(description)) => {
            tracing::info!(reason = %description, "refused an access token");
            return Challenge::InvalidToken {
                description: &description,
            }
            .response(&gate.metadata_url);
        }
        Err(Refusal::Unavailable(description)) => {
            tracing::warn!(reason = %description, "cannot check an access token");
            return Challenge::Unavailable {
                description: &description,
            }
            .response(&gate.metadata_url);
        }
    };
    if !missing_scopes(&info, settings.required_scopes()).is_empty() {
        return Challenge::InsufficientScope {
            scopes: settings.required_scopes(),
        }
        .response(&gate.metadata_url);
    }
    let request = if request.method() != Method::POST {
        request
    } else {
        match tool_scopes_granted(&gate, &info, request).await {
            Ok(request) => request,
            Err(response) => return response,
        }
    };
    let mut request = request;
    request.extensions_mut().insert(Arc::new(info));
    // Code mode's scripts call tools inside this request: they need the
    // scopes the settings ask of each.
    #[cfg(feature = "code-mode")]
    {
        let verifier = gate.verifier.clone();
        request
            .extensions_mut()
            .insert(ToolScopes(Arc::new(move |tool: &str| {
                verifier
                    .settings()
                    .tool_scopes
                    .get(tool)
                    .cloned()
                    .unwrap_or_default()
            })));
    }
    next.run(request).await
}

/// The request back when the token has the scopes of the tool it calls;
/// the refusal otherwise.
async fn tool_scopes_granted(
    gate: &Gate,
    info: &AuthInfo,
    request: Request,
) -> Result<Request, Response> {
    let (parts, body) = request.into_parts();
    let Ok(bytes) = to_bytes(body, gate.max_body_bytes).await else {
        return Err((StatusCode::PAYLOAD_TOO_LARGE, "request body too large").into_response());
    };
    if let Some(tool) = called_tool(&bytes) {
        if gate.declared.forwards_credentials(&tool) {
            tracing::error!(
                tool = %tool,
                "refused a call: the tool passes the caller's token upstream"
            );
            let message = format!(
                "tool `{tool}` passes the caller's Authorization header through to its upstream \
                 API, which an OAuth-protected server refuses; exchange the token instead"
            );
            return Err((StatusCode::INTERNAL_SERVER_ERROR, message).into_response());
        }
        let settings = gate.verifier.settings();
        let mut needed = settings
            .tool_scopes
            .get(tool.as_str())
            .cloned()
            .unwrap_or_default();
        add_scopes(&mut needed, gate.declared.of_tool(&tool));
        if !missing_scopes(info, &needed).is_empty() {
            let mut scopes = settings.required_scopes().to_vec();
            scopes.extend(needed);
            return Err(
                Challenge::InsufficientScope { scopes: &scopes }.response(&gate.metadata_url)
            );
        }
    }
    Ok(Request::from_parts(parts, Body::from(bytes)))
}

/// The tool a `tools/call` body calls, looking through discovery mode's
/// `call_tool` (none for any other body; the MCP service answers malformed
/// ones).
fn called_tool(body: &[u8]) -> Option<String> {
    let message: Value = serde_json::from_slice(body).ok()?;
    if message.get("method")?.as_str()? != "tools/call" {
        return None;
    }
    let params = message.get("params")?;
    let name = params.get("name")?.as_str()?;
    if name == CALL_TOOL
        && let Some(target) = params
            .get("arguments")
            .and_then(|arguments| arguments.get("name"))
            .and_then(Value::as_str)
    {
        return Some(target.to_owned());
    }
    Some(name.to_owned())
}

fn missing_scopes(info: &AuthInfo, needed: &[String]) -> Vec<String> {
    needed
        .iter()
        .filter(|scope| !info.has_scope(scope))
        .cloned()
        .collect()
}
