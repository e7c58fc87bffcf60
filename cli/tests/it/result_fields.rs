//! The opt-in `fields` argument of generated tools, on GitHub's document
//! against a local upstream serving GitHub-shaped issues: a call keeps only
//! the named fields (dotted paths through objects and arrays), the result
//! still validates against the tool's output schema, and the upstream
//! never sees the argument.

use std::sync::{Arc, Mutex};

use axum::extract::RawQuery;
use mcp_core::ToolDef;
use mcp_core::arguments::ArgumentCheck;
use mcp_openapi::{ClientConfig, OpenApi};
use mcp_server::{Server, ToolSource};
use serde_json::{Value, json};

use crate::support::Raw;

const TOOL: &str = "issues_list-for-repo";

/// A GitHub `simple-user`.
pub(crate) fn user(login: &str, id: u64) -> Value {
    let api = format!("https://api.github.com/users/{login}");
    json!({
        "login": login, "id": id, "node_id": format!("MDQ6VXNlcj{id}"),
        "avatar_url": format!("https://avatars.githubusercontent.com/u/{id}?v=4"),
        "gravatar_id": "", "url": api, "html_url": format!("https://github.com/{login}"),
        "followers_url": format!("{api}/followers"),
        "following_url": format!("{api}/following{{/other_user}}"),
        "gists_url": format!("{api}/gists{{/gist_id}}"),
        "starred_url": format!("{api}/starred{{/owner}}{{/repo}}"),
        "subscriptions_url": format!("{api}/subscriptions"),
        "organizations_url": format!("{api}/orgs"), "repos_url": format!("{api}/repos"),
        "events_url": format!("{api}/events{{/privacy}}"),
        "received_events_url": format!("{api}/received_events"),
        "type": "User", "site_admin": false
    })
}

/// A GitHub label.
fn label(name: &str, id: u64, color: &str) -> Value {
    json!({
        "id": id, "node_id": format!("MDU6TGFiZWw{id}"),
        "url": format!("https://api.github.com/repos/octo/app/labels/{name}"),
        "name": name, "description": format!("Issues about {name}"), "color": color,
        "default": false
    })
}

/// The GitHub-shaped issue `number` (1 to 5), with every field the
/// document requires and more.
pub(crate) fn issue(number: u64) -> Value {
    let repo = "https://api.github.com/repos/octo/app";
    let url = format!("{repo}/issues/{number}");
    let labels = match number % 3 {
        0 => vec![],
        1 => vec![label("bug", 208045946, "f29513")],
        _ => vec![
            label("bug", 208045946, "f29513"),
            label("ui", 208045947, "0e8a16"),
        ],
    };
    let (author, assignee) = if number.is_multiple_of(2) {
        (user("octocat", 583231), Value::Null)
    } else {
        (user("monalisa", 1024025), user("hubot", 1))
    };
    json!({
        "id": 1_000_000 + number, "node_id": format!("I_kwDOAbc{number:06}"),
        "url": url, "repository_url": repo,
        "labels_url": format!("{url}/labels{{/name}}"), "comments_url": format!("{url}/comments"),
        "events_url": format!("{url}/events"),
        "html_url": format!("https://github.com/octo/app/issues/{number}"),
        "number": number, "state": "open", "state_reason": null,
        "title": format!("Crash when saving file number {number} on a slow network"),
        "body": "Steps to reproduce: open the editor, type a long document, save it while the network is slow. Expected: the file is saved. Actual: the app crashes.",
        "user": author, "labels": labels,
        "assignee": assignee.clone(),
        "assignees": if assignee.is_null() { json!([]) } else { json!([assignee]) },
        "milestone": null, "locked": false, "active_lock_reason": null,
        "comments": number % 4, "closed_at": null,
        "created_at": "2026-11-01T10:00:00Z", "updated_at": "2026-11-20T10:00:00Z",
        "author_association": "MEMBER",
        "timeline_url": format!("{url}/timeline"),
        "reactions": {
            "url": format!("{url}/reactions"), "total_count": 3, "+1": 2, "-1": 0,
            "laugh": 0, "hooray": 1, "confused": 0, "heart": 0, "rocket": 0, "eyes": 0
        }
    })
}

