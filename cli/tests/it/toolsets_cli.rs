//! `mcp-server tools|serve --toolsets ... --read-only` on GitHub's document:
//! the tools printed are those of the operations tagged with the toolsets
//! (read-only ones: GET operations), `--stats` sizes exactly them, and an
//! unknown toolset is one error line naming the toolsets.

use std::collections::BTreeSet;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn mcp_server(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mcp-server"))
        .args(args)
        .env("RUST_LOG", "off")
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

fn github() -> String {
    let path = testdata::openapi("github-api.github.com.json");
    assert!(path.is_file(), "no GitHub document at {}", path.display());
    path.to_str().expect("a UTF-8 path").to_owned()
}

/// The operationIds of the document's operations tagged `tag` whose method
/// is one of `methods`.
fn operations(document: &str, tag: &str, methods: &[&str]) -> BTreeSet<String> {
    let document: Value =
        serde_json::from_str(&std::fs::read_to_string(document).expect("the document reads"))
            .expect("the document is JSON");
    let mut found = BTreeSet::new();
    for item in document["paths"].as_object().expect("paths").values() {
        for method in methods {
            let operation = &item[method.to_lowercase()];
            let tagged = operation["tags"]
                .as_array()
                .is_some_and(|tags| tags.iter().any(|name| name == tag));
            if let (true, Some(id)) = (tagged, operation["operationId"].as_str()) {
                found.insert(id.to_owned());
            }
        }
    }
    found
}

#[test]
fn tools_prints_only_the_read_only_tools_of_the_toolsets_with_their_stats() {
    let document = github();
    let output = mcp_server(&[
        "tools",
        "--openapi",
        &document,
        "--toolsets",
        "issues",
        "--read-only",
        "--stats",
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let listed: Value = serde_json::from_str(&stdout).expect("JSON on stdout");
    let tools = listed["tools"].as_array().expect("a tools array");
    let mut names = BTreeSet::new();
    let mut operation_ids = BTreeSet::new();
    for tool in tools {
        let name = tool["name"].as_str().expect("a name");
        assert!(name.starts_with("issues_"), "{name}");
        assert_eq!(tool["annotations"]["readOnlyHint"], true, "{name}");
        let openapi = &tool["_meta"]["rs.mcp-toolkit/openapi"];
        assert_eq!(openapi["method"], "GET", "{name}");
        names.insert(name.to_owned());
        operation_ids.insert(
            openapi["operationId"]
                .as_str()
                .expect("an operationId")
                .to_owned(),
        );
    }
    assert!(names.contains("issues_get") && !names.contains("issues_create"));
    let read_only = operations(&document, "issues", &["GET", "HEAD", "OPTIONS"]);
    assert_eq!(operation_ids, read_only);
    assert!(operations(&document, "issues", &["POST"]).contains("issues/create"));

    // The table names each tool once, then the totals of what was printed.
    let rows: BTreeSet<&str> = stderr
        .lines()
        .skip(1)
        .take_while(|line| !line.contains(" tools, "))
        .filter_map(|line| line.split_whitespace().last())
        .collect();
    let names: BTreeSet<&str> = names.iter().map(String::as_str).collect();
    assert_eq!(rows, names, "{stderr}");
    let totals = format!(
        "{} tools, {} bytes, ~",
        tools.len(),
        stdout.trim_end().len()
    );
    assert!(
        stderr
            .lines()
            .any(|line| line.starts_with(&totals) && line.ends_with(" tokens in tools/list")),
        "no `{totals}...` in:\n{stderr}"
    );
}

#[test]
fn toolsets_add_up_and_all_is_every_tool() {
    let document = github();
    let count = |args: &[&str]| -> usize {
        let output = mcp_server(&[&["tools", "--openapi", document.as_str()][..], args].concat());
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let listed: Value = serde_json::from_slice(&output.stdout).expect("JSON on stdout");
        listed["tools"].as_array().expect("a tools array").len()
    };
    let issues = count(&["--toolsets", "issues"]);
    let pulls = count(&["--toolsets", "pulls"]);
    assert_eq!(
        issues,
        operations(
            &document,
            "issues",
            &["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]
        )
        .len()
    );
    assert_eq!(count(&["--toolsets", "issues,pulls"]), issues + pulls);
    assert_eq!(
        count(&["--toolsets", "Issues", "--toolsets", "pulls"]),
        issues + pulls
    );
    assert!(count(&["--toolsets", "all"]) > issues + pulls);
    assert_eq!(count(&["--toolsets", "all"]), count(&[]));
    assert!(count(&["--read-only"]) < count(&[]));
}

#[test]
fn an_unknown_toolset_is_one_line_naming_the_toolsets() {
    let document = github();
    for command in ["tools", "serve"] {
        for toolsets in ["nope", "issues,nope"] {
            let output = mcp_server(&[command, "--openapi", &document, "--toolsets", toolsets]);
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(!output.status.success(), "{command} --toolsets {toolsets}");
            assert!(output.stdout.is_empty(), "{command} --toolsets {toolsets}");
            assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
            for word in ["`nope`", "toolsets are", "issues", "pulls", "repos"] {
                assert!(stderr.contains(word), "no {word} in: {stderr}");
            }
        }
    }
}
