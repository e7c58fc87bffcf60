//! Prompts, completion, logging, subscriptions, runtime list changes,
//! sampling and elicitation from tools (2025-11-25 requests to the
//! client; 2026-07-28 input-required results).
#![allow(deprecated)] // rmcp marks sampling and logging deprecated for 2026-07-28

use std::time::Duration;

use mcp_core::{
    JsonObject, ToolCallContext, ToolDef,
    client::{CreateMessageRequest, ElicitRequest, LoggingLevel},
    completion::Completer,
    prompt::{PromptDef, prompt},
    resource::{ResourceDef, ResourceRequest, resource, resource_template},
    tool,
};
use mcp_server::Server;
use mcp_server::testing::TestClient;
use rmcp::model::{
    ClientCapabilities, ClientConfig, CompleteRequestParams, CreateMessageRequestParams,
    CreateMessageResult, ElicitRequestParams, ElicitResult, GetPromptRequestParams,
    LoggingMessageNotificationParam, ProtocolVersion, ResourceUpdatedNotificationParam,
    SetLevelRequestParams, SubscribeRequestParams,
};
use rmcp::service::{NotificationContext, RequestContext, RoleClient};
use rmcp::{ClientHandler, ErrorData};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::support::{Raw, meta_2026};

/// What the test client saw.
#[derive(Debug)]
enum Seen {
    Log(String),
    PromptsChanged,
    Updated(String),
}

/// A client that answers sampling and elicitation and reports
/// notifications.
#[derive(Clone)]
struct Client {
    capable: bool,
    seen: mpsc::UnboundedSender<Seen>,
}

impl ClientHandler for Client {
    fn get_info(&self) -> ClientConfig {
        let mut info = ClientConfig::default().with_protocol_version(ProtocolVersion::V_2025_11_25);
        if self.capable {
            info.capabilities = serde_json::from_value::<ClientCapabilities>(
                json!({"sampling": {}, "elicitation": {}, "roots": {}}),
            )
            .unwrap();
        }
        info
    }

    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        let asked = serde_json::to_value(&params).unwrap();
        let text = format!("you asked: {}", asked["messages"][0]["content"]["text"]);
        Ok(serde_json::from_value(json!({
            "role": "assistant", "content": {"type": "text", "text": text}, "model": "test-model"
        }))
        .unwrap())
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let asked = serde_json::to_value(&request).unwrap();
        let default = asked["requestedSchema"]["properties"]["name"]["default"].clone();
        Ok(
            serde_json::from_value(json!({"action": "accept", "content": {"name": default}}))
                .unwrap(),
        )
    }

    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let _ = self.seen.send(Seen::Log(params.data.to_string()));
    }

    async fn on_prompt_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.seen.send(Seen::PromptsChanged);
    }

    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let _ = self.seen.send(Seen::Updated(params.uri));
    }
}

async fn connect(
    server: Server,
    capable: bool,
) -> (TestClient<Client>, mpsc::UnboundedReceiver<Seen>) {
    let (seen, received) = mpsc::unbounded_channel();
    let client = TestClient::connect_with(server, Client { capable, seen })
        .await
        .unwrap();
    (client, received)
}

async fn next(received: &mut mpsc::UnboundedReceiver<Seen>) -> Seen {
    tokio::time::timeout(Duration::from_secs(5), received.recv())
        .await
        .expect("a notification within 5 s")
        .expect("the client is alive")
}

fn greeting() -> PromptDef {
    prompt("greet")
        .description("Greets someone.")
        .argument(mcp_core::prompt::PromptArgument::new("who").required(true))
        .complete("who", Completer::values(["Ada", "Alan", "Grace"]))
        .run(|args: JsonObject| async move {
            format!(
                "Say hello to {}.",
                args.get("who").and_then(Value::as_str).unwrap_or_default()
            )
        })
        .unwrap()
}

fn template() -> ResourceDef {
    resource_template("test://users/{id}", "user")
        .complete("id", Completer::values(["1", "12", "2"]))
        .read(|req: ResourceRequest| async move {
            format!("user {}", req.variable("id").unwrap_or_default())
        })
        .unwrap()
}