/// What `fields: ["number", "title", "user.login", "labels.name"]` keeps
/// of the issue `number`.
fn projected(number: u64) -> Value {
    let whole = issue(number);
    let names: Vec<Value> = whole["labels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|label| json!({"name": label["name"]}))
        .collect();
    json!({
        "number": number,
        "title": whole["title"],
        "user": {"login": whole["user"]["login"]},
        "labels": names
    })
}

/// A local upstream: `GET /repos/{owner}/{repo}/issues` lists five issues;
/// the query string of every request is recorded.
async fn upstream() -> (String, Arc<Mutex<Vec<String>>>) {
    let queries = Arc::new(Mutex::new(Vec::new()));
    let seen = queries.clone();
    let list = move |RawQuery(query): RawQuery| {
        seen.lock().unwrap().push(query.unwrap_or_default());
        async { axum::Json(Value::Array((1..=5).map(issue).collect())) }
    };
    let app = axum::Router::new().route("/repos/{owner}/{repo}/issues", axum::routing::get(list));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{address}"), queries)
}

/// GitHub's tools, calling `base_url`, with or without `fields`.
fn github_tools(base_url: &str, result_fields: bool) -> Vec<ToolDef> {
    let api = OpenApi::from_path(testdata::openapi("github-api.github.com.json")).unwrap();
    let config = ClientConfig::builder().base_url(base_url).build().unwrap();
    api.generator()
        .result_fields(result_fields)
        .generate()
        .unwrap()
        .tool_defs(&Arc::new(config))
        .unwrap()
}

async fn session(base_url: &str) -> Raw {
    let server = Server::builder()
        .source(ToolSource::new("github", github_tools(base_url, true)))
        .build()
        .unwrap();
    let mut raw = Raw::new(server);
    raw.initialize_2025().await;
    raw
}

async fn call(raw: &mut Raw, id: i64, arguments: Value) -> Value {
    raw.request(
        id,
        "tools/call",
        json!({"name": TOOL, "arguments": arguments}),
    )
    .await["result"]
        .clone()
}

/// The tool as `tools/list` shows it.
async fn listed(raw: &mut Raw) -> Value {
    let mut cursor = Value::Null;
    for id in 100.. {
        let params = if cursor.is_null() {
            json!({})
        } else {
            json!({ "cursor": cursor })
        };
        let page = raw.request(id, "tools/list", params).await;
        let tools = page["result"]["tools"].as_array().unwrap();
        if let Some(tool) = tools.iter().find(|tool| tool["name"] == TOOL) {
            return tool.clone();
        }
        cursor = page["result"]["nextCursor"].clone();
        assert!(!cursor.is_null(), "{TOOL} is not listed");
    }
    unreachable!()
}

/// Whether `value` validates against the JSON Schema `schema`.
fn violations(schema: &Value, value: &Value) -> Option<String> {
    let check = ArgumentCheck::new(schema.as_object().unwrap())
        .unwrap()
        .allow_unknown_arguments(true);
    check
        .check("output", value.as_object().cloned())
        .err()
        .map(|error| error.to_string())
}

#[tokio::test]
async fn a_call_keeps_only_the_named_fields_and_the_upstream_never_sees_them() {
    let (base_url, queries) = upstream().await;
    let mut raw = session(&base_url).await;

    let tool = listed(&mut raw).await;
    assert_eq!(
        tool["inputSchema"]["properties"]["fields"],
        json!({
            "type": "array",
            "items": {"type": "string"},
            "description": "Only these fields of the result (of each item of a list): top-level names or dotted paths such as user.login"
        })
    );
    assert!(
        !tool["inputSchema"]["required"]
            .as_array()
            .unwrap()
            .contains(&json!("fields"))
    );

    let fields = json!(["number", "title", "user.login", "labels.name"]);
    let arguments = json!({"owner": "octo", "repo": "app", "state": "open", "fields": fields});
    let result = call(&mut raw, 1, arguments).await;
    assert_eq!(result["isError"], Value::Null, "{result}");
    let expected = json!({"result": (1..=5).map(projected).collect::<Vec<_>>()});
    assert_eq!(result["structuredContent"], expected);
    let text: Value = serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text, expected, "the text mirrors the projection");
    assert_eq!(result["content"].as_array().unwrap().len(), 1);
    if let Some(violations) = violations(&tool["outputSchema"], &expected) {
        panic!("the projection does not validate against the output schema: {violations}");
    }

    let whole = call(&mut raw, 2, json!({"owner": "octo", "repo": "app"})).await;
    assert_eq!(whole["isError"], Value::Null, "{whole}");
    assert_eq!(
        whole["structuredContent"],
        json!({"result": (1..=5).map(issue).collect::<Vec<_>>()}),
        "without fields, the whole list"
    );

    let queries = queries.lock().unwrap().clone();
    assert_eq!(queries.len(), 2);
    assert_eq!(queries[0], "state=open");
    assert!(
        queries.iter().all(|query| !query.contains("fields")),
        "{queries:?}"
    );
}

