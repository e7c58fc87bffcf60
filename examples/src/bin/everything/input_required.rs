//! The suite's tools for 2026-07-28 clients: the same `cx.elicit(..)` and
//! `cx.sample(..)` calls, answered through input-required results.

use futures_util::future::join3;
use mcp_core::{
    JsonObject, ToolCallContext, ToolDef, ToolError,
    client::{CreateMessageRequest, ElicitAction, ElicitRequest},
    tool,
};
use serde_json::{Value, json};

fn ask(key: &str, message: &str, property: &str, kind: &str) -> Result<ElicitRequest, String> {
    let schema =
        json!({"type": "object", "properties": {property: {"type": kind}}, "required": [property]});
    Ok(ElicitRequest::new(message, schema)
        .map_err(|e| e.to_string())?
        .input_key(key))
}

fn field(answer: &mcp_core::client::ElicitResult, name: &str) -> String {
    match answer
        .content
        .as_ref()
        .and_then(|content| content.get(name))
    {
        Some(Value::String(text)) => text.clone(),
        Some(other) => other.to_string(),
        None => String::new(),
    }
}

/// Asks for the user's name, then greets them.
async fn greet(cx: ToolCallContext) -> Result<String, String> {
    let answer = cx
        .elicit(ask("user_name", "What is your name?", "name", "string")?)
        .await
        .map_err(|e| e.to_string())?;
    Ok(format!("Hello, {}!", field(&answer, "name")))
}

async fn capital(cx: ToolCallContext) -> Result<String, String> {
    let request = CreateMessageRequest::text("What is the capital of France?", 100)
        .input_key("capital_question");
    let answer = cx.sample(request).await.map_err(|e| e.to_string())?;
    Ok(format!("Sampling said: {}", answer.text()))
}

async fn roots(cx: ToolCallContext) -> Result<String, String> {
    let roots = cx.roots().await.map_err(|e| e.to_string())?;
    let uris: Vec<_> = roots.iter().map(|root| root.uri.as_str()).collect();
    Ok(format!("Client roots: {}", uris.join(", ")))
}

async fn confirm(cx: ToolCallContext) -> Result<String, String> {
    let answer = cx
        .elicit(ask("confirm", "Please confirm", "ok", "boolean")?)
        .await
        .map_err(|e| e.to_string())?;
    // The server checked the requestState's integrity before running this again.
    Ok(format!(
        "state-ok: confirmed={}",
        answer.action == ElicitAction::Accept
    ))
}

async fn everything_at_once(cx: ToolCallContext) -> Result<String, String> {
    let name = cx.elicit(ask("user_name", "What is your name?", "name", "string")?);
    let greeting =
        cx.sample(CreateMessageRequest::text("Generate a greeting", 50).input_key("greeting"));
    let (name, greeting, roots) = join3(name, greeting, cx.roots()).await;
    let name = name.map_err(|e| e.to_string())?;
    let greeting = greeting.map_err(|e| e.to_string())?;
    let roots = roots.map_err(|e| e.to_string())?;
    Ok(format!(
        "{} {} ({} roots)",
        greeting.text(),
        field(&name, "name"),
        roots.len()
    ))
}

async fn two_steps(cx: ToolCallContext) -> Result<String, String> {
    let name = cx
        .elicit(ask(
            "step1",
            "Step 1: What is your name?",
            "name",
            "string",
        )?)
        .await
        .map_err(|e| e.to_string())?;
    let color = cx
        .elicit(ask(
            "step2",
            "Step 2: What is your favorite color?",
            "color",
            "string",
        )?)
        .await
        .map_err(|e| e.to_string())?;
    Ok(format!(
        "{} likes {}",
        field(&name, "name"),
        field(&color, "color")
    ))
}

async fn what_the_client_can(cx: ToolCallContext) -> Result<String, String> {
    let name = cx.elicit(ask("user_name", "What is your name?", "name", "string")?);
    let greeting =
        cx.sample(CreateMessageRequest::text("Generate a greeting", 50).input_key("greeting"));
    let (name, greeting) = futures_util::future::join(name, greeting).await;
    Ok(format!(
        "elicitation: {}, sampling: {}",
        name.is_ok(),
        greeting.is_ok()
    ))
}

/// Logs at every level; a 2026-07-28 client sees only what its request's
/// `_meta` log level lets through.
async fn log_levels(cx: ToolCallContext) -> Result<String, String> {
    for level in mcp_core::client::LoggingLevel::ALL {
        cx.log(level, format!("a {level} message"))
            .await
            .map_err(|e| e.to_string())?;
    }
    Ok("logged".to_owned())
}

pub(crate) fn all() -> Result<Vec<ToolDef>, ToolError> {
    fn def<F: std::future::Future<Output = Result<String, String>> + Send + 'static>(
        name: &str,
        description: &str,
        run: fn(ToolCallContext) -> F,
    ) -> Result<ToolDef, ToolError> {
        tool(name)
            .description(description)
            .run(move |_: JsonObject, cx: ToolCallContext| run(cx))
    }
    Ok(vec![
        def(
            "test_input_required_result_elicitation",
            "Asks the user's name.",
            greet,
        )?,
        def(
            "test_input_required_result_sampling",
            "Asks the model a question.",
            capital,
        )?,
        def(
            "test_input_required_result_list_roots",
            "Lists the client's roots.",
            roots,
        )?,
        def(
            "test_input_required_result_request_state",
            "Asks for a confirmation.",
            confirm,
        )?,
        def(
            "test_input_required_result_tampered_state",
            "Asks for a confirmation.",
            confirm,
        )?,
        def(
            "test_input_required_result_multiple_inputs",
            "Asks three things at once.",
            everything_at_once,
        )?,
        def(
            "test_input_required_result_multi_round",
            "Asks two things in turn.",
            two_steps,
        )?,
        def(
            "test_input_required_result_capabilities",
            "Asks only what the client can answer.",
            what_the_client_can,
        )?,
        def("test_streaming_elicitation", "Asks the user's name.", greet)?,
        def("test_logging_tool", "Logs at every level.", log_levels)?,
    ])
}
