//! The `everything` conformance server over stdio, driven by rmcp's client:
//! its fixtures are listed, and the interactive ones reach the client.
#![allow(deprecated)] // rmcp marks sampling and logging deprecated for 2026-07-28

use std::process::Stdio;

use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, CompleteRequestParams,
    CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult,
    GetPromptRequestParams, ProtocolVersion, ReadResourceRequestParams,
};
use rmcp::service::{RequestContext, RunningService};
use rmcp::{ClientHandler, ErrorData, RoleClient, ServiceExt};
use serde_json::{Value, json};
use tokio::process::{Child, Command};

/// A client that answers sampling and elicitation like the suite does.
#[derive(Clone)]
struct Answering;

impl ClientHandler for Answering {
    fn get_info(&self) -> ClientConfig {
        let mut info = ClientConfig::default().with_protocol_version(ProtocolVersion::V_2025_11_25);
        info.capabilities = serde_json::from_value::<ClientCapabilities>(
            json!({"sampling": {}, "elicitation": {}}),
        )
        .unwrap();
        info
    }

    async fn create_message(
        &self,
        _params: CreateMessageRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        Ok(serde_json::from_value(json!({
            "role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "test-model"
        }))
        .unwrap())
    }

    async fn create_elicitation(
        &self,
        _request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        Ok(serde_json::from_value(
            json!({"action": "accept", "content": {"username": "ada", "email": "a@b.c"}}),
        )
        .unwrap())
    }
}

async fn spawn() -> (RunningService<RoleClient, Answering>, Child) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_everything"))
        .arg("--stdio")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .expect("the everything example starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let stdin = child.stdin.take().expect("piped stdin");
    let client = Answering.serve((stdout, stdin)).await.expect("initialize");
    (client, child)
}

fn text(value: &impl serde::Serialize) -> Value {
    serde_json::to_value(value).unwrap()
}

#[tokio::test]
async fn every_fixture_is_there_and_the_interactive_ones_reach_the_client() {
    let (client, mut child) = spawn().await;
    let listed = client.list_all_tools().await.unwrap();
    crate::assert_tools_snapshot("everything", &listed);
    let tools: Vec<String> = listed.into_iter().map(|t| t.name.into_owned()).collect();
    for name in [
        "test_simple_text",
        "test_sampling",
        "test_elicitation_sep1330_enums",
        "json_schema_2020_12_tool",
    ] {
        assert!(
            tools.iter().any(|tool| tool == name),
            "{name} missing from {tools:?}"
        );
    }
    let prompts: Vec<String> = client
        .list_all_prompts()
        .await
        .unwrap()
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert!(
        prompts.iter().any(|p| p == "test_prompt_with_arguments"),
        "{prompts:?}"
    );
    let resources = text(&client.list_all_resources().await.unwrap());
    assert_eq!(resources[0]["uri"], "test://static-text");
    let templates = text(&client.list_all_resource_templates().await.unwrap());
    assert_eq!(templates[0]["uriTemplate"], "test://template/{id}/data");

    let mut sampling = CallToolRequestParams::new("test_sampling");
    sampling.arguments = json!({"prompt": "Capital of France?"}).as_object().cloned();
    let sampled = client.call_tool(sampling).await.unwrap();
    assert_eq!(text(&sampled.content)[0]["text"], "LLM response: Paris");
    let mut elicitation = CallToolRequestParams::new("test_elicitation");
    elicitation.arguments = json!({"message": "Who are you?"}).as_object().cloned();
    let elicited = client.call_tool(elicitation).await.unwrap();
    assert_eq!(
        text(&elicited.content)[0]["text"],
        r#"User response: action=accept, content={"username":"ada","email":"a@b.c"}"#
    );

    let read = client
        .read_resource(ReadResourceRequestParams::new("test://template/123/data"))
        .await
        .unwrap();
    assert!(
        text(&read.contents)[0]["text"]
            .as_str()
            .unwrap()
            .contains("123")
    );
    let args = json!({"arg1": "hello", "arg2": "world"})
        .as_object()
        .cloned()
        .unwrap();
    let got = client
        .get_prompt(GetPromptRequestParams::new("test_prompt_with_arguments").with_arguments(args))
        .await
        .unwrap();
    assert_eq!(
        text(&got.messages)[0]["content"]["text"],
        "Prompt with arguments: arg1='hello', arg2='world'"
    );
    let complete = serde_json::from_value::<CompleteRequestParams>(json!({
        "ref": {"type": "ref/prompt", "name": "test_prompt_with_arguments"},
        "argument": {"name": "arg1", "value": "par"}
    }))
    .unwrap();
    assert_eq!(
        client.complete(complete).await.unwrap().completion.values,
        ["paris", "park", "party"]
    );

    client.cancel().await.unwrap();
    assert!(child.wait().await.unwrap().success());
}
