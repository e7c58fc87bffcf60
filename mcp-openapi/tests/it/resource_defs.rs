//! Route-mapped GET routes become resources and templates that read the API.

use std::sync::Arc;

use axum::Json;
use axum::extract::Path;
use axum::routing::get;
use mcp_core::resource::ResourceContents;
use mcp_openapi::route_map::RouteKind;
use mcp_openapi::{ClientConfig, OpenApi, RouteMap, ir::HttpMethod};
use serde_json::json;

async fn upstream() -> String {
    let app = axum::Router::new()
        .route(
            "/pets",
            get(|| async { Json(json!([{"id": 1, "name": "Rex"}])) }),
        )
        .route(
            "/pets/{id}",
            get(|Path(id): Path<i64>| async move { Json(json!({"id": id, "name": "Tom"})) }),
        );
    let (listener, url) = crate::http_fixtures::local_listener().await;
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

fn text(contents: &[ResourceContents]) -> String {
    match contents.first() {
        Some(ResourceContents::Text { text, .. }) => text.clone(),
        other => panic!("expected text contents, got {other:?}"),
    }
}

#[tokio::test]
async fn generated_resources_and_templates_read_through_the_api() {
    let api = OpenApi::from_path(crate::corpus("petstore.yaml")).unwrap();
    let generated = api
        .generator()
        .route_maps([
            RouteMap::new(RouteKind::ResourceTemplate)
                .methods([HttpMethod::Get])
                .pattern(r"\{petId\}")
                .unwrap(),
            RouteMap::new(RouteKind::Resource).methods([HttpMethod::Get]),
            RouteMap::new(RouteKind::Exclude),
        ])
        .generate()
        .unwrap();
    let config = Arc::new(
        ClientConfig::builder()
            .base_url(upstream().await)
            .build()
            .unwrap(),
    );
    let defs = generated.resource_defs::<()>(&config).unwrap();
    assert_eq!(defs.len(), 2);

    let list = &defs[0];
    let read = list.read_detached(list.uri()).await.unwrap();
    assert!(text(&read.contents).contains("Rex"), "{read:?}");

    let template = &defs[1];
    assert!(template.template().is_some());
    let uri = template.uri().replace("{petId}", "7");
    let read = template.read_detached(&uri).await.unwrap();
    let body: serde_json::Value = serde_json::from_str(&text(&read.contents)).unwrap();
    assert_eq!(body, json!({"id": 7, "name": "Tom"}));
}
