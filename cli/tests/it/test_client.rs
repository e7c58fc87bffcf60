//! `mcp_server::testing::TestClient` as a user tests their own server: GitHub's
//! document in code mode against a local upstream, and a hand-written tool in
//! code mode and discovery mode, each read the way a model reads it.

use axum::extract::Path;
use mcp_server::testing::{TestClient, TestClientError};
use mcp_server::{CodeMode, Discovery, OpenApiSource, Server};
use serde_json::{Value, json};

use crate::result_fields::{issue, user};

/// A local GitHub: `GET /repos/{owner}/{repo}/issues` lists five issues,
/// `GET /users/{username}` gives the user.
async fn github_upstream() -> String {
    let app = axum::Router::new()
        .route(
            "/repos/{owner}/{repo}/issues",
            axum::routing::get(|| async { axum::Json(Value::Array((1..=5).map(issue).collect())) }),
        )
        .route(
            "/users/{username}",
            axum::routing::get(
                |Path(login): Path<String>| async move { axum::Json(user(&login, 7)) },
            ),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{address}")
}

/// The text of a result's first content block.
fn text(result: &rmcp::model::CallToolResult) -> String {
    result.content[0].as_text().unwrap().text.clone()
}

#[tokio::test]
async fn github_in_code_mode_against_a_local_upstream() {
    let upstream = github_upstream().await;
    let github =
        OpenApiSource::path(testdata::openapi("github-api.github.com.json")).base_url(upstream);
    let server = Server::builder()
        .openapi(github)
        .code_mode(CodeMode::new())
        .build()
        .unwrap();
    let client = TestClient::connect(server).await.unwrap();

    let listed: Vec<String> = client
        .list_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|tool| tool.name.into_owned())
        .collect();
    assert_eq!(listed, ["search_tools", "execute"]);

    let found = client
        .call_tool(
            "search_tools",
            json!({"query": "list the issues of a repository"}),
        )
        .await
        .unwrap();
    assert!(
        text(&found).contains("issues_list_for_repo("),
        "{}",
        text(&found)
    );

    let code = "const issues = await tools.issues_list_for_repo({ owner: 'octo', repo: 'app' });\n\
                const ui = issues.filter((issue) => issue.labels.some((label) => label.name === 'ui'));\n\
                const authors = await Promise.all(ui.map((issue) => tools.users_get_by_username({ username: issue.user.login })));\n\
                return ui.map((issue, i) => ({ number: issue.number, author: authors[i].login }));";
    let run = client
        .call_tool("execute", json!({ "code": code }))
        .await
        .unwrap();
    assert_ne!(run.is_error, Some(true), "{}", text(&run));
    assert_eq!(
        run.structured_content.unwrap()["result"],
        json!([{"number": 2, "author": "octocat"}, {"number": 5, "author": "monalisa"}])
    );

    let wrong = client
        .call_tool("execute", json!({"code": "return 1 +"}))
        .await
        .unwrap();
    assert_eq!(wrong.is_error, Some(true));
    assert_eq!(
        text(&wrong),
        "SyntaxError at line 1, column 11: unexpected end of the script"
    );

    let Err(TestClientError::Protocol { error }) = client
        .call_tool("execut", json!({"code": "return 1"}))
        .await
    else {
        panic!("an unknown tool is a JSON-RPC error");
    };
    assert_eq!(
        error.message,
        "unknown tool `execut`; did you mean `execute`?"
    );
}

/// A temperature unit.
#[derive(serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Unit {
    /// Degrees Celsius.
    Celsius,
    /// Degrees Fahrenheit.
    Fahrenheit,
}

/// Tomorrow's weather in a city.
#[mcp_core::tool(annotations(read, closed_world))]
async fn forecast(
    #[arg(
        description = "The city to forecast, e.g. Paris or Lyon. Names are matched without case.",
        example = "Paris"
    )]
    city: String,
    #[arg(description = "The unit of the temperatures.", default = Unit::Celsius)] unit: Unit,
) -> String {
    let unit = match unit {
        Unit::Celsius => "°C",
        Unit::Fahrenheit => "°F",
    };
    format!("{city}: 21 {unit}")
}

/// Forgets the forecasts kept so far.
#[mcp_core::tool(annotations(destroy))]
async fn forget() -> &'static str {
    "forgotten"
}

const CITY: &str = "The city to forecast, e.g. Paris or Lyon.";

#[tokio::test]
async fn a_hand_written_tool_in_code_mode_reads_as_this_servers_own() {
    let server = Server::builder()
        .tool(forget_tool().unwrap())
        .tool(forecast_tool().unwrap())
        .code_mode(CodeMode::new())
        .build()
        .unwrap();
    let client = TestClient::connect(server).await.unwrap();
    let tools = client.list_tools().await.unwrap();
    let execute = tools.iter().find(|tool| tool.name == "execute").unwrap();
    let description = execute.description.as_deref().unwrap();
    let example = description
        .split_once("Example with this server's tools")
        .unwrap()
        .1;
    assert!(
        example.contains("tools.forecast({ city: \"Paris\" }),\n  tools.forget({}),\n]);"),
        "{description}"
    );
    assert!(
        !description.contains("issues_list_for_repo"),
        "{description}"
    );

    let found = client
        .call_tool(
            "search_tools",
            json!({"query": "weather forecast for a city"}),
        )
        .await
        .unwrap();
    let declarations = text(&found);
    assert!(declarations.contains(CITY), "{declarations}");
    assert!(!declarations.contains("without case"), "{declarations}");

    let run = client
        .call_tool(
            "execute",
            json!({"code": "return await tools.forecast({ city: 'Lyon', unit: 'kelvin' })"}),
        )
        .await
        .unwrap();
    assert_eq!(
        text(&run),
        "uncaught Error at line 1, column 20: invalid arguments for tool `forecast`:\n/unit: \"kelvin\" is not one of \"celsius\", \"fahrenheit\" (from `forecast`)"
    );
}

#[tokio::test]
async fn a_hand_written_tool_in_discovery_keeps_its_whole_first_sentence() {
    let server = Server::builder()
        .tool(forecast_tool().unwrap())
        .discovery(Discovery::search())
        .build()
        .unwrap();
    let client = TestClient::connect(server).await.unwrap();
    let found = client
        .call_tool("search_tools", json!({"query": "weather forecast"}))
        .await
        .unwrap();
    let answer = found.structured_content.unwrap();
    let city = &answer["tools"][0]["inputSchema"]["properties"]["city"];
    assert_eq!(city["description"], CITY, "{answer}");

    let called = client
        .call_tool(
            "call_tool",
            json!({"name": "forecast", "arguments": {"city": "Lyon", "unit": "kelvin"}}),
        )
        .await
        .unwrap();
    assert_eq!(called.is_error, Some(true));
    assert_eq!(
        text(&called),
        "invalid arguments for tool `forecast`:\n/unit: \"kelvin\" is not one of \"celsius\", \"fahrenheit\""
    );
}
