//! The stdio examples (`hello`, `builder`, `toolbox`): spawned as processes
//! and driven by rmcp's client over their stdin and stdout.

use std::process::Stdio;

use rmcp::model::{CallToolRequestParams, CallToolResult, Tool};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};
use tokio::process::{Child, Command};

pub(crate) struct Example {
    client: RunningService<RoleClient, ()>,
    child: Child,
}

async fn spawn(binary: &str) -> Example {
    spawn_with(binary, &[]).await
}

/// Starts `binary` with `args` and connects rmcp's client to its stdio.
pub(crate) async fn spawn_with(binary: &str, args: &[&str]) -> Example {
    let mut child = Command::new(binary)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {binary}: {e}"));
    let stdout = child.stdout.take().expect("piped stdout");
    let stdin = child.stdin.take().expect("piped stdin");
    let client = ().serve((stdout, stdin)).await.expect("the example answers initialize");
    Example { client, child }
}

impl Example {
    /// `tools/list`, every page.
    pub(crate) async fn tools(&self) -> Vec<Tool> {
        self.client.list_all_tools().await.expect("tools/list")
    }

    pub(crate) async fn tool_names(&self) -> Vec<String> {
        let tools = self.tools().await;
        tools.into_iter().map(|t| t.name.into_owned()).collect()
    }

    pub(crate) async fn call(&self, name: &str, arguments: Value) -> CallToolResult {
        let mut params = CallToolRequestParams::new(name.to_owned());
        params.arguments = arguments.as_object().cloned();
        self.client.call_tool(params).await.expect("tools/call")
    }

    pub(crate) async fn stop(mut self) {
        self.client.cancel().await.expect("the client closes");
        let status = self.child.wait().await.expect("the example exits");
        assert!(
            status.success(),
            "the example exits cleanly when stdin closes: {status}"
        );
    }
}

pub(crate) fn text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test]
async fn hello_adds_and_greets() {
    let hello = spawn(env!("CARGO_BIN_EXE_hello")).await;
    assert_eq!(hello.tool_names().await, ["add", "greet"]);
    crate::assert_tools_snapshot("hello", &hello.tools().await);
    let sum = hello.call("add", json!({"a": 2, "b": 40})).await;
    assert_eq!(sum.structured_content, Some(json!({"result": 42})));
    let greeting = hello.call("greet", json!({"name": "Ada"})).await;
    assert_eq!(text(&greeting), "Hello, Ada!");
    let bad = hello.call("add", json!({"a": "two", "b": 1})).await;
    assert_eq!(bad.is_error, Some(true));
    assert_eq!(
        text(&bad),
        "invalid arguments for tool `add`:\n/a: \"two\" is not of type \"integer\""
    );
    hello.stop().await;
}

#[tokio::test]
async fn builder_twin_has_the_same_tools_and_audits_every_call() {
    let builder = spawn(env!("CARGO_BIN_EXE_builder")).await;
    assert_eq!(builder.tool_names().await, ["add", "greet"]);
    let tools = builder.tools().await;
    crate::assert_tools_snapshot("builder", &tools);
    for tool in &tools {
        let meta = tool.meta.as_ref().expect("the bundle's _meta");
        assert_eq!(
            meta.0.get("com.example.acme/team"),
            Some(&json!("platform"))
        );
        assert_eq!(tool.icons.as_ref().map(Vec::len), Some(1));
    }
    let sum = builder.call("add", json!({"a": 1, "b": 2})).await;
    assert_eq!(sum.structured_content, Some(json!({"result": 3})));
    let meta = sum.meta.as_ref().expect("the audit _meta");
    assert_eq!(meta.0.get("com.example.audit/tool"), Some(&json!("add")));
    builder.stop().await;
}

#[tokio::test]
async fn toolbox_tools_share_one_store() {
    let toolbox = spawn(env!("CARGO_BIN_EXE_toolbox")).await;
    assert_eq!(toolbox.tool_names().await, ["put", "get", "keys"]);
    crate::assert_tools_snapshot("toolbox", &toolbox.tools().await);
    let first = toolbox.call("put", json!({"key": "a", "value": "1"})).await;
    assert_eq!(first.structured_content, Some(json!({"result": null})));
    let second = toolbox.call("put", json!({"key": "a", "value": "2"})).await;
    assert_eq!(second.structured_content, Some(json!({"result": "1"})));
    toolbox.call("put", json!({"key": "b", "value": "3"})).await;
    let value = toolbox.call("get", json!({"key": "a"})).await;
    assert_eq!(value.structured_content, Some(json!({"result": "2"})));
    let keys = toolbox.call("keys", json!({})).await;
    assert_eq!(keys.structured_content, Some(json!({"result": ["a", "b"]})));
    toolbox.stop().await;
}
