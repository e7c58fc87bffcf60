//! Results sized for a model, on GitHub's document against a local
//! upstream with GitHub-shaped lists: a 150 KB list comes back within the
//! bound as valid JSON of its shape with a note, the whole result is
//! readable through the link by the same session only, and the note's
//! paging arguments work.

use std::sync::Arc;

use axum::extract::{Path, Query};
use mcp_openapi::{ClientConfig, OpenApi};
use mcp_server::{Server, ToolSource};
use serde_json::{Value, json};

use crate::support::Raw;

/// A GitHub-shaped user.
fn user(login: &str) -> Value {
    json!({
        "login": login, "id": 583231, "node_id": "MDQ6VXNlcjU4MzIzMQ==",
        "avatar_url": format!("https://avatars.githubusercontent.com/u/583231?v=4&u={login}"),
        "gravatar_id": "", "url": format!("https://api.github.com/users/{login}"),
        "html_url": format!("https://github.com/{login}"),
        "followers_url": format!("https://api.github.com/users/{login}/followers"),
        "repos_url": format!("https://api.github.com/users/{login}/repos"),
        "type": "User", "site_admin": false
    })
}

/// The GitHub-shaped item `number` of the list `kind`.
fn item(kind: &str, number: u64) -> Value {
    let repo = "https://api.github.com/repos/octo/app";
    match kind {
        "issues" => json!({
            "url": format!("{repo}/issues/{number}"), "repository_url": repo,
            "html_url": format!("https://github.com/octo/app/issues/{number}"),
            "id": 1_000_000 + number, "node_id": format!("I_kwDOAbc{number:06}"), "number": number,
            "title": format!("Crash when saving file number {number} on a slow network"),
            "user": user("octocat"), "state": "open", "locked": false, "comments": number % 7,
            "labels": [{"id": 208045946, "name": "bug", "color": "f29513", "default": true, "description": "Something isn't working"}],
            "assignees": [user("hubot")], "author_association": "MEMBER",
            "created_at": "2026-11-01T10:00:00Z", "updated_at": "2026-11-20T10:00:00Z", "closed_at": null,
            "body": "Steps to reproduce: open the editor, type a long document, save it while the network is slow. Expected: the file is saved. Actual: the app crashes with a stack trace. ".repeat(4)
        }),
        "pulls" => json!({
            "url": format!("{repo}/pulls/{number}"), "id": 2_000_000 + number, "number": number,
            "html_url": format!("https://github.com/octo/app/pull/{number}"),
            "diff_url": format!("https://github.com/octo/app/pull/{number}.diff"),
            "state": "open", "locked": false, "title": format!("Fix the crash on save, part {number}"),
            "user": user("monalisa"), "body": "This fixes the crash when saving on a slow network. ".repeat(6),
            "created_at": "2026-11-02T10:00:00Z", "updated_at": "2026-11-21T10:00:00Z",
            "head": {"label": "octo:fix", "ref": format!("fix-{number}"), "sha": "6dcb09b5b57875f334f61aebed695e2e4193db5e", "user": user("monalisa")},
            "base": {"label": "octo:main", "ref": "main", "sha": "6dcb09b5b57875f334f61aebed695e2e4193db5e", "user": user("octo")},
            "author_association": "CONTRIBUTOR", "draft": false
        }),
        _ => json!({
            "sha": format!("{number:040x}"), "node_id": format!("C_kwDOAbc{number:06}"),
            "url": format!("{repo}/commits/{number:040x}"),
            "html_url": format!("https://github.com/octo/app/commit/{number:040x}"),
            "commit": {
                "author": {"name": "Mona Lisa", "email": "mona@example.com", "date": "2026-11-03T10:00:00Z"},
                "committer": {"name": "Mona Lisa", "email": "mona@example.com", "date": "2026-11-03T10:00:00Z"},
                "message": format!("Fix the crash on save ({number})\n\nThe writer now retries when the network is slow."),
                "comment_count": 0
            },
            "author": user("monalisa"), "committer": user("monalisa"), "parents": []
        }),
    }
}

/// A local upstream: `GET /repos/{owner}/{repo}/{issues|pulls|commits}`
/// with `per_page` (30 by default) and `page`, 300 items in all.
async fn upstream() -> String {
    let list = |Path((_, _, kind)): Path<(String, String, String)>,
                Query(query): Query<std::collections::HashMap<String, String>>| async move {
        let per_page: u64 = query
            .get("per_page")
            .and_then(|n| n.parse().ok())
            .unwrap_or(30);
        let page: u64 = query.get("page").and_then(|n| n.parse().ok()).unwrap_or(1);
        let first = (page - 1) * per_page + 1;
        let items: Vec<Value> = (first..first + per_page)
            .filter(|n| *n <= 300)
            .map(|n| item(&kind, n))
            .collect();
        axum::Json(Value::Array(items))
    };
    let app = axum::Router::new().route("/repos/{owner}/{repo}/{kind}", axum::routing::get(list));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{address}")
}

