//! The demo's `demo://petstore/pets` resource: the Petstore API's pets, as
//! JSON. Its subscribers hear (`notifications/resources/updated`) whenever
//! `createPets` adds a pet through this server.

use std::sync::{Arc, OnceLock};

use mcp_core::middleware::{self, ToolMiddleware};
use mcp_core::resource::{ResourceDef, resource};
use mcp_server::Server;

use super::error::CliError;

/// The resource's URI.
pub(crate) const PETS_URI: &str = "demo://petstore/pets";

/// The resource, read from the API at `api` (a base URL ending in `/v1`).
pub(crate) fn pets(api: &str) -> Result<ResourceDef, CliError> {
    let url = format!("{api}/pets?limit=100");
    Ok(resource(PETS_URI, "petstore-pets")
        .title("Pets")
        .description(
            "The Petstore API's pets (at most 100), as JSON. Subscribers are told when \
             `createPets` adds one.",
        )
        .mime_type("application/json")
        .read(move || {
            let url = url.clone();
            async move { fetch(&url).await }
        })?)
}

async fn fetch(url: &str) -> Result<String, String> {
    // reqwest's rustls needs a crypto provider; ring's, unless one is set.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let response = reqwest::get(url)
        .await
        .map_err(|error| format!("the Petstore API at {url} did not answer: {error}"))?;
    let status = response.status();
    let body = response
        .text()
        .await
        .map_err(|error| format!("reading the pets from {url} failed: {error}"))?;
    if status.is_success() {
        Ok(body)
    } else {
        Err(format!("the Petstore API answered {status}: {body}"))
    }
}

/// Tells the subscribers of [`PETS_URI`] when `createPets` succeeds, once
/// [`attach`](Self::attach) has given it the server.
#[derive(Clone, Debug, Default)]
pub(crate) struct PetsChanged {
    server: Arc<OnceLock<Server>>,
}

impl PetsChanged {
    /// The middleware to register on the server.
    pub(crate) fn middleware(&self) -> impl ToolMiddleware + use<> {
        let server = self.server.clone();
        middleware::from_fn(move |cx, next| {
            let server = server.clone();
            async move {
                let created = cx.request().name == "createPets";
                let result = next.run(cx).await;
                if created
                    && !result.is_error()
                    && let Some(server) = server.get()
                {
                    server.resource_updated(PETS_URI);
                }
                result
            }
        })
    }

    /// Gives the middleware the server it tells.
    pub(crate) fn attach(&self, server: &Server) {
        let _ = self.server.set(server.clone());
    }
}