#[tokio::test]
async fn unknown_names_are_absent_and_an_empty_list_keeps_the_whole_result() {
    let (base_url, _) = upstream().await;
    let mut raw = session(&base_url).await;
    let arguments = json!({"owner": "o", "repo": "r", "fields": ["number", "nope", "assignee.login", "user.nope"]});
    let result = call(&mut raw, 1, arguments).await;
    let items = result["structuredContent"]["result"].as_array().unwrap();
    assert_eq!(
        items[0],
        json!({"number": 1, "user": {}, "assignee": {"login": "hubot"}})
    );
    assert_eq!(
        items[1],
        json!({"number": 2, "user": {}, "assignee": null}),
        "a null on the way stays null"
    );

    let result = call(
        &mut raw,
        2,
        json!({"owner": "o", "repo": "r", "fields": []}),
    )
    .await;
    assert_eq!(result["structuredContent"]["result"][4], issue(5));

    let refused = call(
        &mut raw,
        3,
        json!({"owner": "o", "repo": "r", "fields": "number"}),
    )
    .await;
    assert_eq!(refused["isError"], true, "{refused}");
}

#[test]
fn only_the_option_offers_fields_and_tools_with_their_own_are_left_alone() {
    let ours = json!({
        "type": "array",
        "items": {"type": "string"},
        "description": "Only these fields of the result (of each item of a list): top-level names or dotted paths such as user.login"
    });
    let fields = |def: &ToolDef| def.tool().input_schema["properties"].get("fields").cloned();
    let off = github_tools("http://127.0.0.1:9", false);
    let on = github_tools("http://127.0.0.1:9", true);
    assert_eq!(off.len(), on.len());
    let offering = on
        .iter()
        .filter(|def| fields(def) == Some(ours.clone()))
        .count();
    let mut own = 0;
    for (off, on) in off.iter().zip(&on) {
        assert_ne!(fields(off), Some(ours.clone()), "{}", off.tool().name);
        if fields(off).is_some() {
            own += 1;
            assert_eq!(
                serde_json::to_value(on.tool()).unwrap(),
                serde_json::to_value(off.tool()).unwrap(),
                "{} has a fields input of its own",
                on.tool().name
            );
        }
    }
    let with_output = on
        .iter()
        .filter(|def| def.tool().output_schema.is_some())
        .count();
    println!(
        "{offering} of {} GitHub tools ({with_output} with an output schema, {own} with a fields input of their own) offer `fields`",
        on.len()
    );
    assert!(
        offering > 500 && offering <= with_output,
        "{offering} of {with_output}"
    );
    assert!(own > 0);
}

/// Result bytes of the five-issue list with and without `fields`
/// (`cargo test -p mcp-server --test it result_fields_bytes -- --nocapture`).
#[tokio::test]
async fn result_fields_bytes() {
    let (base_url, _) = upstream().await;
    let mut raw = session(&base_url).await;
    let bytes = |result: &Value| {
        (
            result["structuredContent"].to_string().len(),
            result["content"].to_string().len() + result["structuredContent"].to_string().len(),
        )
    };
    let whole = bytes(&call(&mut raw, 1, json!({"owner": "octo", "repo": "app"})).await);
    let fields = json!(["number", "title", "user.login", "labels.name"]);
    let kept = bytes(
        &call(
            &mut raw,
            2,
            json!({"owner": "octo", "repo": "app", "fields": fields}),
        )
        .await,
    );
    println!("| call | structuredContent bytes | content + structuredContent bytes |");
    println!("|---|---:|---:|");
    println!("| {TOOL}, 5 issues | {} | {} |", whole.0, whole.1);
    println!(
        "| same, fields number, title, user.login, labels.name | {} | {} |",
        kept.0, kept.1
    );
    assert!(kept.0 * 5 < whole.0, "{kept:?} {whole:?}");
}

#[test]
fn the_cli_flag_gives_the_tools_fields() {
    let petstore = concat!(env!("CARGO_MANIFEST_DIR"), "/src/cli/petstore.yaml");
    let list = |extra: &[&str]| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-server"))
            .args(["tools", "--openapi", petstore])
            .args(extra)
            .env("RUST_LOG", "off")
            .stdin(std::process::Stdio::null())
            .output()
            .expect("the binary runs");
        assert!(output.status.success(), "{output:?}");
        let list: Value = serde_json::from_slice(&output.stdout).unwrap();
        let tool = list["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|tool| tool["name"] == "listPets")
            .cloned()
            .unwrap();
        tool["inputSchema"]["properties"].get("fields").is_some()
    };
    assert!(!list(&[]));
    assert!(list(&["--result-fields"]));
}
