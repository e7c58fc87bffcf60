//! The OpenAPI examples: `petstore` over Streamable HTTP against a local
//! upstream, `mixed` over stdio with the GitHub document.

use std::process::Stdio;

use axum::Json;
use axum::extract::Path;
use axum::routing::get;
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::json;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Command;

use crate::stdio_examples::{spawn_with, text};

fn corpus(name: &str) -> String {
    testdata::openapi(name).display().to_string()
}

/// A Petstore upstream on 127.0.0.1 that answers from memory.
async fn upstream() -> String {
    let app = axum::Router::new()
        .route(
            "/repos/{owner}/{repo}/issues/{number}",
            get(
                |Path((owner, repo, number)): Path<(String, String, u64)>| async move {
                    Json(json!({"number": number, "title": format!("{owner}/{repo} issue")}))
                },
            ),
        )
        .route(
            "/pets",
            get(|| async { Json(json!([{"id": 1, "name": "Rex"}, {"id": 2, "name": "Tom"}])) }),
        )
        .route(
            "/pets/{id}",
            get(|Path(id): Path<i64>| async move { Json(json!({"id": id, "name": "Rex"})) }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind the upstream");
    let url = format!("http://{}", listener.local_addr().expect("local address"));
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

#[tokio::test]
async fn petstore_proxies_generated_tools_over_http() {
    let base_url = upstream().await;
    let mut child = Command::new(env!("CARGO_BIN_EXE_petstore"))
        .args([
            "--openapi",
            &corpus("petstore.yaml"),
            "--base-url",
            &base_url,
            "--bind",
            "127.0.0.1:0",
        ])
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("start petstore");
    let stdout = child.stdout.take().expect("piped stdout");
    let url = BufReader::new(stdout)
        .lines()
        .next_line()
        .await
        .expect("read")
        .expect("the endpoint URL line");
    assert!(
        url.starts_with("http://127.0.0.1:") && url.ends_with("/mcp"),
        "{url}"
    );

    let client = ().serve(StreamableHttpClientTransport::from_uri(url)).await.expect("connect");
    let tools = client.list_all_tools().await.expect("tools/list");
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names, ["listPets", "createPets", "showPetById"]);
    crate::assert_tools_snapshot("petstore", &tools);

    let mut call = CallToolRequestParams::new("showPetById");
    call.arguments = json!({"petId": "7"}).as_object().cloned();
    let pet = client.call_tool(call).await.expect("tools/call");
    assert_eq!(pet.is_error, None, "{pet:?}");
    assert_eq!(
        pet.structured_content,
        Some(json!({"id": 7, "name": "Rex"}))
    );

    let mut call = CallToolRequestParams::new("listPets");
    call.arguments = Some(serde_json::Map::new());
    let pets = client.call_tool(call).await.expect("tools/call");
    let listed = pets.structured_content.expect("structured");
    assert_eq!(listed["result"][1]["name"], "Tom", "{listed}");
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn mixed_serves_hand_written_tools_and_a_prefixed_github_subset() {
    let base_url = upstream().await;
    let args = [
        "--openapi",
        &corpus("github-api.github.com.json"),
        "--base-url",
        &base_url,
    ];
    let mixed = spawn_with(env!("CARGO_BIN_EXE_mixed"), &args).await;
    let tools = mixed.tools().await;
    crate::assert_tools_snapshot("mixed", &tools);
    let names: Vec<String> = tools.into_iter().map(|t| t.name.into_owned()).collect();
    assert_eq!(&names[..2], ["whoami", "echo"]);
    let github = &names[2..];
    assert!(github.len() >= 10, "{names:?}");
    assert!(github.iter().all(|n| n.starts_with("github_")), "{names:?}");
    assert!(
        names.iter().any(|n| n == "github_issues_list-for-repo"),
        "{names:?}"
    );
    assert!(
        !names.iter().any(|n| n.contains("create")),
        "only GET routes: {names:?}"
    );

    let issue = mixed
        .call(
            "github_issues_get",
            json!({"owner": "o", "repo": "r", "issue_number": 5}),
        )
        .await;
    assert_eq!(issue.is_error, None, "{issue:?}");
    assert!(text(&issue).contains("o/r issue"), "{}", text(&issue));

    let who = mixed.call("whoami", json!({})).await;
    assert!(text(&who).starts_with("visitor #1 for "), "{}", text(&who));

    for _ in 0..3 {
        let echoed = mixed.call("echo", json!({"message": "hi"})).await;
        assert_eq!(text(&echoed), "hi");
    }
    let limited = mixed.call("echo", json!({"message": "hi"})).await;
    assert_eq!(limited.is_error, Some(true));
    assert_eq!(text(&limited), "rate limit: at most 3 calls per 60 s");
    mixed.stop().await;
}
