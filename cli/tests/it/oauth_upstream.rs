//! Generated OpenAPI tools behind an OAuth-protected endpoint: a tool that
//! would pass its caller's token through to its API is refused when the
//! endpoint is configured (or, swapped in later, when called), and a tool given a token exchange calls its API
//! (a loopback server recording what it receives) with a token the real
//! authorization server issued for that API.

use std::sync::{Arc, Mutex};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use mcp_core::ToolDef;
use mcp_openapi::{ClientConfig, OpenApi};
use mcp_server::auth::{Auth, OAuth, TokenExchange};
use mcp_server::{HttpConfig, ServeError, Server};
use serde_json::{Value, json};
use tokio::net::TcpListener;

use crate::oauth_provider::{AuthorizationServer, Protected};

/// The tools of a one-operation API served at `base`, called through
/// `config`.
fn order_tools(base: &str, config: mcp_openapi::call::ClientConfigBuilder) -> Vec<ToolDef> {
    let document = json!({
        "openapi": "3.1.0",
        "info": {"title": "Orders", "version": "1"},
        "servers": [{"url": base}],
        "paths": {"/orders": {"get": {
            "operationId": "listOrders",
            "responses": {"200": {"description": "the orders",
                "content": {"application/json": {"schema": {"type": "object"}}}}}
        }}}
    });
    let generated = OpenApi::from_value(document)
        .unwrap()
        .generator()
        .generate()
        .unwrap();
    generated
        .tool_defs(&Arc::new(config.build().unwrap()))
        .unwrap()
}

fn oauth() -> Auth {
    let settings = OAuth::new("http://127.0.0.1/mcp")
        .unwrap()
        .issuer("http://127.0.0.1:1")
        .unwrap();
    Auth::oauth(settings).unwrap()
}

#[tokio::test]
async fn oauth_refuses_tools_that_pass_the_callers_token_through() {
    let passthrough = ClientConfig::builder().passthrough_authorization(true);
    let tools = order_tools("http://127.0.0.1:9", passthrough);
    let name = tools[0].name().to_owned();
    assert!(tools[0].forwards_caller_credentials());
    let server = Server::builder().tools(tools).build().unwrap();

    let refused = server
        .router(&HttpConfig::new().auth(oauth()))
        .expect_err("OAuth with a passthrough tool is refused");
    assert!(
        matches!(&refused, ServeError::CredentialPassthrough { tools } if *tools == [name.as_str()])
    );
    let message = refused.to_string();
    assert!(message.contains(&name), "{message}");
    assert!(message.contains("TokenExchange"), "{message}");
    let bound = server
        .clone()
        .bind_http(
            "127.0.0.1:0".parse().unwrap(),
            HttpConfig::new().auth(oauth()),
        )
        .await;
    assert!(matches!(
        bound,
        Err(ServeError::CredentialPassthrough { .. })
    ));

    // Without OAuth (or with the static bearer) the passthrough stays the
    // operator's choice.
    assert!(server.router(&HttpConfig::new()).is_ok());
    let bearer = HttpConfig::new().auth(Auth::bearer("secret"));
    assert!(server.router(&bearer).is_ok());

    let own = order_tools("http://127.0.0.1:9", ClientConfig::builder());
    assert!(!own[0].forwards_caller_credentials());
    let server = Server::builder().tools(own).build().unwrap();
    assert!(server.router(&HttpConfig::new().auth(oauth())).is_ok());
}

#[test]
fn a_configuration_cannot_both_pass_through_and_exchange() {
    let exchange = TokenExchange::new("http://127.0.0.1:1/token", "id", "secret").unwrap();
    let both = ClientConfig::builder()
        .passthrough_authorization(true)
        .upstream_credentials(Arc::new(exchange))
        .build();
    let error = both.expect_err("refused").to_string();
    assert!(error.contains("choose one"), "{error}");
}

