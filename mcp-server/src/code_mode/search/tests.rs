use std::sync::{Arc, LazyLock};

use mcp_core::Tool;
use serde_json::{Value, json};

use super::*;
use crate::code_mode::typescript::corpus::{GITHUB, identifier};

/// GitHub's tools searched in code mode.
static SEARCH: LazyLock<Search> = LazyLock::new(|| {
    let (finder, identifiers) = finder_of(&GITHUB);
    Search::new(finder, identifiers)
});

fn finder_of(tools: &[Tool]) -> (Arc<Finder>, Arc<[String]>) {
    let refs: Vec<&Tool> = tools.iter().collect();
    let identifiers: Vec<String> = tools.iter().map(|tool| identifier(&tool.name)).collect();
    (Arc::new(Finder::new(&refs)), identifiers.into())
}

fn ask(search: &Search, args: Value) -> CallToolResult {
    let args: SearchArgs = serde_json::from_value(args).expect("the arguments parse");
    search.answer(&args)
}

fn text(result: &CallToolResult) -> &str {
    result
        .content
        .first()
        .and_then(Content::as_text)
        .unwrap_or_default()
}

fn names(result: &CallToolResult) -> Vec<String> {
    result
        .structured_content
        .as_ref()
        .map_or_else(Vec::new, |content| {
            content["tools"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|tool| tool["name"].as_str().map(str::to_owned))
                .collect()
        })
}

#[test]
fn answers_carry_each_declaration_in_structured_content_and_text() {
    let result = ask(&SEARCH, json!({"query": "list the issues of a repository"}));
    assert_eq!(result.is_error, None, "{}", text(&result));
    let content = result
        .structured_content
        .as_ref()
        .expect("structured content");
    let tools = content["tools"].as_array().expect("tools");
    assert_eq!(tools.len(), DEFAULT_LIMIT);
    assert!(
        content["total"].as_u64().is_some_and(|total| total >= 5),
        "{content}"
    );
    assert!(
        names(&result).contains(&"issues_list_for_repo".to_owned()),
        "{:?}",
        names(&result)
    );
    for tool in tools {
        let keys: Vec<&String> = tool.as_object().expect("an object").keys().collect();
        let name = tool["name"].as_str().expect("a name");
        match tool.get("tool").and_then(Value::as_str) {
            Some(own) => {
                assert_eq!(keys, ["name", "tool", "typescript"]);
                assert_eq!(identifier(own), name);
                assert_ne!(own, name);
            }
            None => assert_eq!(keys, ["name", "typescript"]),
        }
        let typescript = tool["typescript"].as_str().expect("a declaration");
        assert!(
            typescript.contains(&format!("{name}(input")),
            "{typescript}"
        );
        assert!(
            text(&result).contains(typescript),
            "the text lacks {typescript}"
        );
    }
    assert!(text(&result).starts_with("// 5 of "), "{}", text(&result));
}

#[test]
fn the_ranking_is_discovery_modes() {
    let discovery = SEARCH.finder.clone();
    for (query, tags) in [
        ("who starred this repository", json!([])),
        ("merge a pull request", json!([])),
        ("create a gist", json!(["gists"])),
    ] {
        let args = json!({"query": query, "limit": 8, "tags": tags});
        let parsed: SearchArgs = serde_json::from_value(args.clone()).expect("the arguments parse");
        let discovered: Vec<String> = names(&discovery.answer(&parsed))
            .iter()
            .map(|name| identifier(name))
            .collect();
        assert_eq!(names(&ask(&SEARCH, args)), discovered, "{query}");
    }
}

#[test]
fn five_result_answers_on_github_stay_under_6_kb() {
    for query in [
        "list the issues of a repository",
        "create an issue with labels",
        "get a pull request and its files",
        "add labels to an issue",
        "list pull request commits",
        "star a repository",
        "create a repository webhook",
        "list workflow runs and their jobs",
        "update a team's repository permissions",
        "search code",
    ] {
        let result = ask(&SEARCH, json!({"query": query}));
        let bytes = serde_json::to_string(&result)
            .expect("the result serializes")
            .len();
        assert_eq!(names(&result).len(), 5, "{query}");
        let declarations: usize = text(&result).len();
        println!("{query}: {bytes} bytes, text {declarations}");
        assert!(
            bytes < 6 * 1024,
            "{query}: the answer is {bytes} bytes:\n{}",
            text(&result)
        );
        if query.starts_with("list the issues") {
            println!("{}", text(&result));
        }
    }
}