fn interactive_tools() -> Vec<ToolDef> {
    let log = tool("log")
        .run(|_: JsonObject, cx: ToolCallContext| async move {
            for level in [LoggingLevel::Debug, LoggingLevel::Info, LoggingLevel::Error] {
                cx.log(level, format!("{level} line"))
                    .await
                    .map_err(|e| e.to_string())?;
            }
            Ok::<_, String>("logged")
        })
        .unwrap();
    let ask = tool("ask")
        .run(|_: JsonObject, cx: ToolCallContext| async move {
            let schema = json!({"type": "object", "properties": {"name": {"type": "string", "default": "Ada"}}});
            let request = ElicitRequest::new("Name?", schema).map_err(|e| e.to_string())?.input_key("name");
            let answer = cx.elicit(request).await.map_err(|e| e.to_string())?;
            let sampled = cx
                .sample(CreateMessageRequest::text("2+2?", 10).input_key("math"))
                .await
                .map_err(|e| e.to_string())?;
            Ok::<_, String>(format!("{} / {}", Value::Object(answer.content.unwrap_or_default()), sampled.text()))
        })
        .unwrap();
    vec![log, ask]
}

fn server() -> Server {
    let watched = resource("test://watched", "watched")
        .read(|| async { "v1" })
        .unwrap();
    Server::builder()
        .tools(interactive_tools())
        .prompt(greeting())
        .resources([watched, template()])
        .build()
        .unwrap()
}

#[tokio::test]
async fn prompts_are_listed_rendered_and_completed() {
    let (client, _seen) = connect(server(), false).await;
    let info = client.peer().peer_info().unwrap();
    let capabilities = serde_json::to_value(&info.capabilities).unwrap();
    assert_eq!(capabilities["prompts"], json!({"listChanged": true}));
    assert_eq!(capabilities["resources"]["subscribe"], true);
    assert!(capabilities.get("logging").is_some() && capabilities.get("completions").is_some());

    let prompts = client.peer().list_prompts(None).await.unwrap();
    assert_eq!(
        serde_json::to_value(&prompts.prompts).unwrap(),
        json!([{"name": "greet", "description": "Greets someone.", "arguments": [{"name": "who", "required": true}]}])
    );
    let args = json!({"who": "Ada"}).as_object().cloned().unwrap();
    let got = client
        .peer()
        .get_prompt(GetPromptRequestParams::new("greet").with_arguments(args))
        .await
        .unwrap();
    assert_eq!(
        serde_json::to_value(&got.messages).unwrap(),
        json!([{"role": "user", "content": {"type": "text", "text": "Say hello to Ada."}}])
    );
    let missing = client
        .peer()
        .get_prompt(GetPromptRequestParams::new("greet"))
        .await
        .unwrap_err();
    assert!(
        missing
            .to_string()
            .contains("missing required argument `who`"),
        "{missing}"
    );
    let unknown = client
        .peer()
        .get_prompt(GetPromptRequestParams::new("nope"))
        .await
        .unwrap_err();
    assert!(
        unknown.to_string().contains("unknown prompt `nope`"),
        "{unknown}"
    );

    let complete = |reference: Value, name: &str, value: &str| {
        serde_json::from_value::<CompleteRequestParams>(
            json!({"ref": reference, "argument": {"name": name, "value": value}}),
        )
        .unwrap()
    };
    let who = client
        .peer()
        .complete(complete(
            json!({"type": "ref/prompt", "name": "greet"}),
            "who",
            "a",
        ))
        .await
        .unwrap();
    assert_eq!(who.completion.values, ["Ada", "Alan"]);
    let id = client
        .peer()
        .complete(complete(
            json!({"type": "ref/resource", "uri": "test://users/{id}"}),
            "id",
            "1",
        ))
        .await
        .unwrap();
    assert_eq!(id.completion.values, ["1", "12"]);
    client.close().await.unwrap();
}

