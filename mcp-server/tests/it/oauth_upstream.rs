//! Generated OpenAPI tools behind an OAuth-protected endpoint: a tool that
//! would pass its caller's token through to its API is refused when the
//! endpoint is configured.

use std::sync::Arc;

use mcp_core::ToolDef;
use mcp_openapi::{ClientConfig, OpenApi};
use mcp_server::auth::{Auth, OAuth};
use mcp_server::{HttpConfig, ServeError, Server};
use serde_json::json;

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
        matches!(&refused, ServeError::CredentialPassthrough { tools } if tools == &[name.clone()])
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
