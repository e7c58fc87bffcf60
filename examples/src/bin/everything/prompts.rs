//! The suite's prompts.

use mcp_core::{
    client::ElicitRequest,
    completion::Completer,
    content::Content,
    prompt::prompt,
    prompt::{GetPromptResult, PromptArgument, PromptDef, PromptError, PromptMessage},
    resource::ResourceContents,
};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::media::RED_PIXEL_PNG;

/// The arguments of `test_prompt_with_arguments`.
#[derive(Deserialize, JsonSchema)]
struct TwoArgs {
    /// First test argument.
    arg1: String,
    /// Second test argument.
    arg2: String,
}

pub(crate) fn all() -> Result<Vec<PromptDef>, PromptError> {
    Ok(vec![
        prompt("test_simple_prompt")
            .description("A simple prompt without arguments.")
            .run(|| async { "This is a simple prompt for testing." })?,
        prompt("test_prompt_with_arguments")
            .description("A prompt with two required arguments.")
            .arguments::<TwoArgs>()
            .complete(
                "arg1",
                Completer::values(["paris", "park", "party", "test"]),
            )
            .run(|args: TwoArgs| async move {
                format!(
                    "Prompt with arguments: arg1='{}', arg2='{}'",
                    args.arg1, args.arg2
                )
            })?,
        prompt("test_prompt_with_embedded_resource")
            .description("A prompt embedding a resource.")
            .argument(
                PromptArgument::new("resourceUri")
                    .description("URI of the resource to embed")
                    .required(true),
            )
            .run(|args: mcp_core::JsonObject| async move {
                let uri = args
                    .get("resourceUri")
                    .and_then(|v| v.as_str())
                    .unwrap_or_default()
                    .to_owned();
                let text = "Embedded resource content for testing.";
                vec![
                    PromptMessage::user(Content::resource(ResourceContents::text(
                        uri,
                        Some("text/plain".into()),
                        text,
                    ))),
                    PromptMessage::user_text("Please process the embedded resource above."),
                ]
            })?,
        prompt("test_input_required_result_prompt")
            .description("A prompt that asks the user for context first.")
            .run(
                |_: mcp_core::JsonObject, req: mcp_core::prompt::PromptRequest| async move {
                    let schema = serde_json::json!({
                        "type": "object",
                        "properties": {"context": {"type": "string"}},
                        "required": ["context"]
                    });
                    let ask = ElicitRequest::new("What context should the prompt use?", schema)
                        .map_err(|e| e.to_string())?
                        .input_key("user_context");
                    let answer = req.elicit(ask).await.map_err(|e| e.to_string())?;
                    let context = answer
                        .content
                        .and_then(|c| c.get("context").cloned())
                        .unwrap_or_default();
                    Ok::<_, String>(format!("Answer with this context in mind: {context}"))
                },
            )?,
        prompt("test_prompt_with_image")
            .description("A prompt with an image.")
            .run(|| async {
                GetPromptResult::new(vec![
                    PromptMessage::user(Content::image(RED_PIXEL_PNG, "image/png")),
                    PromptMessage::user_text("Please analyze the image above."),
                ])
            })?,
    ])
}
