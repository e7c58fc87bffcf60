//! Resources and resource templates: list, read, not found.

use mcp_core::resource::{
    ResourceDef, ResourceError, ResourceRequest, resource, resource_template,
};
use mcp_server::Server;
use serde_json::json;

use crate::support::{Raw, meta_2026};

fn server() -> Server {
    let fixed: ResourceDef = resource("test://static-text", "static-text")
        .description("A fixed text.")
        .mime_type("text/plain")
        .read(|| async { "hello" })
        .unwrap();
    let template: ResourceDef = resource_template("test://template/{id}/data", "data")
        .mime_type("application/json")
        .read(|req: ResourceRequest| async move {
            match req.variable("id") {
                Some("0") => Err(ResourceError::not_found(req.uri())),
                Some(id) => Ok(format!(r#"{{"id":"{id}"}}"#)),
                None => Ok(String::new()),
            }
        })
        .unwrap();
    Server::builder()
        .resources([fixed, template])
        .build()
        .unwrap()
}

#[tokio::test]
async fn resources_are_listed_and_read_by_2025_11_25_clients() {
    let mut raw = Raw::new(server());
    let init = raw.initialize_2025().await;
    assert!(
        init["result"]["capabilities"].get("resources").is_some(),
        "{init}"
    );
    let list = raw.request(1, "resources/list", json!({})).await;
    assert_eq!(
        list["result"]["resources"],
        json!([{"uri": "test://static-text", "name": "static-text", "description": "A fixed text.", "mimeType": "text/plain"}])
    );
    let templates = raw.request(2, "resources/templates/list", json!({})).await;
    assert_eq!(
        templates["result"]["resourceTemplates"][0]["uriTemplate"],
        "test://template/{id}/data"
    );
    let read = raw
        .request(3, "resources/read", json!({"uri": "test://static-text"}))
        .await;
    assert_eq!(
        read["result"]["contents"],
        json!([{"uri": "test://static-text", "mimeType": "text/plain", "text": "hello"}])
    );
    let read = raw
        .request(
            4,
            "resources/read",
            json!({"uri": "test://template/42/data"}),
        )
        .await;
    assert_eq!(read["result"]["contents"][0]["text"], r#"{"id":"42"}"#);
    let missing = raw
        .request(5, "resources/read", json!({"uri": "test://nothing"}))
        .await;
    assert_eq!(missing["error"]["code"], -32002, "{missing}");
    let refused = raw
        .request(
            6,
            "resources/read",
            json!({"uri": "test://template/0/data"}),
        )
        .await;
    assert_eq!(refused["error"]["code"], -32002, "{refused}");
}

#[tokio::test]
async fn resources_work_for_2026_07_28_clients() {
    let mut raw = Raw::new(server());
    raw.request(1, "server/discover", json!({"_meta": meta_2026()}))
        .await;
    let read = raw
        .request(
            2,
            "resources/read",
            json!({"uri": "test://template/7/data", "_meta": meta_2026()}),
        )
        .await;
    assert_eq!(
        read["result"]["contents"][0]["text"], r#"{"id":"7"}"#,
        "{read}"
    );
    let missing = raw
        .request(
            3,
            "resources/read",
            json!({"uri": "test://nothing", "_meta": meta_2026()}),
        )
        .await;
    assert_eq!(missing["error"]["code"], -32602, "{missing}");
}

#[test]
fn duplicate_resource_uris_are_a_build_error() {
    let twice = || -> ResourceDef { resource("test://a", "a").read(|| async { "a" }).unwrap() };
    let error = Server::builder()
        .resources([twice(), twice()])
        .build()
        .unwrap_err();
    assert_eq!(error.to_string(), "duplicate resource `test://a`");
}
