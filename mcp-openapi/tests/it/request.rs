//! Request bodies and URL assembly, checked on the wire of a local
//! recording server.

use mcp_openapi::call::{PreparedRequest, build_request};
use serde_json::{Value, json};

use crate::http_fixtures::{binding, body, param, route};
use crate::recorder::{Recorded, Recorder};

async fn send(server: &Recorder, request: PreparedRequest) -> Recorded {
    let mut builder = reqwest::Client::new()
        .request(request.method, request.url)
        .headers(request.headers);
    if let Some(body) = request.body {
        builder = builder.body(body);
    }
    builder.send().await.expect("sent");
    server.last()
}

fn args(value: Value) -> mcp_openapi::ir::JsonObject {
    value.as_object().cloned().expect("object")
}

#[tokio::test]
async fn json_body_from_flattened_properties_and_parameters() {
    let server = Recorder::start().await;
    let base = url::Url::parse(&format!("{}/api/v3/", server.base)).expect("base");
    let schema = json!({"type": "object", "properties": {"name": {"type": "string"}, "tags": {"type": "array"}}});
    let route = route(
        "POST",
        "/pets/{petId}/tags",
        json!([
            param("petId", "path", "simple", false),
            param("dry", "query", "form", true)
        ]),
        body("application/json", schema, true),
    );
    let binding = binding(&["petId", "dry"], &["name", "tags"], false, None);
    let request = build_request(
        &route,
        &binding,
        &base,
        &args(json!({"petId": 7, "dry": true, "name": "Rex", "tags": ["a"]})),
    )
    .expect("request builds");
    let seen = send(&server, request).await;
    assert_eq!(seen.method, "POST");
    assert_eq!(seen.target, "/api/v3/pets/7/tags?dry=true");
    assert_eq!(
        seen.header("content-type").as_deref(),
        Some("application/json")
    );
    assert_eq!(
        serde_json::from_slice::<Value>(&seen.body).ok(),
        Some(json!({"name": "Rex", "tags": ["a"]}))
    );
}

#[tokio::test]
async fn multipart_with_a_data_uri_file() {
    let server = Recorder::start().await;
    let base = url::Url::parse(&server.base).expect("base");
    let schema = json!({"type": "object", "properties": {"note": {"type": "string"}, "file": {"type": "string", "format": "binary"}}});
    let route = route(
        "POST",
        "/upload",
        json!([]),
        body("multipart/form-data", schema, true),
    );
    let binding = binding(&[], &["note", "file"], false, None);
    let arguments = args(
        json!({"note": "hi", "file": {"data": "data:image/png;base64,iVBORw==", "filename": "a.png"}}),
    );
    let request = build_request(&route, &binding, &base, &arguments).expect("request builds");
    let seen = send(&server, request).await;
    let content_type = seen.header("content-type").unwrap_or_default();
    let boundary = content_type
        .strip_prefix("multipart/form-data; boundary=")
        .expect("boundary");
    let expected = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhi\r\n--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\n\u{89}PNG\r\n--{boundary}--\r\n"
    );
    let expected: Vec<u8> = expected.chars().map(|c| c as u32 as u8).collect();
    assert_eq!(seen.body.as_ref(), expected.as_slice());
}

#[tokio::test]
async fn text_and_octet_stream_bodies() {
    let server = Recorder::start().await;
    let base = url::Url::parse(&server.base).expect("base");
    let route_text = route(
        "PUT",
        "/note",
        json!([]),
        body("text/plain", json!({"type": "string"}), true),
    );
    let request = build_request(
        &route_text,
        &binding(&[], &[], true, None),
        &base,
        &args(json!({"body": "a b"})),
    )
    .expect("request builds");
    let seen = send(&server, request).await;
    assert_eq!(
        (seen.header("content-type").as_deref(), seen.body.as_ref()),
        (Some("text/plain"), b"a b".as_ref())
    );

    let route_bin = route(
        "PUT",
        "/blob",
        json!([]),
        body("application/octet-stream", json!({"type": "string"}), true),
    );
    let request = build_request(
        &route_bin,
        &binding(&[], &[], true, None),
        &base,
        &args(json!({"body": "AAEC/w=="})),
    )
    .expect("request builds");
    let seen = send(&server, request).await;
    assert_eq!(seen.body.as_ref(), &[0u8, 1, 2, 255]);
    let bad = build_request(
        &route_bin,
        &binding(&[], &[], true, None),
        &base,
        &args(json!({"body": "%%%"})),
    );
    assert!(matches!(
        bad,
        Err(mcp_openapi::call::CallError::Body { .. })
    ));
}
