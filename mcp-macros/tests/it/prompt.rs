//! `#[prompt]`: the same builder chain for prompts.

use std::sync::Arc;

use futures_executor::block_on;
use mcp_core::{
    Icon,
    prompt::{PromptDef, PromptRequest, prompt},
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

/// Asks for a careful code review.
#[mcp_macros::prompt(
    title = "Review code",
    icon(svg = "https://example.com/review.svg"),
    meta("com.example/kind" = "review")
)]
pub(crate) async fn code_review(code: String, language: Option<String>) -> String {
    format!(
        "Review this {} code:\n{code}",
        language.as_deref().unwrap_or("unknown")
    )
}

#[derive(Deserialize, JsonSchema)]
struct Review {
    code: String,
    language: Option<String>,
}

#[derive(Default)]
pub(crate) struct Team {
    name: String,
}

/// Greets the team.
#[mcp_macros::prompt(name = "greet_team")]
pub(crate) async fn greet(team: &Team, request: &PromptRequest<Team>) -> String {
    format!("hello {} ({})", team.name, request.prompt().name)
}

fn object(value: serde_json::Value) -> mcp_core::JsonObject {
    value.as_object().cloned().unwrap_or_default()
}

#[test]
fn prompt_matches_the_builder_and_renders() {
    let from_macro: PromptDef = code_review_prompt().unwrap();
    let from_builder: PromptDef = prompt("code_review")
        .description("Asks for a careful code review.")
        .title("Review code")
        .icon(Icon::svg("https://example.com/review.svg", &[]))
        .meta("com.example/kind", "review".into())
        .arguments::<Review>()
        .run(|args: Review| code_review(args.code, args.language))
        .unwrap();
    assert_eq!(from_macro.prompt(), from_builder.prompt());

    let result = block_on(
        from_macro.get_detached(object(json!({"code": "fn main() {}", "language": "rust"}))),
    )
    .unwrap();
    assert_eq!(
        result.messages[0].content.as_text(),
        Some("Review this rust code:\nfn main() {}")
    );
    let missing =
        block_on(from_macro.get_detached(object(json!({"language": "rust"})))).unwrap_err();
    let from_builder =
        block_on(from_builder.get_detached(object(json!({"language": "rust"})))).unwrap_err();
    assert_eq!(missing.to_string(), from_builder.to_string());
    assert!(missing.to_string().contains("`code`"), "{missing}");
}

#[test]
fn prompt_sees_the_session_and_the_request() {
    let def: PromptDef<Team> = greet_prompt().unwrap();
    assert!(def.prompt().arguments.is_empty());
    let team = Arc::new(Team {
        name: "core".to_owned(),
    });
    let result = block_on(def.get(def.request(mcp_core::JsonObject::new(), team))).unwrap();
    assert_eq!(
        result.messages[0].content.as_text(),
        Some("hello core (greet_team)")
    );
}

/// Summarizes a text.
#[mcp_macros::prompt]
async fn summary(
    #[arg(description = "The text to summarize.")] text: String,
    length: Option<String>,
) -> String {
    format!(
        "Summarize in {} words: {text}",
        length.as_deref().unwrap_or("50")
    )
}

#[test]
fn arg_describes_a_prompt_argument() {
    let def: PromptDef = summary_prompt().unwrap();
    let arguments = &def.prompt().arguments;
    assert_eq!(arguments[0].name, "text");
    assert_eq!(
        arguments[0].description.as_deref(),
        Some("The text to summarize.")
    );
    assert_eq!(arguments[1].description, None);
}
