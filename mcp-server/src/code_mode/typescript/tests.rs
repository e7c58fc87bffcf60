//! Declarations of real tools (snapshots), of hand-written tools covering
//! each schema feature, and of every tool of the GitHub and Stripe
//! documents, checked by the TypeScript compiler when it is installed.

use mcp_core::Tool;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::corpus::{GITHUB, STRIPE, identifier, named};
use super::*;

mod compiler;

fn declared(tools: &[Tool], name: &str) -> String {
    declaration(named(tools, name), &identifier(name))
}

#[test]
fn github_declarations() {
    for name in [
        "issues_list-for-repo",
        "issues_create",
        "pulls_get",
        "repos_list-issue-types",
        "repos_create-webhook",
        "actions_list-workflow-runs-for-repo",
    ] {
        insta::assert_snapshot!(format!("github_{name}"), declared(&GITHUB, name));
    }
}

#[test]
fn stripe_declarations() {
    for name in [
        "GetCustomers",
        "PostCustomers",
        "GetCharges",
        "PostCheckoutSessions",
    ] {
        insta::assert_snapshot!(format!("stripe_{name}"), declared(&STRIPE, name));
    }
}

/// A folder of notes, holding notes and folders.
#[derive(Deserialize, Serialize, JsonSchema)]
#[allow(dead_code)]
struct Folder {
    /// The folder's name.
    name: String,
    folders: Vec<Folder>,
    /// Where the folder is, if anywhere.
    location: Option<Point>,
}

/// A point on the map, as longitude and latitude.
#[derive(Deserialize, Serialize, JsonSchema)]
struct Point(f64, f64);

/// How a note is shared.
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[allow(dead_code)]
enum Sharing {
    Private,
    Team,
    Public,
}

