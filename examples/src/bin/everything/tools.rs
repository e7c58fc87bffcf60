//! The suite's tools for 2025-11-25 clients.

use std::time::Duration;

use mcp_core::{
    CallToolResult, JsonObject, ToolCallContext, ToolDef, ToolError,
    client::{CreateMessageRequest, ElicitRequest, LoggingLevel},
    content::Content,
    resource::ResourceContents,
    tool,
};
use serde_json::{Value, json};

use crate::media::{EMPTY_WAV, RED_PIXEL_PNG};

/// Returns a simple text response.
#[tool]
async fn test_simple_text() -> &'static str {
    "This is a simple text response for testing."
}

/// Returns an image.
#[tool]
async fn test_image_content() -> Content {
    Content::image(RED_PIXEL_PNG, "image/png")
}

/// Returns audio.
#[tool]
async fn test_audio_content() -> Content {
    Content::audio(EMPTY_WAV, "audio/wav")
}

/// Returns an embedded resource.
#[tool]
async fn test_embedded_resource() -> Content {
    let text = "This is an embedded resource content.";
    Content::resource(ResourceContents::text(
        "test://embedded-resource",
        Some("text/plain".into()),
        text,
    ))
}

/// Returns text, an image and an embedded resource.
#[tool]
async fn test_multiple_content_types() -> Vec<Content> {
    let data = json!({"test": "data", "value": 123}).to_string();
    vec![
        Content::text("Multiple content types test:"),
        Content::image(RED_PIXEL_PNG, "image/png"),
        Content::resource(ResourceContents::text(
            "test://mixed-content-resource",
            Some("application/json".into()),
            data,
        )),
    ]
}

/// Sends three log messages while it runs.
#[tool]
async fn test_tool_with_logging(cx: &ToolCallContext) -> Result<&'static str, String> {
    let step = |text: &'static str| cx.log(LoggingLevel::Info, text);
    step("Tool execution started")
        .await
        .map_err(|e| e.to_string())?;
    tokio::time::sleep(Duration::from_millis(50)).await;
    step("Tool processing data")
        .await
        .map_err(|e| e.to_string())?;
    tokio::time::sleep(Duration::from_millis(50)).await;
    step("Tool execution completed")
        .await
        .map_err(|e| e.to_string())?;
    Ok("Tool with logging executed successfully")
}

/// Reports progress 0, 50 and 100 of 100.
#[tool]
async fn test_tool_with_progress(cx: &ToolCallContext) -> Result<&'static str, String> {
    for (i, progress) in [0.0, 50.0, 100.0].into_iter().enumerate() {
        if i > 0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        cx.progress(progress, Some(100.0), None)
            .await
            .map_err(|e| e.to_string())?;
    }
    Ok("Tool with progress executed successfully")
}

/// Asks the client's model to answer `prompt`.
#[tool]
async fn test_sampling(prompt: String, cx: &ToolCallContext) -> Result<String, String> {
    let answer = cx
        .sample(CreateMessageRequest::text(prompt, 100))
        .await
        .map_err(|e| e.to_string())?;
    Ok(format!("LLM response: {}", answer.text()))
}

/// Asks the user for a username and an email address.
#[tool]
async fn test_elicitation(message: String, cx: &ToolCallContext) -> Result<String, String> {
    let schema = json!({
        "type": "object",
        "properties": {
            "username": {"type": "string", "description": "User's response"},
            "email": {"type": "string", "description": "User's email address"}
        },
        "required": ["username", "email"]
    });
    elicit(cx, &message, schema, "User response").await
}

async fn elicit<C>(
    cx: &ToolCallContext<C>,
    message: &str,
    schema: Value,
    label: &str,
) -> Result<String, String> {
    let request = ElicitRequest::new(message, schema).map_err(|e| e.to_string())?;
    let answer = cx.elicit(request).await.map_err(|e| e.to_string())?;
    let content = Value::Object(answer.content.unwrap_or_default());
    let action = serde_json::to_value(answer.action).unwrap_or_default();
    Ok(format!(
        "{label}: action={}, content={content}",
        action.as_str().unwrap_or_default()
    ))
}

