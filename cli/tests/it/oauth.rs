//! The HTTP endpoint as an OAuth 2.1 protected resource, against a real
//! authorization server (`oidc-provider`, see [`crate::oauth_provider`]):
//! accepted tokens reach handlers as claims; every refusal has its status
//! and `WWW-Authenticate` challenge and leaves the body unprocessed; the
//! metadata document; a key rotation at the issuer.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use mcp_core::prompt::{PromptRequest, prompt};
use mcp_core::resource::{ResourceRequest, resource};
use mcp_core::{JsonObject, ToolCallContext, tool};
use mcp_server::auth::{Introspection, TokenExchange};
use mcp_server::{HttpConfig, Server};
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::{Value, json};

use crate::oauth_provider::{AuthorizationServer, Protected};

/// `whoami` answers with the caller's claims; `count` and `admin` count
/// their calls (`admin` declares scope `tools:admin`).
fn server(calls: Arc<AtomicUsize>) -> Server {
    let whoami = tool("whoami")
        .run(|_: JsonObject, cx: ToolCallContext| async move {
            let auth = cx.scope().auth().expect("the caller's claims");
            json!({"sub": auth.subject(), "client": auth.client_id(), "scopes": auth.scopes()})
                .to_string()
        })
        .unwrap();
    let counter = |name: &str, scopes: &[&str], calls: Arc<AtomicUsize>| {
        tool(name)
            .scopes(scopes.iter().copied())
            .run(move |_: JsonObject| {
                let calls = calls.clone();
                async move { calls.fetch_add(1, Ordering::SeqCst).to_string() }
            })
            .unwrap()
    };
    Server::builder()
        .tool(whoami)
        .tool(counter("count", &[], calls.clone()))
        .tool(counter("admin", &["tools:admin"], calls))
        .build()
        .unwrap()
}

