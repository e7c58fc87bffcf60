//! Discovery mode on the wire: what `tools/list` shows, `search_tools`
//! answers and their sizes, `call_tool` running tools as `tools/call` does.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_core::{JsonObject, ToolDef, tool};
use mcp_server::{Discovery, OpenApiSource, Server, ToolSource};
use serde_json::{Value, json};

use crate::discovery_quality::generated_tools;
use crate::support::Raw;

fn whoami() -> ToolDef {
    tool("whoami")
        .description("The user this server acts for.")
        .run(|| async { "octocat" })
        .unwrap()
}

fn echo() -> ToolDef {
    tool("echo")
        .description("Repeats its arguments.")
        .run(|args: JsonObject| async move { Value::Object(args).to_string() })
        .unwrap()
}

/// The bytes of `value` as compact JSON.
fn bytes(value: &Value) -> usize {
    value.to_string().len()
}

fn names(list: &Value) -> Vec<&str> {
    list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn github_lists_two_meta_tools_and_answers_searches_compactly() {
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = calls.clone();
    let server = Server::builder()
        .tool(whoami())
        .source(ToolSource::new(
            "github",
            generated_tools("github-api.github.com.json"),
        ))
        .tool_middleware(mcp_core::tool::middleware::from_fn(move |cx, next| {
            let seen = seen.clone();
            async move {
                if cx.tool().name == "whoami" {
                    seen.fetch_add(1, Ordering::SeqCst);
                }
                next.run(cx).await
            }
        }))
        .discovery(Discovery::search().pin(["whoami"]))
        .build()
        .unwrap();
    let mut raw = Raw::new(server);
    raw.initialize_2025().await;
    let list = raw.request(1, "tools/list", json!({})).await;
    assert_eq!(names(&list), ["search_tools", "call_tool", "whoami"]);
    let list_bytes = bytes(&list["result"]);
    assert!(list_bytes < 2048, "tools/list is {list_bytes} bytes");
    let description = list["result"]["tools"][0]["description"].as_str().unwrap();
    assert!(description.contains("repos ("), "{description}");

    let search = raw
        .request(
            2,
            "tools/call",
            json!({"name": "search_tools", "arguments": {"query": "who has starred this repo?"}}),
        )
        .await;
    let result = &search["result"];
    let found = result["structuredContent"]["tools"].as_array().unwrap();
    assert_eq!(found.len(), 5, "{result}");
    assert!(
        found
            .iter()
            .all(|tool| tool["inputSchema"]["type"] == "object")
    );
    // The text is the structured content as JSON, within the budget.
    let text = result["content"][0]["text"].as_str().unwrap();
    let answer_bytes = text.len();
    assert!(
        answer_bytes <= 6000,
        "the answer's text is {answer_bytes} bytes"
    );
    let read: Value = serde_json::from_str(text).unwrap();
    assert_eq!(read, result["structuredContent"]);
    assert!(
        read["tools"]
            .as_array()
            .unwrap()
            .iter()
            .all(|tool| tool["inputSchema"]["type"] == "object"),
        "{text}"
    );
    // The next 15 candidates, by name and title only.
    let more = result["structuredContent"]["more"].as_array().unwrap();
    assert_eq!(more.len(), 15, "{result}");
    assert!(
        more.iter().all(|candidate| candidate["name"].is_string()
            && candidate.get("title").is_none_or(Value::is_string)
            && candidate.get("inputSchema").is_none()),
        "{result}"
    );

    // The full input schema on request.
    let detail = raw
        .request(3, "tools/call", json!({"name": "search_tools", "arguments": {"query": "issues/create", "limit": 1, "detail": true}}))
        .await;
    let schema = &detail["result"]["structuredContent"]["tools"][0]["inputSchema"];
    assert!(schema["properties"]["title"].is_object(), "{detail}");
    let text: Value =
        serde_json::from_str(detail["result"]["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(&text["tools"][0]["inputSchema"], schema);

    // A category, listed compactly.
    let category = raw
        .request(
            4,
            "tools/call",
            json!({"name": "search_tools", "arguments": {"query": "", "tags": ["gists"]}}),
        )
        .await;
    let listed = category["result"]["structuredContent"]["tools"]
        .as_array()
        .unwrap();
    assert!(
        listed.len() > 5 && listed.iter().all(|tool| tool.get("inputSchema").is_none()),
        "{category}"
    );

    // call_tool runs the tool through the middleware, like tools/call.
    let through = raw
        .request(
            5,
            "tools/call",
            json!({"name": "call_tool", "arguments": {"name": "whoami", "arguments": {}}}),
        )
        .await;
    let direct = raw
        .request(6, "tools/call", json!({"name": "whoami", "arguments": {}}))
        .await;
    assert_eq!(through["result"], direct["result"]);
    assert_eq!(calls.load(Ordering::SeqCst), 2);

    let unknown = raw
        .request(
            7,
            "tools/call",
            json!({"name": "call_tool", "arguments": {"name": "whoam"}}),
        )
        .await;
    assert_eq!(unknown["result"]["isError"], true);
    let message = unknown["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        message.starts_with("unknown tool `whoam`; did you mean `whoami`"),
        "{message}"
    );
}

/// The categories of every corpus document that makes tools, listed with
/// `categories: true` and by an empty query without tags.
#[tokio::test]
async fn categories_list_on_every_corpus_document() {
    for name in testdata::openapi_names() {
        let Ok(api) = mcp_openapi::OpenApi::from_path(testdata::openapi(&name)) else {
            continue;
        };
        let tags: HashMap<String, String> = api
            .tags()
            .into_iter()
            .filter_map(|tag| Some((tag.name.to_lowercase(), tag.about()?.to_owned())))
            .collect();
        let source = OpenApiSource::api(api).base_url("http://127.0.0.1:9");
        let Ok(server) = Server::builder()
            .openapi(source)
            .discovery(Discovery::search())
            .build()
        else {
            continue;
        };
        let count = server.tools().len();
        let search = server.tool(mcp_server::SEARCH_TOOLS).unwrap();
        for arguments in [
            json!({"categories": true, "limit": 50}),
            json!({"query": ""}),
        ] {
            let result = search.call_detached(arguments.clone()).await;
            assert_eq!(result.is_error, None, "{name} {arguments}: {result:?}");
            let content = result.structured_content.unwrap();
            let categories = content["categories"].as_array().unwrap();
            if count == 0 {
                assert!(categories.is_empty(), "{name}: {content}");
                continue;
            }
            assert!(!categories.is_empty(), "{name}: {content}");
            assert!(
                categories
                    .iter()
                    .all(|category| category["name"].is_string()
                        && category["description"].is_string()
                        && category["tools"].as_u64().is_some_and(|tools| tools > 0)),
                "{name}: {content}"
            );
            // A category of a described tag says what the tag's description
            // says first.
            for category in categories {
                let name = category["name"].as_str().unwrap().to_lowercase();
                let Some(about) = tags.get(&name) else {
                    continue;
                };
                let description = category["description"].as_str().unwrap();
                let first_word = description
                    .split(|c: char| !c.is_alphanumeric())
                    .find(|word| !word.is_empty())
                    .unwrap_or_else(|| panic!("{name}: an empty description for {about:?}"));
                assert!(
                    about.contains(first_word),
                    "{name}: {description:?} for {about:?}"
                );
            }
            // Each category lists its tools.
            let first = categories[0]["name"].as_str().unwrap();
            let listed = search
                .call_detached(json!({"query": "", "tags": [first], "limit": 1}))
                .await;
            assert_eq!(listed.is_error, None, "{name} {first}: {listed:?}");
        }
    }
}

#[tokio::test]
async fn stripe_answers_stay_small() {
    let server = Server::builder()
        .tools(generated_tools("stripe-spec3.json"))
        .discovery(Discovery::search())
        .build()
        .unwrap();
    let mut raw = Raw::new(server);
    raw.initialize_2025().await;
    let list = raw.request(1, "tools/list", json!({})).await;
    assert!(bytes(&list["result"]) < 2048, "{list}");
    for (id, query) in [
        "create a customer",
        "refund a payment",
        "update a subscription",
    ]
    .into_iter()
    .enumerate()
    {
        let search = raw
            .request(
                id as i64 + 2,
                "tools/call",
                json!({"name": "search_tools", "arguments": {"query": query}}),
            )
            .await;
        let answer_bytes = search["result"]["content"][0]["text"]
            .as_str()
            .map_or(0, str::len);
        assert!(
            answer_bytes <= 6000,
            "{query}: the answer's text is {answer_bytes} bytes"
        );
        assert_eq!(
            search["result"]["structuredContent"]["more"]
                .as_array()
                .map(Vec::len),
            Some(15),
            "{query}"
        );
    }
}

#[tokio::test]
async fn call_tool_passes_arguments_and_checks_its_own() {
    let server = Server::builder()
        .tools([whoami(), echo()])
        .discovery(Discovery::search())
        .build()
        .unwrap();
    let mut raw = Raw::new(server.clone());
    raw.initialize_2025().await;
    let echoed = raw
        .request(
            1,
            "tools/call",
            json!({"name": "call_tool", "arguments": {"name": "echo", "arguments": {"a": 1}}}),
        )
        .await;
    assert_eq!(echoed["result"]["content"][0]["text"], r#"{"a":1}"#);
    let bad = raw
        .request(
            2,
            "tools/call",
            json!({"name": "call_tool", "arguments": {"name": "echo", "arguments": 3}}),
        )
        .await;
    assert_eq!(bad["result"]["isError"], true, "{bad}");
    let limit = raw
        .request(
            3,
            "tools/call",
            json!({"name": "search_tools", "arguments": {"query": "echo", "limit": 99}}),
        )
        .await;
    assert_eq!(limit["result"]["isError"], true, "{limit}");

    // A tool added while serving is found.
    server
        .add_tool(
            tool("list_stargazers")
                .description("Lists who starred a repository.")
                .run(|| async { "" })
                .unwrap(),
        )
        .unwrap();
    assert_eq!(
        server.search("who starred my repository", 1),
        ["list_stargazers"]
    );
    let list = raw.request(4, "tools/list", json!({})).await;
    assert_eq!(names(&list), ["search_tools", "call_tool"]);
}

#[test]
fn pinning_an_unknown_tool_is_an_error() {
    let error = Server::builder()
        .tool(whoami())
        .discovery(Discovery::search().pin(["whoamI"]))
        .build()
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "the pinned tool `whoamI` is not hosted (closest: `whoami`)"
    );
}
