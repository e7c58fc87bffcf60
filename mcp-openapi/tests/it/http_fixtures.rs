//! Hand-made routes and bindings for the request tests (the IR types are
//! `#[non_exhaustive]`, so they are made from their JSON form).

use std::sync::Arc;
use std::time::Duration;

use mcp_core::ToolDef;
use mcp_openapi::{
    ClientConfig,
    call::{ClientConfigBuilder, Credentials, HttpToolHandler, RetryPolicy},
    ir::{HttpRoute, RequestBinding},
};
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

/// A generated-style tool: `route` called through an [`HttpToolHandler`].
pub(crate) fn tool_def(
    route: HttpRoute,
    binding: RequestBinding,
    input_schema: Value,
    output_schema: Option<Value>,
    config: ClientConfig,
) -> ToolDef {
    let mut builder = mcp_core::tool("test_tool")
        .input_schema(input_schema.as_object().cloned().expect("object schema"));
    if let Some(output) = output_schema {
        builder = builder.output_schema(output.as_object().cloned().expect("object schema"));
    }
    let tool = builder.build().expect("tool");
    ToolDef::new(
        tool,
        HttpToolHandler::new(Arc::new(route), binding, Arc::new(config)),
    )
    .expect("tool def")
}

/// A configuration sending to `base` with fast retries.
pub(crate) fn config(base: &str) -> ClientConfigBuilder {
    ClientConfig::builder()
        .base_url(base)
        .credentials(Credentials::new())
        .retry(RetryPolicy::default().base_delay(Duration::from_millis(5)))
}

/// A listener on a free loopback port and its `http://` base URL.
pub(crate) async fn local_listener() -> (tokio::net::TcpListener, String) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    (listener, base)
}
