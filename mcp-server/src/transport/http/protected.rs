//! The endpoint as an OAuth 2.1 protected resource: the token gate in
//! front of the MCP service, the RFC 9728 metadata routes beside it, and
//! the refusal of tools that would forward their caller's credentials.

use std::sync::Arc;

use axum::Router;

use super::auth;
use super::auth::verify::Verifier;
use crate::error::ServeError;
use crate::server::state::ServerState;

/// Refuses a catalog holding tools that forward their caller's
/// credentials upstream (the MCP specification forbids token passthrough).
pub(super) fn refuse_credential_passthrough<C: Send + Sync + 'static>(
    state: &ServerState<C>,
) -> Result<(), ServeError> {
    let tools: Vec<String> = state
        .catalog()
        .tools()
        .all()
        .iter()
        .filter(|def| def.forwards_caller_credentials())
        .map(|def| def.name().to_owned())
        .collect();
    if tools.is_empty() {
        Ok(())
    } else {
        Err(ServeError::CredentialPassthrough { tools })
    }
}

/// `router` behind the token gate of `verifier`, with the metadata routes
/// (answered without a token) merged in.
pub(super) fn protect<C: Send + Sync + 'static>(
    router: Router,
    verifier: Arc<Verifier>,
    state: Arc<ServerState<C>>,
    max_body_bytes: usize,
) -> Router {
    let settings = verifier.settings();
    let declared: Arc<dyn auth::gate::DeclaredScopes> = Arc::new(CatalogScopes(state));
    let gate = auth::gate::Gate {
        verifier: verifier.clone(),
        metadata_url: auth::metadata::url(settings).into(),
        declared: declared.clone(),
        max_body_bytes,
    };
    let suffixed = auth::metadata::path(settings);
    let document_verifier = verifier.clone();
    let serve_document = axum::routing::get(move || async move {
        axum::Json(auth::metadata::document(
            document_verifier.settings(),
            declared.all(),
        ))
    });
    let mut public = Router::new().route(auth::metadata::WELL_KNOWN, serve_document.clone());
    if suffixed != auth::metadata::WELL_KNOWN {
        public = public.route(&suffixed, serve_document);
    }
    router
        .layer(axum::middleware::from_fn_with_state(
            gate,
            auth::gate::require_token,
        ))
        .merge(public)
}

/// The scopes the server's tools declare, from its current catalog.
struct CatalogScopes<C>(Arc<ServerState<C>>);

impl<C: Send + Sync + 'static> auth::gate::DeclaredScopes for CatalogScopes<C> {
    fn of_tool(&self, tool: &str) -> Vec<String> {
        let catalog = self.0.catalog();
        catalog
            .tools()
            .get(tool)
            .map(|def| def.required_scopes().to_vec())
            .unwrap_or_default()
    }

    fn forwards_credentials(&self, tool: &str) -> bool {
        let catalog = self.0.catalog();
        catalog
            .tools()
            .get(tool)
            .is_some_and(|def| def.forwards_caller_credentials())
    }

    fn all(&self) -> Vec<String> {
        let catalog = self.0.catalog();
        catalog
            .tools()
            .all()
            .iter()
            .flat_map(|def| def.required_scopes())
            .cloned()
            .collect()
    }
}
