//! The `github_curated` example over stdio, calling a local GitHub
//! upstream that records the requests it gets.

use std::sync::{Arc, Mutex};

use axum::Json;
use axum::extract::{OriginalUri, Path};
use axum::routing::get;
use serde_json::{Value, json};

use crate::stdio_examples::{spawn_with, text};

type Requests = Arc<Mutex<Vec<String>>>;

/// An issue as GitHub documents it (every required field), with a long body.
fn issue(number: u64, title: &str) -> Value {
    let url = format!("https://api.github.com/repos/acme/widgets/issues/{number}");
    json!({
        "id": 1000 + number, "node_id": format!("I_{number}"), "number": number,
        "title": title, "state": "open", "locked": false, "comments": 0,
        "url": url, "html_url": url, "repository_url": "https://api.github.com/repos/acme/widgets",
        "labels_url": format!("{url}/labels{{/name}}"), "comments_url": format!("{url}/comments"),
        "events_url": format!("{url}/events"), "labels": [], "assignee": null, "milestone": null,
        "user": null, "closed_at": null,
        "created_at": "2024-01-01T00:00:00Z", "updated_at": "2024-01-02T00:00:00Z",
        "body": "a long description ".repeat(50)
    })
}

/// A GitHub upstream on 127.0.0.1 serving issues and labels.
async fn upstream(requests: Requests) -> String {
    let record = move |uri: &OriginalUri| requests.lock().unwrap().push(uri.0.to_string());
    let (list, one, labels) = (record.clone(), record.clone(), record);
    let app = axum::Router::new()
        .route(
            "/repos/{owner}/{repo}/issues",
            get(move |uri: OriginalUri| async move {
                list(&uri);
                Json(json!([issue(2, "Second"), issue(1, "First")]))
            }),
        )
        .route(
            "/repos/{owner}/{repo}/issues/{number}",
            get(move |uri: OriginalUri, Path((_, _, number)): Path<(String, String, u64)>| async move {
                one(&uri);
                Json(issue(number, "Asked for"))
            }),
        )
        .route(
            "/repos/{owner}/{repo}/labels",
            get(move |uri: OriginalUri| async move {
                labels(&uri);
                Json(json!([{"id": 1, "node_id": "L_1", "url": "https://api.github.com/l/1",
                    "name": "bug", "description": "Something is wrong", "color": "d73a4a", "default": true}]))
            }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind the upstream");
    let url = format!("http://{}", listener.local_addr().expect("local address"));
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

#[tokio::test]
async fn github_curated_serves_narrowed_tools_for_one_repository() {
    let requests = Requests::default();
    let base_url = upstream(requests.clone()).await;
    let document = testdata::openapi("github-api.github.com.json")
        .display()
        .to_string();
    let args = ["--openapi", &document, "--base-url", &base_url];
    let curated = spawn_with(env!("CARGO_BIN_EXE_github_curated"), &args).await;

    let tools = curated.tools().await;
    crate::assert_tools_snapshot("github_curated", &tools);
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names, ["about", "list_issues", "get_issue", "list_labels"]);
    for tool in &tools[1..] {
        let schema = Value::Object((*tool.input_schema).clone());
        for hidden in ["owner", "repo"] {
            assert!(schema["properties"].get(hidden).is_none(), "{schema}");
            assert!(!schema["required"].to_string().contains(hidden), "{schema}");
        }
    }
    assert_eq!(
        tools[1].input_schema["properties"]["status"]["enum"],
        json!(["open", "closed"])
    );
    assert_eq!(tools[2].input_schema["required"], json!(["number"]));

    let listed = curated.call("list_issues", json!({})).await;
    assert_eq!(listed.is_error, None, "{}", text(&listed));
    assert_eq!(
        listed.structured_content,
        Some(json!({"result": [
            {"number": 2, "title": "Second", "state": "open"},
            {"number": 1, "title": "First", "state": "open"}
        ]}))
    );
    let one = curated.call("get_issue", json!({"number": 7})).await;
    assert_eq!(one.is_error, None, "{}", text(&one));
    assert_eq!(
        one.structured_content.as_ref().unwrap()["title"],
        "Asked for"
    );
    let labels = curated.call("list_labels", json!({})).await;
    assert_eq!(
        labels.structured_content.unwrap()["result"][0]["name"],
        "bug"
    );
    assert_eq!(
        *requests.lock().unwrap(),
        [
            "/repos/acme/widgets/issues?state=open",
            "/repos/acme/widgets/issues/7",
            "/repos/acme/widgets/labels"
        ]
    );

    let wrong = curated.call("get_issue", json!({"number": "seven"})).await;
    assert_eq!(wrong.is_error, Some(true));
    assert!(
        text(&wrong).contains("/number: \"seven\" is not of type \"integer\""),
        "{}",
        text(&wrong)
    );
    let old_name = curated.call("get_issue", json!({"issue_number": 7})).await;
    assert!(
        text(&old_name).contains("\"number\" is a required property"),
        "{}",
        text(&old_name)
    );
    let hidden = curated
        .call("list_labels", json!({"owner": "someone-else"}))
        .await;
    assert!(
        text(&hidden).contains("argument `owner` is set by the server"),
        "{}",
        text(&hidden)
    );
    assert_eq!(
        requests.lock().unwrap().len(),
        3,
        "refused calls stay local"
    );

    let about = curated.call("about", json!({})).await;
    assert_eq!(text(&about), "Issues and labels of one GitHub repository.");
    curated.stop().await;
}