async fn protect(issuer: &AuthorizationServer, calls: Arc<AtomicUsize>) -> Protected {
    let issuer = issuer.issuer.clone();
    Protected::start(
        server(calls),
        HttpConfig::new().stateless(true),
        "/mcp",
        move |oauth| {
            oauth
                .issuer(&issuer)
                .unwrap()
                .scope("mcp:tools")
                .jwks_refetch_interval(std::time::Duration::ZERO)
        },
    )
    .await
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// A `tools/call` of `tool` with `token` (if any), in stateless mode.
async fn call(url: &str, tool: &str, token: Option<&str>) -> reqwest::Response {
    let mut request = reqwest::Client::new()
        .post(url)
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-11-25")
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": tool, "arguments": {}}}));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.unwrap()
}

fn challenge(response: &reqwest::Response) -> String {
    response
        .headers()
        .get("www-authenticate")
        .map(|value| value.to_str().unwrap().to_owned())
        .unwrap_or_default()
}

#[tokio::test]
async fn a_token_issued_for_the_resource_reaches_the_tools_as_claims() {
    let issuer = AuthorizationServer::start().await;
    let calls = Arc::new(AtomicUsize::new(0));
    let protected = protect(&issuer, calls.clone()).await;
    let token = issuer.token(&protected.url, Some("mcp:tools")).await;
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(protected.url.as_str()).auth_header(token),
    );
    let client = ().serve(transport).await.expect("initialize");
    let tools = client.list_all_tools().await.expect("tools/list");
    assert_eq!(tools.len(), 3);
    let result = client
        .call_tool(CallToolRequestParams::new("whoami"))
        .await
        .expect("tools/call");
    let text = result.content[0].as_text().expect("text").text.clone();
    let claims: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        claims,
        json!({"sub": "mcp-client", "client": "mcp-client", "scopes": ["mcp:tools"]})
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn refused_tokens_get_their_status_and_challenge_and_run_nothing() {
    let issuer = AuthorizationServer::start().await;
    let calls = Arc::new(AtomicUsize::new(0));
    let protected = protect(&issuer, calls.clone()).await;
    let url = protected.url.as_str();
    let metadata = url.replace("/mcp", "/.well-known/oauth-protected-resource/mcp");
    let claims = |iss: &str, aud: &str, exp: u64| {
        json!({"iss": iss, "aud": aud, "exp": exp, "iat": now(), "sub": "x",
            "client_id": "mcp-client", "scope": "mcp:tools"})
    };
    let valid = claims(&issuer.issuer, url, now() + 600);
    let encode = |value: &Value| URL_SAFE_NO_PAD.encode(value.to_string());
    let hs256 = jsonwebtoken::encode(
        &jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256),
        &valid,
        &jsonwebtoken::EncodingKey::from_secret(b"a public key is no secret").unwrap(),
    )
    .unwrap();

    let missing = call(url, "count", None).await;
    assert_eq!(missing.status(), 401);
    assert_eq!(
        challenge(&missing),
        format!("Bearer resource_metadata=\"{metadata}\", scope=\"mcp:tools\"")
    );

    let invalid = [
        (
            "expired",
            issuer
                .sign(claims(&issuer.issuer, url, now() - 3600), false)
                .await,
        ),
        (
            "wrong audience",
            issuer
                .sign(
                    claims(&issuer.issuer, "http://127.0.0.1:1/mcp", now() + 600),
                    false,
                )
                .await,
        ),
        (
            "wrong issuer",
            issuer
                .sign(claims("http://127.0.0.1:1", url, now() + 600), false)
                .await,
        ),
        ("bad signature", issuer.sign(valid.clone(), true).await),
        (
            "alg none",
            format!("{}.{}.", encode(&json!({"alg": "none"})), encode(&valid)),
        ),
        ("HS256", hs256),
        (
            "another resource",
            issuer
                .token("http://127.0.0.1:1/mcp", Some("mcp:tools"))
                .await,
        ),
        ("not a JWT", "opaque-token".to_owned()),
    ];
    for (case, token) in invalid {
        let refused = call(url, "count", Some(&token)).await;
        assert_eq!(refused.status(), 401, "{case}");
        let header = challenge(&refused);
        assert!(
            header.starts_with("Bearer error=\"invalid_token\""),
            "{case}: {header}"
        );
        assert!(
            header.contains(&format!("resource_metadata=\"{metadata}\"")),
            "{case}: {header}"
        );
    }

    let unscoped = issuer.token(url, None).await;
    let refused = call(url, "count", Some(&unscoped)).await;
    assert_eq!(refused.status(), 403);
    assert_eq!(
        challenge(&refused),
        format!(
            "Bearer error=\"insufficient_scope\", scope=\"mcp:tools\", resource_metadata=\"{metadata}\""
        )
    );

    let scoped = issuer.token(url, Some("mcp:tools")).await;
    let refused = call(url, "admin", Some(&scoped)).await;
    assert_eq!(refused.status(), 403);
    assert!(challenge(&refused).contains("scope=\"mcp:tools tools:admin\""));
    assert_eq!(
        calls.load(Ordering::SeqCst),
        0,
        "a refused request ran a tool"
    );

    let admin = issuer.token(url, Some("mcp:tools tools:admin")).await;
    assert_eq!(call(url, "admin", Some(&admin)).await.status(), 200);
    assert_eq!(call(url, "count", Some(&scoped)).await.status(), 200);
    assert_eq!(calls.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn the_metadata_document_names_the_resource_and_its_issuer() {
    let issuer = AuthorizationServer::start().await;
    let protected = protect(&issuer, Arc::default()).await;
    let root = protected.url.trim_end_matches("/mcp");
    for path in [
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-protected-resource/mcp",
    ] {
        let document: Value = reqwest::get(format!("{root}{path}"))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(
            document,
            json!({
                "resource": protected.url,
                "authorization_servers": [issuer.issuer],
                "scopes_supported": ["mcp:tools", "tools:admin"],
                "bearer_methods_supported": ["header"],
            }),
            "{path}"
        );
    }
}

#[tokio::test]
async fn a_key_rotation_at_the_issuer_is_followed() {
    let issuer = AuthorizationServer::start().await;
    let protected = protect(&issuer, Arc::default()).await;
    let url = protected.url.as_str();
    let before = issuer.token(url, Some("mcp:tools")).await;
    assert_eq!(call(url, "count", Some(&before)).await.status(), 200);
    issuer.rotate_keys().await;
    let after = issuer.token(url, Some("mcp:tools")).await;
    assert_ne!(kid(&before), kid(&after));
    assert_eq!(call(url, "count", Some(&after)).await.status(), 200);
    assert_eq!(call(url, "count", Some(&before)).await.status(), 200);
}

fn kid(token: &str) -> String {
    jsonwebtoken::decode_header(token).unwrap().kid.unwrap()
}

#[tokio::test]
async fn the_python_sdk_gets_a_token_through_discovery_then_lists_and_calls() {
    let issuer = AuthorizationServer::start().await;
    let protected = protect(&issuer, Arc::default()).await;
    let python = crate::e2e_python::python();
    assert!(
        python.exists(),
        "the Python peer is missing at {}: install it with `cargo xtask peers`, or set MCP_E2E_PYTHON",
        python.display()
    );
    let script = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/python/oauth.py");
    let run = tokio::process::Command::new(python)
        .arg(script)
        .arg(&protected.url)
        .arg(&issuer.issuer)
        .kill_on_drop(true)
        .output();
    let output = tokio::time::timeout(std::time::Duration::from_secs(120), run)
        .await
        .expect("the Python client finishes")
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the Python client failed:\n{stdout}\n{stderr}"
    );
    for mode in ["auto", "legacy"] {
        for method in ["client_secret_basic", "client_secret_post"] {
            let label = format!("ok client credentials ({method})/{mode}:");
            assert!(stdout.contains(&label), "no `{label}` in:\n{stdout}");
        }
        let label = format!("ok authorization code with PKCE/{mode}:");
        assert!(stdout.contains(&label), "no `{label}` in:\n{stdout}");
    }
}

#[tokio::test]
async fn the_cli_flags_protect_the_endpoint_and_refuse_plain_http_issuers() {
    use tokio::io::AsyncBufReadExt;

    let plain = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcp-server"))
        .args([
            "demo",
            "--bind",
            "127.0.0.1:0",
            "--public-url",
            "https://mcp.example.com/mcp",
        ])
        .args(["--oauth-issuer", "http://login.example.com"])
        .env("RUST_LOG", "off")
        .output()
        .await
        .unwrap();
    assert!(!plain.status.success());
    let stderr = String::from_utf8_lossy(&plain.stderr);
    assert!(
        stderr.contains("issuer `http://login.example.com` must use https"),
        "{stderr}"
    );

    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcp-server"))
        .args([
            "demo",
            "--bind",
            "127.0.0.1:0",
            "--public-url",
            "https://mcp.example.com/mcp",
        ])
        .args([
            "--oauth-issuer",
            "https://login.example.com",
            "--oauth-scope",
            "mcp:tools",
        ])
        .args(["--oauth-tool-scope", "add=math:write"])
        .env("RUST_LOG", "off")
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let url = loop {
        let line = lines.next_line().await.unwrap().expect("an endpoint line");
        if line.starts_with("http://") && line.ends_with("/mcp") {
            break line;
        }
    };
    let root = url.trim_end_matches("/mcp");
    let document: Value = reqwest::get(format!("{root}/.well-known/oauth-protected-resource/mcp"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        document,
        json!({
            "resource": "https://mcp.example.com/mcp",
            "authorization_servers": ["https://login.example.com"],
            "scopes_supported": ["mcp:tools", "math:write"],
            "bearer_methods_supported": ["header"],
        })
    );
    let refused = call(&url, "add", None).await;
    assert_eq!(refused.status(), 401);
    assert_eq!(
        challenge(&refused),
        "Bearer resource_metadata=\"https://mcp.example.com/.well-known/oauth-protected-resource/mcp\", scope=\"mcp:tools\""
    );
}

#[tokio::test]
async fn opaque_tokens_are_introspected() {
    let issuer = AuthorizationServer::start().await;
    let trusted = issuer.issuer.clone();
    let introspection = Introspection::new(
        &format!("{trusted}/token/introspection"),
        "mcp-resource",
        "mcp-resource-secret",
    )
    .unwrap();
    let protected = Protected::start(
        server(Arc::default()),
        HttpConfig::new().stateless(true),
        "/opaque",
        move |oauth| {
            oauth
                .issuer(&trusted)
                .unwrap()
                .scope("mcp:tools")
                .introspection(introspection)
        },
    )
    .await;
    let url = protected.url.as_str();
    let token = issuer.token(url, Some("mcp:tools")).await;
    assert_eq!(token.split('.').count(), 1, "an opaque token: {token}");
    for _ in 0..2 {
        // The second answer comes from the cache.
        let accepted = call(url, "whoami", Some(&token)).await;
        assert_eq!(accepted.status(), 200);
        let text = accepted.text().await.unwrap();
        assert!(text.contains(r#"\"client\":\"mcp-client\""#), "{text}");
    }
    let unscoped = issuer.token(url, None).await;
    assert_eq!(call(url, "whoami", Some(&unscoped)).await.status(), 403);
    let elsewhere = issuer
        .token("http://127.0.0.1:1/opaque", Some("mcp:tools"))
        .await;
    let refused = call(url, "whoami", Some(&elsewhere)).await;
    assert_eq!(refused.status(), 401);
    assert!(challenge(&refused).contains("error=\"invalid_token\""));
    let unknown = call(url, "whoami", Some("not-a-token-anyone-issued")).await;
    assert_eq!(unknown.status(), 401);
}

#[tokio::test]
async fn a_tool_exchanges_the_callers_token_for_an_upstream_one() {
    let issuer = AuthorizationServer::start().await;
    let exchange = Arc::new(
        TokenExchange::new(
            &format!("{}/token", issuer.issuer),
            "mcp-resource",
            "mcp-resource-secret",
        )
        .unwrap()
        .audience("https://orders.example.com")
        .scope("orders:read"),
    );
    let upstream = tool("upstream_token")
        .run(move |_: JsonObject, cx: ToolCallContext| {
            let exchange = exchange.clone();
            async move {
                let caller = cx.scope().auth().ok_or("no caller")?;
                exchange.token_for(caller).await.map_err(|e| e.to_string())
            }
        })
        .unwrap();
    let trusted = issuer.issuer.clone();
    let protected = Protected::start(
        Server::builder().tool(upstream).build().unwrap(),
        HttpConfig::new().stateless(true),
        "/mcp",
        move |oauth| oauth.issuer(&trusted).unwrap(),
    )
    .await;
    let url = protected.url.as_str();
    let token = issuer.token(url, Some("mcp:tools")).await;
    let mut exchanged = Vec::new();
    for _ in 0..2 {
        let response = call(url, "upstream_token", Some(&token)).await;
        assert_eq!(response.status(), 200);
        let text = response.text().await.unwrap();
        let reply: Value = serde_json::from_str(&text).expect("a JSON reply");
        assert_ne!(reply["result"]["isError"], true, "{reply}");
        exchanged.push(
            reply["result"]["content"][0]["text"]
                .as_str()
                .unwrap()
                .to_owned(),
        );
    }
    assert_eq!(
        exchanged[0], exchanged[1],
        "the second call reuses the exchanged token"
    );
    let payload = exchanged[0].split('.').nth(1).unwrap();
    let claims: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap();
    assert_eq!(claims["aud"], "https://orders.example.com");
    assert_eq!(claims["sub"], "mcp-client");
    assert_eq!(claims["act"]["sub"], "mcp-resource");
    assert_ne!(
        exchanged[0], token,
        "the caller's own token never goes upstream"
    );
}

/// A JSON-RPC request `method` with `params` and `token`, in stateless mode.
async fn rpc(url: &str, method: &str, params: Value, token: &str) -> Value {
    let response = reqwest::Client::new()
        .post(url)
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-11-25")
        .bearer_auth(token)
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    serde_json::from_str(&response.text().await.unwrap()).expect("a JSON reply")
}

#[tokio::test]
async fn resource_and_prompt_handlers_get_the_callers_claims() {
    let issuer = AuthorizationServer::start().await;
    let caller = |auth: Option<&mcp_core::auth::AuthInfo>| {
        let auth = auth.expect("the caller's claims");
        format!(
            "{} via {}",
            auth.subject().unwrap_or("?"),
            auth.client_id().unwrap_or("?")
        )
    };
    let me = resource("test://me", "me")
        .read(move |request: ResourceRequest| async move { caller(request.scope().auth()) })
        .unwrap();
    let greet = prompt("greet")
        .run(move |_: JsonObject, request: PromptRequest| async move {
            format!("Greet {}.", caller(request.scope().auth()))
        })
        .unwrap();
    let trusted = issuer.issuer.clone();
    let protected = Protected::start(
        Server::builder()
            .resource(me)
            .prompt(greet)
            .build()
            .unwrap(),
        HttpConfig::new().stateless(true),
        "/mcp",
        move |oauth| oauth.issuer(&trusted).unwrap(),
    )
    .await;
    let url = protected.url.as_str();
    let token = issuer.token(url, Some("mcp:tools")).await;

    let read = rpc(url, "resources/read", json!({"uri": "test://me"}), &token).await;
    assert_eq!(
        read["result"]["contents"][0]["text"], "mcp-client via mcp-client",
        "{read}"
    );
    let got = rpc(url, "prompts/get", json!({"name": "greet"}), &token).await;
    assert_eq!(
        got["result"]["messages"][0]["content"]["text"], "Greet mcp-client via mcp-client.",
        "{got}"
    );
}

#[tokio::test]
async fn an_unknown_key_is_looked_up_at_most_once_per_refetch_interval() {
    let issuer = AuthorizationServer::start().await;
    let trusted = issuer.issuer.clone();
    let protected = Protected::start(
        server(Arc::default()),
        HttpConfig::new().stateless(true),
        "/mcp",
        move |oauth| {
            oauth
                .issuer(&trusted)
                .unwrap()
                .jwks_refetch_interval(std::time::Duration::from_secs(3600))
        },
    )
    .await;
    let url = protected.url.as_str();
    let before = issuer.token(url, Some("mcp:tools")).await;
    assert_eq!(call(url, "count", Some(&before)).await.status(), 200);
    issuer.rotate_keys().await;
    let after = issuer.token(url, Some("mcp:tools")).await;
    assert_ne!(kid(&before), kid(&after));
    // The keys were fetched moments ago: the new kid is not looked up yet.
    for _ in 0..3 {
        let refused = call(url, "count", Some(&after)).await;
        assert_eq!(refused.status(), 401);
        assert!(challenge(&refused).contains("error=\"invalid_token\""));
    }
    assert_eq!(call(url, "count", Some(&before)).await.status(), 200);
}