/// Who a note is for: a user by login, or a team by its id.
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum Audience {
    Login(String),
    Team { team_id: u64 },
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct FileArgs {
    /// The folder to file the note in. Created when missing.
    folder: Folder,
    /// Who may read the note.
    sharing: Option<Sharing>,
    audience: Vec<Audience>,
    /// Label colours by label name.
    labels: std::collections::BTreeMap<String, Option<String>>,
    /// The note itself, under a key that is no identifier.
    #[serde(rename = "note-text")]
    note_text: String,
}

fn handwritten() -> Tool {
    mcp_core::tool("notes.file")
        .description("Files a note in a folder.\n\nThe folder tree is created as needed.")
        .input::<FileArgs>()
        .output::<Vec<Folder>>()
        .build()
        .expect("the tool builds")
}

#[test]
fn hand_written_declaration() {
    let tool = handwritten();
    insta::assert_snapshot!("handwritten_notes_file", declaration(&tool, "notes_file"));
}

#[test]
fn inputs_without_required_arguments_are_optional_and_odd_names_quoted() {
    let tool = mcp_core::tool("ping")
        .description("Answers pong.")
        .input_schema(
            json!({"type": "object", "properties": {"loud": {"type": "boolean"}}})
                .as_object()
                .cloned()
                .unwrap_or_default(),
        )
        .build()
        .expect("the tool builds");
    assert_eq!(
        declaration(&tool, "ping"),
        "/** Answers pong. */\nping(input?: { loud?: boolean }): Promise<unknown>"
    );
    assert_eq!(
        declaration(&tool, "3d_ping"),
        "/** Answers pong. */\n\"3d_ping\"(input?: { loud?: boolean }): Promise<unknown>"
    );
}

#[test]
fn the_most_detailed_level_that_fits_is_chosen() {
    let common = CommonArguments::default();
    for name in [
        "issues_create",
        "pulls_get",
        "repos_get",
        "issues_list-for-repo",
    ] {
        let tool = named(&GITHUB, name);
        let id = identifier(name);
        let chosen = declaration(tool, &id);
        let sizes: Vec<usize> = (0..LEVEL_COUNT)
            .map(|level| declaration_at(tool, &id, level, &common).len())
            .collect();
        let first_fitting = sizes.iter().position(|&size| size <= DECLARATION_BYTES);
        let expected = declaration_at(tool, &id, first_fitting.unwrap_or(LEVEL_COUNT - 1), &common);
        assert_eq!(chosen, expected, "{name}: sizes {sizes:?}");
        assert!(
            chosen.len() <= DECLARATION_BYTES,
            "{name}: {} bytes",
            chosen.len()
        );
        assert!(
            sizes.windows(2).all(|pair| pair[1] <= pair[0]),
            "{name}: sizes {sizes:?}"
        );
    }
}

/// Tools whose argument and result refer to themselves through each
/// keyword a declaration spells out, directly or around a loop.
fn self_referring() -> Vec<Tool> {
    let me = |name: &str| json!({"$ref": format!("#/$defs/{name}")});
    let shapes = [
        ("items", json!({"S": {"type": "array", "items": me("S")}})),
        (
            "prefix",
            json!({"S": {"type": "array", "prefixItems": [{"type": "string"}, me("S")]}}),
        ),
        (
            "any",
            json!({"S": {"anyOf": [{"type": "string"}, me("S")]}}),
        ),
        (
            "one",
            json!({"S": {"oneOf": [{"type": "integer"}, {"type": "array", "items": me("S")}]}}),
        ),
        ("all", json!({"S": {"allOf": [me("S")]}})),
        (
            "map",
            json!({"S": {"type": "object", "additionalProperties": me("S")}}),
        ),
        (
            "pattern",
            json!({"S": {"type": "object", "patternProperties": {"^x": me("S")}}}),
        ),
        (
            "not",
            json!({"S": {"type": "object", "properties": {"n": {"not": me("S")}}}}),
        ),
        ("chain", json!({"S": me("T"), "T": me("S")})),
        (
            "loop",
            json!({"S": {"anyOf": [{"type": "boolean"}, me("T")]}, "T": {"oneOf": [{"type": "null"}, me("S")]}}),
        ),
        (
            "mutual",
            json!({"S": {"type": "array", "items": me("T")}, "T": {"anyOf": [{"type": "boolean"}, me("S")]}}),
        ),
        (
            "json",
            json!({"S": {"anyOf": [
                {"type": "string"}, {"type": "number"}, {"type": "boolean"}, {"type": "null"},
                {"type": "array", "items": me("S")},
                {"type": "object", "additionalProperties": me("S")}
            ]}}),
        ),
    ];
    shapes
        .into_iter()
        .map(|(name, defs)| {
            let input = json!({"type": "object", "properties": {"value": me("S")}, "$defs": defs});
            let output =
                json!({"type": "object", "properties": {"result": me("S")}, "$defs": defs});
            serde_json::from_value::<Tool>(json!({
                "name": format!("self_{name}"),
                "inputSchema": input,
                "outputSchema": output
            }))
            .expect("a tool")
        })
        .collect()
}

#[test]
fn self_referring_schemas_are_declared() {
    let declared: Vec<String> = self_referring()
        .iter()
        .map(|tool| declaration(tool, &identifier(&tool.name)))
        .collect();
    insta::assert_snapshot!(declared.join("\n\n"));
}

/// Every declaration of the two documents, at the level `declaration`
/// chooses and at the most detailed level, is made without a panic and is
/// valid TypeScript.
#[test]
fn every_corpus_declaration_is_valid_typescript() {
    let common = CommonArguments::default();
    let mut declarations = Vec::new();
    for (document, tools) in [("github", &*GITHUB), ("stripe", &*STRIPE)] {
        for tool in tools {
            let id = identifier(&tool.name);
            declarations.push((format!("{document} {}", tool.name), declaration(tool, &id)));
            declarations.push((
                format!("{document} {} (level 0)", tool.name),
                declaration_at(tool, &id, 0, &common),
            ));
        }
    }
    declarations.push((
        "handwritten".to_owned(),
        declaration(&handwritten(), "notes_file"),
    ));
    for tool in self_referring() {
        let id = identifier(&tool.name);
        declarations.push((tool.name.clone(), declaration(&tool, &id)));
    }
    assert!(
        declarations.len() > 3_000,
        "{} declarations",
        declarations.len()
    );
    compiler::check(&declarations);
}