#[test]
fn declarations_in_an_answer_share_its_budget() {
    let result = ask(&SEARCH, json!({"query": "create an issue", "limit": 1}));
    let alone = text(&result).to_owned();
    let crowded = ask(&SEARCH, json!({"query": "create an issue", "limit": 10}));
    let content = crowded
        .structured_content
        .as_ref()
        .expect("structured content");
    let first = content["tools"][0]["typescript"]
        .as_str()
        .expect("a declaration");
    assert!(alone.contains("@param input.title"), "{alone}");
    assert!(first.len() < alone.len(), "{first}");
    let declarations: usize = content["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|tool| tool["typescript"].as_str())
        .map(str::len)
        .sum();
    assert!(
        declarations <= 10 * ANSWER_BYTES_PER_TOOL,
        "{declarations} bytes"
    );
}

#[test]
fn detail_adds_the_full_input_schema() {
    let result = ask(
        &SEARCH,
        json!({"query": "create an issue", "limit": 2, "detail": true}),
    );
    let content = result
        .structured_content
        .as_ref()
        .expect("structured content");
    let first = &content["tools"][0];
    let tool = crate::code_mode::typescript::corpus::named(
        &GITHUB,
        first
            .get("tool")
            .unwrap_or(&first["name"])
            .as_str()
            .expect("the tool's name"),
    );
    assert_eq!(
        first["inputSchema"],
        Value::Object((*tool.input_schema).clone())
    );
    assert!(
        text(&result).contains("// input schema: {"),
        "{}",
        text(&result)
    );
}

#[test]
fn an_empty_query_with_tags_lists_a_category() {
    let result = ask(&SEARCH, json!({"query": "", "tags": ["Gists"]}));
    let content = result
        .structured_content
        .as_ref()
        .expect("structured content");
    let tools = content["tools"].as_array().expect("tools");
    assert!(tools.len() > 5, "{content}");
    assert_eq!(content["total"], tools.len());
    for tool in tools {
        let keys: Vec<&String> = tool.as_object().expect("an object").keys().collect();
        assert!(
            keys == ["name", "description"] || keys == ["name", "tool", "description"],
            "{keys:?}"
        );
        assert!(
            tool["name"]
                .as_str()
                .is_some_and(|name| name.starts_with("gists_")),
            "{tool}"
        );
        let line = format!(
            "{}: {}",
            tool["name"].as_str().unwrap_or(""),
            tool["description"].as_str().unwrap_or("")
        );
        assert!(text(&result).contains(&line), "{line}");
    }
    let limited = ask(
        &SEARCH,
        json!({"query": " ", "tags": ["gists"], "limit": 2}),
    );
    assert_eq!(names(&limited).len(), 2);
}

#[test]
fn bad_arguments_say_what_to_change() {
    for (args, says) in [
        (
            json!({"query": "x", "limit": 0}),
            "`limit` must be between 1 and 50, not 0",
        ),
        (
            json!({"query": "x", "tags": ["nope"]}),
            "no tool has the tag `nope`; the tags are: ",
        ),
    ] {
        let result = ask(&SEARCH, args);
        assert_eq!(result.is_error, Some(true));
        assert!(text(&result).starts_with(says), "{}", text(&result));
    }
}

#[tokio::test]
async fn the_tool_describes_how_to_call_what_it_finds() {
    let (finder, identifiers) = finder_of(&GITHUB);
    let def = search_tool::<()>(finder, identifiers).expect("the tool builds");
    let tool = def.tool();
    assert_eq!(tool.name, SEARCH_TOOLS);
    let description = tool.description.as_deref().unwrap_or_default();
    for says in ["(1223)", "`await tools.<name>(input)`", " Tags: repos ("] {
        assert!(
            description.contains(says),
            "{says} missing in {description}"
        );
    }
    assert!(
        !description.contains("unvalidatedResponse"),
        "a script gets the response itself: {description}"
    );
    assert!(description.len() < 1400, "{} bytes", description.len());
    insta::assert_json_snapshot!("search_tools_on_github", tool);
    let found = def
        .call_detached(json!({"query": "star a repository", "limit": 1}))
        .await;
    assert_eq!(names(&found).len(), 1);
    let refused = def
        .call_detached(json!({"query": "x", "verbose": true}))
        .await;
    assert_eq!(refused.is_error, Some(true));
    assert!(
        text(&refused).contains("unknown argument `verbose`"),
        "{}",
        text(&refused)
    );
}

#[test]
fn tools_without_tags_or_envelopes_say_nothing_of_them() {
    let tool = mcp_core::tool("ping")
        .description("Answers pong.")
        .build()
        .expect("the tool builds");
    let (finder, identifiers) = finder_of(std::slice::from_ref(&tool));
    let description = description(&finder);
    assert!(
        !description.contains("Tags:") && !description.contains("unvalidated"),
        "{description}"
    );
    let search = Search::new(finder, identifiers);
    let result = ask(&search, json!({"query": "ping"}));
    assert_eq!(
        text(&result),
        "// 1 of 1 tools; in `execute`, call one as `await tools.<identifier>(input)`\n\n/** Answers pong. */\nping(input?: Record<string, unknown>): Promise<unknown>\n"
    );
}

#[test]
fn detail_writes_declarations_in_full() {
    let query = json!({"query": "list issues for a repository", "limit": 5});
    let short = ask(&SEARCH, query.clone());
    let mut detailed = query;
    detailed["detail"] = Value::Bool(true);
    let full = ask(&SEARCH, detailed);
    let declarations = |result: &CallToolResult| -> Vec<String> {
        result
            .structured_content
            .as_ref()
            .expect("structured content")["tools"]
            .as_array()
            .expect("tools")
            .iter()
            .map(|tool| {
                tool["typescript"]
                    .as_str()
                    .expect("a declaration")
                    .to_owned()
            })
            .collect()
    };
    let (short, full) = (declarations(&short), declarations(&full));
    assert_eq!(short.len(), full.len());
    for (short, full) in short.iter().zip(&full) {
        assert!(
            full.len() >= short.len(),
            "{full}\n\nshorter than\n\n{short}"
        );
    }
    assert!(
        full.iter()
            .zip(&short)
            .any(|(full, short)| full.len() > short.len())
    );
}

#[test]
fn categories_are_listed_and_more_candidates_named() {
    for args in [json!({"categories": true}), json!({"query": ""})] {
        let result = ask(&SEARCH, args);
        assert_eq!(result.is_error, None, "{}", text(&result));
        let content = result.structured_content.as_ref().expect("structured");
        let categories = content["categories"].as_array().expect("categories");
        let repos = categories
            .iter()
            .find(|category| category["name"] == "repos")
            .expect("repos is a category");
        assert!(repos["tools"].as_u64().unwrap_or(0) > 100, "{repos}");
        assert!(text(&result).contains("repos ("), "{}", text(&result));
    }
    let result = ask(&SEARCH, json!({"query": "star a repository"}));
    let content = result.structured_content.as_ref().expect("structured");
    let more = content["more"].as_array().expect("more");
    assert_eq!(more.len(), 15);
    assert!(more.iter().all(|candidate| candidate["name"].is_string()
        && candidate.get("typescript").is_none()));
    let first = more[0]["name"].as_str().unwrap_or_default();
    assert!(text(&result).contains(&format!(
        "// more (search one for its declaration): {first}"
    )));
}

/// The tool a script calls as `tools.<name>`, if any.
fn callable(name: &str) -> Option<&'static Tool> {
    GITHUB.iter().find(|tool| identifier(&tool.name) == name)
}