/// A loopback API that records the `Authorization` header of each request.
async fn recording_api() -> (String, Arc<Mutex<Vec<String>>>, tokio::task::JoinHandle<()>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = seen.clone();
    let app = axum::Router::new().route(
        "/orders",
        axum::routing::get(move |headers: http::HeaderMap| {
            let record = record.clone();
            async move {
                let authorization = headers
                    .get(http::header::AUTHORIZATION)
                    .map(|value| value.to_str().unwrap().to_owned())
                    .unwrap_or_default();
                record.lock().unwrap().push(authorization);
                axum::Json(json!({"orders": [1, 2]}))
            }
        }),
    );
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let task = tokio::spawn(async move {
        axum::serve(listener, app).await.unwrap();
    });
    (base, seen, task)
}

async fn call(url: &str, tool: &str, token: &str) -> Value {
    let response = reqwest::Client::new()
        .post(url)
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-11-25")
        .bearer_auth(token)
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": tool, "arguments": {}}}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    serde_json::from_str(&response.text().await.unwrap()).expect("a JSON reply")
}

#[tokio::test]
async fn a_generated_tool_calls_its_api_with_a_token_exchanged_for_its_callers() {
    let issuer = AuthorizationServer::start().await;
    let (base, seen, api) = recording_api().await;
    let exchange = TokenExchange::new(
        &format!("{}/token", issuer.issuer),
        "mcp-resource",
        "mcp-resource-secret",
    )
    .unwrap()
    .audience("https://orders.example.com")
    .scope("orders:read");
    let config = ClientConfig::builder().upstream_credentials(Arc::new(exchange));
    let tools = order_tools(&base, config);
    let name = tools[0].name().to_owned();

    // Outside an authenticated request there is no caller to act for.
    let detached = tools[0].call_detached(json!({})).await;
    assert!(detached.is_error());
    assert!(
        detached.text_content().contains("no authenticated caller"),
        "{}",
        detached.text_content()
    );
    assert!(seen.lock().unwrap().is_empty(), "nothing reached the API");

    let trusted = issuer.issuer.clone();
    let protected = Protected::start(
        Server::builder().tools(tools).build().unwrap(),
        HttpConfig::new().stateless(true),
        "/mcp",
        move |oauth| oauth.issuer(&trusted).unwrap(),
    )
    .await;
    let url = protected.url.as_str();
    let token = issuer.token(url, Some("mcp:tools")).await;
    for _ in 0..2 {
        let reply = call(url, &name, &token).await;
        assert_ne!(reply["result"]["isError"], true, "{reply}");
        assert_eq!(
            reply["result"]["structuredContent"]["orders"],
            json!([1, 2])
        );
    }

    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 2);
    assert_eq!(seen[0], seen[1], "the exchanged token is reused");
    let upstream = seen[0].strip_prefix("Bearer ").expect("a bearer token");
    assert_ne!(
        upstream, token,
        "the caller's own token never goes upstream"
    );
    let payload = upstream.split('.').nth(1).unwrap();
    let claims: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap();
    assert_eq!(claims["aud"], "https://orders.example.com");
    assert_eq!(claims["sub"], "mcp-client");
    assert_eq!(claims["act"]["sub"], "mcp-resource");
    api.abort();
}

#[tokio::test]
async fn a_passthrough_tool_added_while_serving_is_refused_when_called() {
    let issuer = AuthorizationServer::start().await;
    let (base, seen, api) = recording_api().await;
    let server = Server::builder().build().unwrap();
    let trusted = issuer.issuer.clone();
    let protected = Protected::start(
        server.clone(),
        HttpConfig::new().stateless(true),
        "/mcp",
        move |oauth| oauth.issuer(&trusted).unwrap(),
    )
    .await;
    let passthrough = ClientConfig::builder().passthrough_authorization(true);
    let tool = order_tools(&base, passthrough).remove(0);
    let name = tool.name().to_owned();
    server.add_tool(tool).unwrap();

    let url = protected.url.as_str();
    let token = issuer.token(url, Some("mcp:tools")).await;
    let response = reqwest::Client::new()
        .post(url)
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-11-25")
        .bearer_auth(&token)
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": name, "arguments": {}}}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 500);
    let text = response.text().await.unwrap();
    assert!(text.contains(&name) && text.contains("exchange"), "{text}");
    assert!(seen.lock().unwrap().is_empty(), "nothing reached the API");
    api.abort();
}
