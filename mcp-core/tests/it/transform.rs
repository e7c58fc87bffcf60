//! Tool transformation end to end, without a server: a typed tool with its
//! own middleware becomes a narrower tool (renamed, arguments hidden and
//! renamed, a wrap function, a trimmed result), called as a server would.

use std::sync::{Arc, Mutex};

use futures_executor::block_on;
use mcp_core::tool::middleware;
use mcp_core::transform::{ArgTransform, Forward, TransformFile, from_tool};
use mcp_core::{
    CallToolResult, Hint, JsonObject, ToolCallContext, ToolDef, tool, tool::CallToolRequest,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

/// The per-session context: who is calling.
#[derive(Default)]
struct Session {
    organisation: String,
}

/// The original tool's arguments.
#[derive(Deserialize, JsonSchema)]
struct ListIssues {
    /// The account owner of the repository.
    owner: String,
    /// The repository.
    repo: String,
    /// Which issues.
    state: Option<String>,
    /// Results per page.
    per_page: Option<u8>,
}

/// Lists the issues of a repository; records the arguments it was called
/// with, and its middleware records that it ran.
fn list_issues(seen: &Arc<Mutex<Vec<Value>>>) -> ToolDef<Session> {
    let handler_seen = seen.clone();
    let layer_seen = seen.clone();
    tool("issues_list-for-repo")
        .title("List repository issues")
        .description("List issues in a repository.")
        .annotations([Hint::Read, Hint::OpenWorld])
        .meta("rs.mcp-toolkit/output-wrapped", true.into())
        .output_schema(issues_schema())
        .input::<ListIssues>()
        .run(move |args: ListIssues| {
            let seen = handler_seen.clone();
            async move {
                seen.lock().unwrap().push(json!({
                    "owner": args.owner, "repo": args.repo, "state": args.state, "per_page": args.per_page
                }));
                let state = args.state.unwrap_or_else(|| "open".to_owned());
                CallToolResult::structured(json!({"result": [
                    {"number": 1, "title": format!("first ({state})"), "state": state, "body": "a very long body", "user": {"login": "ada"}},
                    {"number": 2, "title": "second", "state": state, "body": "another long body", "user": {"login": "bob"}}
                ]}))
            }
        })
        .unwrap()
        .layer(middleware::from_fn(
            move |cx: ToolCallContext<Session>, next| {
                layer_seen.lock().unwrap().push(json!({"middleware": cx.request().name}));
                next.run(cx)
            },
        ))
}

/// The original's output schema: `{"result": [issue, ...]}`.
fn issues_schema() -> JsonObject {
    let schema = json!({
        "type": "object",
        "properties": {"result": {"type": "array", "items": {
            "type": "object",
            "properties": {
                "number": {"type": "integer"},
                "title": {"type": "string"},
                "state": {"type": "string"},
                "body": {"type": "string"},
                "user": {"type": "object"}
            },
            "required": ["number", "title", "body"]
        }}},
        "required": ["result"]
    });
    schema.as_object().cloned().unwrap()
}

/// Calls `def` as a server would, in a session of `organisation`.
fn call(def: &ToolDef<Session>, organisation: &str, arguments: Value) -> CallToolResult {
    let request = CallToolRequest::new(def.name(), arguments.as_object().cloned());
    let session = Arc::new(Session {
        organisation: organisation.to_owned(),
    });
    block_on(def.call(def.context(request, session)))
}

/// The curated tool: the session's organisation as owner, a fixed
/// repository, `state` renamed to `status`, only three fields of each issue.
fn curated(seen: &Arc<Mutex<Vec<Value>>>) -> ToolDef<Session> {
    from_tool(list_issues(seen))
        .name("list_issues")
        .description("Issues of your organisation's widgets repository.")
        .arg(
            "owner",
            ArgTransform::new()
                .hide()
                .value_with(|cx: &ToolCallContext<Session>| cx.ctx().organisation.clone()),
        )
        .arg("repo", ArgTransform::new().hide().value("widgets"))
        .arg(
            "state",
            ArgTransform::new()
                .rename("status")
                .description("Open or closed issues.")
                .enum_values(["open", "closed"])
                .default_value("open"),
        )
        .keep_fields(["number", "title", "state"])
        .build()
        .unwrap()
}

#[test]
fn the_schema_is_regenerated_from_the_changes() {
    let seen = Arc::default();
    let def = curated(&seen);
    let tool = def.tool();
    assert_eq!(tool.name, "list_issues");
    assert_eq!(tool.title.as_deref(), Some("List repository issues"));
    insta::assert_json_snapshot!("curated_list_issues", tool);
}

#[test]
fn calls_are_mapped_back_and_pass_the_original_middleware() {
    let seen = Arc::default();
    let def = curated(&seen);
    let result = call(&def, "acme", json!({"status": "closed"}));
    assert_eq!(result.is_error, None, "{}", result.text_content());
    assert_eq!(
        *seen.lock().unwrap(),
        [
            json!({"middleware": "issues_list-for-repo"}),
            json!({"owner": "acme", "repo": "widgets", "state": "closed", "per_page": null})
        ]
    );
    assert_eq!(
        result.structured_content,
        Some(json!({"result": [
            {"number": 1, "title": "first (closed)", "state": "closed"},
            {"number": 2, "title": "second", "state": "closed"}
        ]}))
    );
    assert_eq!(
        result.text_content(),
        result.structured_content.unwrap().to_string()
    );
}

#[test]
fn defaults_fill_in_and_computed_values_follow_the_session() {
    let seen = Arc::default();
    let def = curated(&seen);
    call(&def, "globex", json!({}));
    let calls = seen.lock().unwrap();
    assert_eq!(calls[1]["owner"], "globex");
    assert_eq!(calls[1]["state"], "open");
}

#[test]
fn argument_errors_name_the_new_arguments() {
    let seen: Arc<Mutex<Vec<Value>>> = Arc::default();
    let def = curated(&seen);
    let wrong = call(&def, "acme", json!({"status": "all"}));
    assert!(wrong.is_error());
    let text = wrong.text_content();
    assert!(
        text.starts_with("invalid arguments for tool `list_issues`:"),
        "{text}"
    );
    assert!(text.contains("/status: \"all\" is not one of"), "{text}");
    assert!(!text.contains("state"), "{text}");

    let old_name = call(&def, "acme", json!({"state": "open"}));
    assert_eq!(
        old_name.text_content(),
        "invalid arguments for tool `list_issues`:\n/state: unknown argument `state`; it is called `status`"
    );
    let hidden = call(&def, "acme", json!({"owner": "evil"}));
    assert_eq!(
        hidden.text_content(),
        "invalid arguments for tool `list_issues`:\n/owner: argument `owner` is set by the server and cannot be given"
    );
    let typed = call(&def, "acme", json!({"per_page": "ten"}));
    assert!(
        typed.text_content().contains("/per_page: "),
        "{}",
        typed.text_content()
    );
    assert!(seen.lock().unwrap().is_empty(), "the original never ran");
}

#[derive(Deserialize)]
struct Status {
    status: String,
    per_page: Option<u8>,
}

#[test]
fn a_wrap_validates_changes_arguments_forwards_and_post_processes() {
    let seen: Arc<Mutex<Vec<Value>>> = Arc::default();
    let wrapped = from_tool(list_issues(&seen))
        .name("closed_issues")
        .arg("owner", ArgTransform::new().hide().value("acme"))
        .arg("repo", ArgTransform::new().hide().value("widgets"))
        .arg("state", ArgTransform::new().rename("status"))
        .wrap(|args: Status, forward: Forward<Session>| async move {
            if args.status == "open" {
                return Err(format!(
                    "`{}` lists closed issues only",
                    forward.context().tool().name
                ));
            }
            let page = args.per_page.unwrap_or(10).min(5);
            let first = forward
                .call(json!({"status": "closed", "per_page": page}))
                .await;
            let second = forward
                .call(json!({"status": "closed", "per_page": page}))
                .await;
            let count = [first, second]
                .iter()
                .filter_map(|result| result.structured_content.as_ref())
                .map(|value| value["result"].as_array().map_or(0, Vec::len))
                .sum::<usize>();
            Ok(CallToolResult::text(format!("{count} closed issues")))
        })
        .build()
        .unwrap();

    let refused = call(&wrapped, "acme", json!({"status": "open"}));
    assert_eq!(
        refused.text_content(),
        "`closed_issues` lists closed issues only"
    );
    assert!(seen.lock().unwrap().is_empty());

    let counted = call(&wrapped, "acme", json!({"status": "any", "per_page": 50}));
    assert_eq!(counted.text_content(), "4 closed issues");
    let calls = seen.lock().unwrap();
    assert_eq!(
        calls.len(),
        4,
        "two forwarded calls, each through the middleware"
    );
    assert_eq!(calls[1]["per_page"], 5);
    assert_eq!(calls[3]["state"], "closed");
}

#[test]
fn forwarded_arguments_are_checked_by_their_new_names() {
    let seen: Arc<Mutex<Vec<Value>>> = Arc::default();
    let wrapped = from_tool(list_issues(&seen))
        .arg(
            "state",
            ArgTransform::new().rename("status").enum_values(["open"]),
        )
        .wrap(|_: JsonObject, forward: Forward<Session>| async move {
            forward
                .call(json!({"owner": "o", "repo": "r", "status": "closed"}))
                .await
        })
        .build()
        .unwrap();
    let result = call(&wrapped, "acme", json!({"owner": "o", "repo": "r"}));
    assert!(
        result
            .text_content()
            .contains("/status: \"closed\" is not one of"),
        "{}",
        result.text_content()
    );
    assert!(seen.lock().unwrap().is_empty());
}

#[test]
fn a_file_transforms_the_tools_it_names_and_only_those() {
    let seen = Arc::default();
    let file = TransformFile::from_value(json!({"tools": {"issues_list-for-repo": {
        "name": "list_issues",
        "title": "Widget issues",
        "icons": [{"src": "https://example.com/issue.png", "mimeType": "image/png"}],
        "annotations": {"readOnlyHint": true, "title": "Issues"},
        "meta": {"com.example/team": "support"},
        "arguments": {
            "owner": {"hide": true, "value": "acme"},
            "repo": {"hide": true, "value": "widgets"},
            "state": {"rename": "status", "enum": ["open", "closed"], "default": "open"}
        },
        "result": {"keep": ["number", "title"]},
        "scopes": ["issues:read"]
    }}}))
    .unwrap();
    let other: ToolDef<Session> = tool("ping").run(|| async { "pong" }).unwrap();
    let tools = file.apply(vec![other, list_issues(&seen)]).unwrap();
    let names: Vec<&str> = tools.iter().map(ToolDef::name).collect();
    assert_eq!(names, ["ping", "list_issues"]);
    assert!(tools[0].required_scopes().is_empty());
    assert_eq!(tools[1].required_scopes(), ["issues:read"]);
    let curated = tools[1].tool();
    assert_eq!(curated.title.as_deref(), Some("Widget issues"));
    assert_eq!(curated.icons[0].src, "https://example.com/issue.png");
    assert_eq!(
        serde_json::to_value(&curated.annotations).unwrap(),
        json!({"title": "Issues", "readOnlyHint": true})
    );
    assert_eq!(
        curated.meta.as_object(),
        json!({"com.example/team": "support", "rs.mcp-toolkit/output-wrapped": true})
            .as_object()
            .unwrap()
    );
    let result = call(&tools[1], "ignored", json!({}));
    assert_eq!(
        result.structured_content,
        Some(
            json!({"result": [{"number": 1, "title": "first (open)"}, {"number": 2, "title": "second"}]})
        )
    );
}

#[test]
fn file_errors_name_the_tool_and_nothing_is_applied() {
    let seen = Arc::default();
    let apply = |value: Value| {
        let file = TransformFile::from_value(value)?;
        file.apply(vec![list_issues(&seen)]).map(|_| ())
    };
    let cases = [
        (
            json!({"tools": {"list-for-repo": {"name": "x"}}}),
            "no tool is named `list-for-repo` (did you mean `issues_list-for-repo`?)",
        ),
        (
            json!({"tools": {"issues_list-for-repo": {"arguments": {"ownr": {"hide": true}}}}}),
            "tool `issues_list-for-repo` has no argument `ownr` (its arguments: `owner`, `repo`, `state`, `per_page`)",
        ),
        (
            json!({"tools": {"issues_list-for-repo": {"arguments": {"owner": {"required": false}}}}}),
            "tool `issues_list-for-repo`, argument `owner`: `required = false` cannot make a required argument optional: give it a `default`",
        ),
        (
            json!({"tools": {"issues_list-for-repo": {"name": "bad name"}}}),
            "tool `issues_list-for-repo`: invalid tool name `bad name`: character ' ' at position 3 is not one of A-Z a-z 0-9 _ - .",
        ),
        (
            json!({"tools": {"issues_list-for-repo": {"result": {"keep": []}}}}),
            "tool `issues_list-for-repo`: `keep` needs at least one field",
        ),
        (
            json!({"tools": {"issues_list-for-repo": {"meta": {"io.modelcontextprotocol/x": 1}}}}),
            "tool `issues_list-for-repo`: `_meta` key `io.modelcontextprotocol/x` uses the reserved prefix",
        ),
    ];
    for (file, expected) in cases {
        let message = apply(file).unwrap_err().to_string();
        assert!(
            message.starts_with(expected),
            "{message}\nexpected: {expected}"
        );
    }
}

#[test]
fn two_tools_cannot_end_with_one_name() {
    let seen = Arc::default();
    let file =
        TransformFile::from_value(json!({"tools": {"issues_list-for-repo": {"name": "ping"}}}))
            .unwrap();
    let ping: ToolDef<Session> = tool("ping").run(|| async { "pong" }).unwrap();
    let error = file.apply(vec![ping, list_issues(&seen)]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "tools `ping` and `issues_list-for-repo` would both be named `ping`"
    );
}