#[test]
fn every_name_an_answer_shows_is_callable_in_a_script() {
    let result = ask(
        &SEARCH,
        json!({"query": "list pull request files and commits"}),
    );
    let content = result.structured_content.as_ref().expect("structured");
    let listing = ask(&SEARCH, json!({"query": "", "tags": ["pulls"]}));
    let listed = listing.structured_content.as_ref().expect("structured");
    let shown = content["tools"]
        .as_array()
        .into_iter()
        .chain(content["more"].as_array())
        .chain(listed["tools"].as_array())
        .flatten();
    let mut differing = 0;
    for entry in shown {
        let name = entry["name"].as_str().expect("a name");
        let tool = callable(name).unwrap_or_else(|| panic!("`tools.{name}` calls nothing"));
        match entry.get("tool") {
            Some(own) => {
                assert_eq!(own, &tool.name, "{entry}");
                differing += 1;
            }
            None => assert_eq!(tool.name, name, "{entry}"),
        }
    }
    assert!(differing > 0, "no name differs from its identifier");
    let line = text(&result)
        .lines()
        .find(|line| line.starts_with("// more"))
        .expect("the more line");
    let (_, named) = line.split_once(": ").expect("names");
    for name in named.split(", ") {
        assert!(callable(name).is_some(), "`tools.{name}` calls nothing");
    }
}

#[test]
fn a_search_for_an_identifier_or_a_name_finds_its_tool_first() {
    for query in [
        "issues_list_for_repo",
        "issues_list-for-repo",
        "repos_compare_commits_with_basehead",
        "pulls_list_files",
    ] {
        let found = names(&ask(&SEARCH, json!({"query": query, "limit": 3})));
        assert_eq!(found[0], identifier(query), "{query}: {found:?}");
    }
}
