//! `#[resource]`: fixed resources and templates whose variables are
//! parameters.

use std::sync::Arc;

use futures_executor::block_on;
use mcp_core::resource::{ResourceDef, ResourceRequest, resource, resource_template};
use serde_json::json;

/// The project's read-me.
#[mcp_macros::resource(
    uri = "file:///README.md",
    title = "Read me",
    mime_type = "text/markdown",
    size = 4
)]
pub(crate) async fn readme() -> &'static str {
    "# Hi"
}

#[derive(Default)]
pub(crate) struct Store {
    prefix: String,
}

/// One item of the store.
#[mcp_macros::resource(
    name = "items",
    uri_template = "test://items/{id}/{part}",
    mime_type = "application/json",
    meta("com.example/kind" = "item")
)]
pub(crate) async fn item(
    id: String,
    store: &Store,
    part: String,
    request: &ResourceRequest<Store>,
) -> String {
    json!({"id": format!("{}{id}", store.prefix), "part": part, "uri": request.uri()}).to_string()
}

fn text(result: &mcp_core::resource::ReadResourceResult) -> serde_json::Value {
    serde_json::to_value(result).unwrap()["contents"][0]["text"].clone()
}

#[test]
fn fixed_resource_matches_the_builder() {
    let from_macro: ResourceDef = readme_resource().unwrap();
    let from_builder: ResourceDef = resource("file:///README.md", "readme")
        .description("The project's read-me.")
        .title("Read me")
        .mime_type("text/markdown")
        .size(4)
        .read(readme)
        .unwrap();
    assert_eq!(from_macro.resource(), from_builder.resource());
    let result = block_on(from_macro.read_detached("file:///README.md")).unwrap();
    assert_eq!(text(&result), "# Hi");
}

#[test]
fn template_variables_are_parameters() {
    let from_macro: ResourceDef<Store> = item_resource().unwrap();
    let from_builder: ResourceDef<Store> = resource_template("test://items/{id}/{part}", "items")
        .description("One item of the store.")
        .mime_type("application/json")
        .meta("com.example/kind", "item".into())
        .read(|_: ResourceRequest<Store>| async { String::new() })
        .unwrap();
    assert_eq!(from_macro.template(), from_builder.template());

    let store = Arc::new(Store {
        prefix: "s-".to_owned(),
    });
    let uri = "test://items/7/body";
    let variables = from_macro.matches(uri).unwrap();
    let request = ResourceRequest::new(uri, variables, store);
    let result = block_on(from_macro.read(request)).unwrap();
    let value: serde_json::Value = serde_json::from_str(text(&result).as_str().unwrap()).unwrap();
    assert_eq!(value, json!({"id": "s-7", "part": "body", "uri": uri}));
    assert!(from_macro.matches("test://other").is_none());
}