fn server(base_url: &str, bound: Option<usize>) -> Server {
    let api = OpenApi::from_path(testdata::openapi("github-api.github.com.json")).unwrap();
    let config = ClientConfig::builder().base_url(base_url).build().unwrap();
    let tools = api
        .generator()
        .generate()
        .unwrap()
        .tool_defs(&Arc::new(config))
        .unwrap();
    Server::builder()
        .source(ToolSource::new("github", tools))
        .max_result_bytes(bound)
        .build()
        .unwrap()
}

/// The items of a listing result: its `result`, or the upstream's list
/// when it did not match the document.
fn listed(result: &Value) -> Vec<Value> {
    let structured = &result["structuredContent"];
    structured["result"]
        .as_array()
        .or_else(|| structured["unvalidatedResponse"].as_array())
        .cloned()
        .unwrap_or_default()
}

/// The bytes a model reads of a result: its content and structured content.
fn bytes(result: &Value) -> usize {
    result["content"].to_string().len() + result["structuredContent"].to_string().len()
}

async fn call(raw: &mut Raw, id: i64, tool: &str, arguments: Value) -> Value {
    raw.request(
        id,
        "tools/call",
        json!({"name": tool, "arguments": arguments}),
    )
    .await["result"]
        .clone()
}

#[tokio::test]
async fn a_large_list_is_cut_to_the_bound_and_the_whole_is_readable_through_the_link() {
    let upstream = upstream().await;
    let mut raw = Raw::new(server(&upstream, Some(32_000)));
    raw.initialize_2025().await;
    let arguments = json!({"owner": "octo", "repo": "app", "per_page": 100});
    let result = call(&mut raw, 1, "issues_list-for-repo", arguments).await;
    assert_eq!(result["isError"], Value::Null, "{result}");
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(text.len() <= 32_000, "{} bytes", text.len());
    let shown: Value = serde_json::from_str(text).expect("the cut text is JSON");
    assert_eq!(result["structuredContent"], shown);
    let items = shown["result"]
        .as_array()
        .expect("the cut list is still a list");
    assert!(items.len() >= 10 && items.len() < 100, "{}", items.len());
    assert_eq!(items[0]["number"], 1);
    let note = result["content"][1]["text"].as_str().unwrap();
    assert!(
        note.contains(&format!("kept the first {} of 100 items", items.len())),
        "{note}"
    );
    assert!(note.contains("`page`, `per_page`"), "{note}");
    let link = &result["content"][2];
    assert_eq!(link["type"], "resource_link");
    let uri = link["uri"].as_str().unwrap();
    let read = raw.request(2, "resources/read", json!({"uri": uri})).await;
    let whole: Value =
        serde_json::from_str(read["result"]["contents"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(whole["result"].as_array().unwrap().len(), 100);
    assert_eq!(whole["result"][99]["number"], 100);

    // Another session cannot read it.
    let mut other = Raw::new(server(&upstream, Some(32_000)));
    other.initialize_2025().await;
    let refused = other
        .request(3, "resources/read", json!({"uri": uri}))
        .await;
    assert!(refused["error"].is_object(), "{refused}");

    // The note's paging arguments fetch the rest in pieces that fit.
    let page = call(
        &mut raw,
        4,
        "issues_list-for-repo",
        json!({"owner": "octo", "repo": "app", "per_page": 15, "page": 2}),
    )
    .await;
    assert_eq!(page["content"].as_array().unwrap().len(), 1, "{page}");
    assert_eq!(page["structuredContent"]["result"][0]["number"], 16);
}

/// Result bytes of three GitHub list operations, whole and within 32 KB
/// (`cargo test -p mcp-server --test it result_bytes -- --nocapture`).
#[tokio::test]
async fn result_bytes_of_github_lists_whole_and_bounded() {
    let upstream = upstream().await;
    let mut whole = Raw::new(server(&upstream, None));
    whole.initialize_2025().await;
    let mut bounded = Raw::new(server(&upstream, Some(32_000)));
    bounded.initialize_2025().await;
    println!("| operation | items | whole bytes | within 32 KB | items kept |");
    println!("|---|---:|---:|---:|---:|");
    for (id, (tool, per_page)) in [
        ("issues_list-for-repo", 15),
        ("issues_list-for-repo", 100),
        ("pulls_list", 100),
        ("repos_list-commits", 100),
    ]
    .into_iter()
    .enumerate()
    {
        let arguments = json!({"owner": "octo", "repo": "app", "per_page": per_page});
        let id = i64::try_from(id).unwrap() * 2 + 10;
        let full = call(&mut whole, id, tool, arguments.clone()).await;
        let cut = call(&mut bounded, id + 1, tool, arguments).await;
        let kept = listed(&cut).len();
        assert!(cut["content"][0]["text"].as_str().unwrap().len() <= 32_000);
        assert_eq!(listed(&full).len(), per_page);
        println!(
            "| `{tool}` | {per_page} | {} | {} | {kept} |",
            bytes(&full),
            bytes(&cut)
        );
    }
}
