//! Hand-made routes and bindings for the request tests (the IR types are
//! `#[non_exhaustive]`, so they are made from their JSON form).

use mcp_openapi::{HttpRoute, RequestBinding};
use serde_json::{Value, json};

/// A route of `method` on `path` with `parameters` (IR JSON) and an optional body.
pub(crate) fn route(method: &str, path: &str, parameters: Value, request_body: Value) -> HttpRoute {
    serde_json::from_value(json!({
        "method": method, "path": path, "pointer": "#/paths/test", "operation_id": "test",
        "summary": null, "description": null, "tags": [], "deprecated": false,
        "parameters": parameters, "request_body": request_body, "responses": [],
        "security": [], "servers": [], "extensions": {}
    }))
    .expect("route json")
}

/// One parameter (IR JSON).
pub(crate) fn param(name: &str, location: &str, style: &str, explode: bool) -> Value {
    json!({
        "name": name, "location": location, "required": location == "path", "style": style,
        "explode": explode, "allow_reserved": false, "schema": {}, "description": null,
        "deprecated": false, "content_type": null
    })
}

/// A binding mapping each property to the parameter of the same index, then
/// the body properties / whole body.
pub(crate) fn binding(
    parameters: &[&str],
    body_properties: &[&str],
    whole_body: bool,
    media_type: Option<&str>,
) -> RequestBinding {
    let mut arguments: Vec<Value> = parameters
        .iter()
        .enumerate()
        .map(|(index, name)| json!({"property": name, "target": {"Parameter": index}}))
        .collect();
    arguments.extend(
        body_properties
            .iter()
            .map(|name| json!({"property": name, "target": {"BodyProperty": name}})),
    );
    if whole_body {
        arguments.push(json!({"property": "body", "target": "Body"}));
    }
    serde_json::from_value(
        json!({"arguments": arguments, "body_media_type": media_type, "output_wrapped": false}),
    )
    .expect("binding json")
}

/// A request body (IR JSON) with one media type.
pub(crate) fn body(media_type: &str, schema: Value, required: bool) -> Value {
    json!({"required": required, "description": null, "content": [{"media_type": media_type, "schema": schema, "encoding": {}}]})
}