#[tokio::test]
async fn logging_follows_set_level_and_interaction_reaches_the_client() {
    let (client, mut seen) = connect(server(), true).await;
    client
        .peer()
        .set_level(SetLevelRequestParams::new(
            serde_json::from_value(json!("info")).unwrap(),
        ))
        .await
        .unwrap();
    let logged = client
        .peer()
        .call_tool(rmcp::model::CallToolRequestParams::new("log"))
        .await
        .unwrap();
    assert_ne!(logged.is_error, Some(true));
    let mut lines = Vec::new();
    while lines.len() < 2 {
        if let Seen::Log(line) = next(&mut seen).await {
            lines.push(line);
        }
    }
    assert_eq!(lines, [r#""info line""#, r#""error line""#]);

    let asked = client
        .peer()
        .call_tool(rmcp::model::CallToolRequestParams::new("ask"))
        .await
        .unwrap();
    let text = serde_json::to_value(&asked.content).unwrap()[0]["text"].clone();
    assert_eq!(text, r#"{"name":"Ada"} / you asked: "2+2?""#);
    client.close().await.unwrap();
}

#[tokio::test]
async fn a_client_without_the_capabilities_gets_a_tool_error() {
    let (client, _seen) = connect(server(), false).await;
    let asked = client
        .peer()
        .call_tool(rmcp::model::CallToolRequestParams::new("ask"))
        .await
        .unwrap();
    assert_eq!(asked.is_error, Some(true));
    let text = serde_json::to_value(&asked.content).unwrap()[0]["text"].clone();
    assert_eq!(text, "the client does not support elicitation");
    client.close().await.unwrap();
}

#[tokio::test]
async fn runtime_prompt_changes_and_resource_updates_are_notified() {
    let server = server();
    let (client, mut seen) = connect(server.clone(), false).await;
    client
        .peer()
        .subscribe(SubscribeRequestParams::new("test://watched"))
        .await
        .unwrap();
    let extra = prompt("extra").run(|| async { "more" }).unwrap();
    server.add_prompt(extra).unwrap();
    assert!(matches!(next(&mut seen).await, Seen::PromptsChanged));
    assert!(
        server
            .add_prompt(prompt("extra").run(|| async { "again" }).unwrap())
            .is_err()
    );
    assert_eq!(server.prompt_names(), ["greet", "extra"]);
    server.resource_updated("test://other");
    server.resource_updated("test://watched");
    match next(&mut seen).await {
        Seen::Updated(uri) => assert_eq!(uri, "test://watched"),
        other => panic!("expected an update, got {other:?}"),
    }
    assert!(server.remove_prompt("extra"));
    assert!(matches!(next(&mut seen).await, Seen::PromptsChanged));
    client.close().await.unwrap();
}

fn call_2026(id: i64, extra: Value) -> Value {
    let mut meta = meta_2026();
    meta["io.modelcontextprotocol/clientCapabilities"] = json!({"elicitation": {}, "sampling": {}});
    let mut params = json!({"name": "ask", "arguments": {}, "_meta": meta});
    params
        .as_object_mut()
        .unwrap()
        .extend(extra.as_object().cloned().unwrap_or_default());
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}

#[tokio::test]
async fn a_2026_client_answers_through_input_required_results() {
    let mut raw = Raw::new(server());
    raw.send(call_2026(1, json!({}))).await;
    let first = raw.response(1).await;
    let result = &first["result"];
    assert_eq!(result["resultType"], "input_required", "{first}");
    assert_eq!(
        result["inputRequests"]["name"]["method"],
        "elicitation/create"
    );
    let state = result["requestState"].as_str().unwrap().to_owned();

    let answer = json!({"name": {"action": "accept", "content": {"name": "Grace"}}});
    raw.send(call_2026(
        2,
        json!({"inputResponses": answer, "requestState": state}),
    ))
    .await;
    let second = raw.response(2).await;
    assert_eq!(second["result"]["resultType"], "input_required", "{second}");
    assert_eq!(
        second["result"]["inputRequests"]["math"]["method"],
        "sampling/createMessage"
    );
    let state = second["result"]["requestState"]
        .as_str()
        .unwrap()
        .to_owned();

    let sampled = json!({"math": {"role": "assistant", "content": {"type": "text", "text": "4"}, "model": "m"}});
    raw.send(call_2026(
        3,
        json!({"inputResponses": sampled, "requestState": state.clone()}),
    ))
    .await;
    let done = raw.response(3).await;
    assert_eq!(
        done["result"]["content"][0]["text"], r#"{"name":"Grace"} / 4"#,
        "{done}"
    );

    let tampered = state.replacen('.', "0.", 1);
    raw.send(call_2026(
        4,
        json!({"inputResponses": sampled, "requestState": tampered}),
    ))
    .await;
    let rejected = raw.response(4).await;
    assert_eq!(rejected["error"]["code"], -32602, "{rejected}");
}

#[test]
fn duplicate_prompts_are_a_build_error() {
    let twice = Server::builder()
        .prompt(greeting())
        .prompt(greeting())
        .build();
    let error = twice.expect_err("two prompts named `greet`");
    assert_eq!(
        error.to_string(),
        "duplicate prompt `greet`: registered twice"
    );
}
