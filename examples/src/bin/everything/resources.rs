//! The suite's resources: static text and binary, a template, a watched one.

use mcp_core::{
    completion::Completer,
    resource::resource,
    resource::{ResourceDef, ResourceError, ResourceRequest, resource_template},
};

use crate::media::RED_PIXEL_PNG;

pub(crate) fn all() -> Result<Vec<ResourceDef>, ResourceError> {
    Ok(vec![
        resource("test://static-text", "static-text")
            .title("Static text")
            .description("A static text resource for testing.")
            .mime_type("text/plain")
            .read(|| async { "This is the content of the static text resource." })?,
        resource("test://static-binary", "static-binary")
            .title("Static binary")
            .description("A static binary resource (a 1x1 PNG) for testing.")
            .mime_type("image/png")
            .read(|req: ResourceRequest| async move {
                mcp_core::resource::ResourceContents::blob(req.uri(), Some("image/png".into()), RED_PIXEL_PNG)
            })?,
        resource("test://watched-resource", "watched-resource")
            .description("A resource clients may subscribe to.")
            .mime_type("text/plain")
            .read(|| async { "Watched resource content." })?,
        resource_template("test://template/{id}/data", "template-data")
            .title("Data by id")
            .description("A resource template substituting `id`.")
            .mime_type("application/json")
            .complete("id", Completer::values(["123", "456", "789"]))
            .read(|req: ResourceRequest| async move {
                let id = req.variable("id").unwrap_or_default();
                serde_json::json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")})
                    .to_string()
            })?,
    ])
}