fn raw(
    text: &str,
) -> impl Fn(JsonObject) -> std::future::Ready<CallToolResult> + Send + Sync + 'static {
    let text = text.to_owned();
    move |_| std::future::ready(CallToolResult::error(text.clone()))
}

pub(crate) fn all() -> Result<Vec<ToolDef>, ToolError> {
    let defaults = json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "default": "John Doe"},
            "age": {"type": "integer", "default": 30},
            "score": {"type": "number", "default": 95.5},
            "status": {"type": "string", "enum": ["active", "inactive", "pending"], "default": "active"},
            "verified": {"type": "boolean", "default": true}
        }
    });
    let enums = json!({
        "type": "object",
        "properties": {
            "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
            "titledSingle": {"type": "string", "oneOf": [
                {"const": "value1", "title": "First Option"},
                {"const": "value2", "title": "Second Option"},
                {"const": "value3", "title": "Third Option"}
            ]},
            "legacyEnum": {"type": "string", "enum": ["opt1", "opt2", "opt3"],
                "enumNames": ["Option One", "Option Two", "Option Three"]},
            "untitledMulti": {"type": "array", "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
            "titledMulti": {"type": "array", "items": {"anyOf": [
                {"const": "value1", "title": "First Choice"},
                {"const": "value2", "title": "Second Choice"},
                {"const": "value3", "title": "Third Choice"}
            ]}}
        }
    });
    let schema_2020_12 = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {"address": {"type": "object", "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
        "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"}},
        "additionalProperties": false
    });
    Ok(vec![
        test_simple_text_tool()?.into(),
        test_image_content_tool()?.into(),
        test_audio_content_tool()?.into(),
        test_embedded_resource_tool()?.into(),
        test_multiple_content_types_tool()?.into(),
        test_tool_with_logging_tool()?,
        test_tool_with_progress_tool()?,
        test_sampling_tool()?,
        test_elicitation_tool()?,
        tool("test_reconnection")
            .description("Closes its SSE stream mid-call, then answers on the stream the client resumes with Last-Event-ID.")
            .run(|_: JsonObject, cx: ToolCallContext| async move {
                let closed = cx.close_sse_stream(Duration::from_millis(100)).await;
                tokio::time::sleep(Duration::from_millis(300)).await;
                match closed {
                    Ok(()) => "answered after the reconnection".to_owned(),
                    Err(error) => format!("answered on the open stream ({error})"),
                }
            })?,
        tool("test_error_handling")
            .description("Always fails.")
            .run(raw("This tool intentionally returns an error for testing"))?,
        tool("test_elicitation_sep1034_defaults")
            .description("Elicits values with defaults for every primitive type.")
            .run(move |_: JsonObject, cx: ToolCallContext| {
                let schema = defaults.clone();
                async move {
                    elicit(
                        &cx,
                        "Please review and update the form fields with defaults",
                        schema,
                        "Elicitation completed",
                    )
                    .await
                }
            })?,
        tool("test_elicitation_sep1330_enums")
            .description("Elicits values with every enum schema variant.")
            .run(move |_: JsonObject, cx: ToolCallContext| {
                let schema = enums.clone();
                async move {
                    elicit(
                        &cx,
                        "Please select options from the enum fields",
                        schema,
                        "Elicitation completed",
                    )
                    .await
                }
            })?,
        tool("test_custom_header")
            .description("Echoes `region`, which 2026-07-28 HTTP clients also send as the Mcp-Param-Region header.")
            .input_schema(
                json!({
                    "type": "object",
                    "properties": {"region": {"type": "string", "x-mcp-header": "Region"}},
                    "required": ["region"]
                })
                .as_object()
                .cloned()
                .unwrap_or_default(),
            )
            .run(|args: JsonObject| async move {
                format!("region: {}", args.get("region").and_then(Value::as_str).unwrap_or_default())
            })?,
        tool("json_schema_2020_12_tool")
            .description("Tool with JSON Schema 2020-12 features")
            .input_schema(schema_2020_12.as_object().cloned().unwrap_or_default())
            .run(|args: JsonObject| async move { format!("Received: {}", Value::Object(args)) })?,
    ])
}
