//! The demo's `demo://petstore/pets` resource: the Petstore API's pets, as
//! JSON (read with the generated `listPets` tool). Its subscribers hear
//! (`notifications/resources/updated`) whenever `createPets` adds a pet
//! through this server.

use std::sync::{Arc, OnceLock};

use mcp_core::resource::{ResourceDef, resource};
use mcp_core::tool::middleware::{self, ToolMiddleware};
use mcp_server::Server;
use serde_json::json;

use super::error::CliError;

/// The resource's URI.
pub(crate) const PETS_URI: &str = "demo://petstore/pets";

/// The resource and the middleware that announces its updates, both
/// working once [`attach`](Self::attach) has given them the server.
#[derive(Clone, Debug, Default)]
pub(crate) struct PetsFeed {
    server: Arc<OnceLock<Server>>,
}

impl PetsFeed {
    /// The resource: what `listPets` answers for at most 100 pets.
    pub(crate) fn resource(&self) -> Result<ResourceDef, CliError> {
        let server = self.server.clone();
        Ok(resource(PETS_URI, "petstore-pets")
            .title("Pets")
            .description(
                "The Petstore API's pets (at most 100), as JSON. Subscribers are told when \
                 `createPets` adds one.",
            )
            .mime_type("application/json")
            .read(move || {
                let server = server.clone();
                async move { list_pets(server.get()).await }
            })?)
    }

    /// The middleware to register on the server: after a `createPets` call
    /// that succeeded, the resource's subscribers are told.
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

    /// Gives the resource and the middleware the server.
    pub(crate) fn attach(&self, server: &Server) {
        let _ = self.server.set(server.clone());
    }
}

/// The pets, as `listPets` of `server` lists them.
async fn list_pets(server: Option<&Server>) -> Result<String, String> {
    let list = server
        .and_then(|server| server.tool("listPets"))
        .ok_or("the server has no `listPets` tool")?;
    let result = list.call_detached(json!({"limit": 100})).await;
    if result.is_error() {
        return Err(format!("listPets failed: {:?}", result.content));
    }
    result
        .structured_content
        .and_then(|structured| structured.get("result").cloned())
        .map(|pets| pets.to_string())
        .ok_or_else(|| "listPets answered no pets".to_owned())
}
