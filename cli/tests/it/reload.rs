//! `mcp-server serve --watch` and SIGHUP: the binary, driven by rmcp's
//! client over stdio and Streamable HTTP, calling a local upstream, while
//! the test edits the files it serves.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::routing::get;
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::json;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::{Notify, mpsc};
use tokio::time::timeout;

use crate::support::{Hearing, heard_within_half_a_second};

/// `listItems` and `slowItem`.
const V1: &str = r#"openapi: 3.1.0
info: {title: items, version: "1"}
paths:
  /items:
    get:
      operationId: listItems
      responses:
        "200":
          description: the items
          content: {application/json: {schema: {type: array, items: {type: string}}}}
  /slow:
    get:
      operationId: slowItem
      responses:
        "200":
          description: a slow answer
          content: {application/json: {schema: {type: object}}}
"#;

/// `listItems` and a new `getExtra`; `slowItem` is gone.
const V2: &str = r#"openapi: 3.1.0
info: {title: items, version: "2"}
paths:
  /items:
    get:
      operationId: listItems
      responses:
        "200":
          description: the items
          content: {application/json: {schema: {type: array, items: {type: string}}}}
  /extra:
    get:
      operationId: getExtra
      responses:
        "200":
          description: more
          content: {application/json: {schema: {type: object}}}
"#;

/// Not YAML at all.
const BROKEN: &str = "openapi: 3.1.0\npaths: {/items: [unclosed\n";

/// How long a reload may take to be heard.
const HEARD_WITHIN: Duration = Duration::from_secs(20);

/// A local API that answers `/items` and `/extra` at once and `/slow` when
/// the test releases it.
struct Upstream {
    url: String,
    /// One message per `/slow` request that arrived.
    arrived: mpsc::UnboundedReceiver<()>,
    release: Arc<Notify>,
}

async fn upstream() -> Upstream {
    let (arrivals, arrived) = mpsc::unbounded_channel();
    let release = Arc::new(Notify::new());
    let slow = {
        let release = release.clone();
        move || async move {
            let _ = arrivals.send(());
            release.notified().await;
            Json(json!({"slow": "done"}))
        }
    };
    let app = axum::Router::new()
        .route("/items", get(|| async { Json(json!(["apple", "pear"])) }))
        .route("/extra", get(|| async { Json(json!({"extra": true})) }))
        .route("/slow", get(slow));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    Upstream {
        url,
        arrived,
        release,
    }
}

#[derive(Clone, Copy, Debug)]
enum Over {
    Stdio,
    Http,
}

/// A running `mcp-server serve` and a client connected to it.
struct Served {
    client: RunningService<RoleClient, Hearing>,
    /// The list changes the client heard.
    hears: mpsc::UnboundedReceiver<&'static str>,
    /// The server's stderr, a line at a time.
    stderr: mpsc::UnboundedReceiver<String>,
    child: Child,
}

/// Starts `mcp-server serve --openapi DIR/api.yaml ARGS` against `upstream`
/// and connects a client.
async fn serve(dir: &Path, over: Over, args: &[&str], upstream: &str) -> Served {
    let api = dir.join("api.yaml");
    let mut command = Command::new(env!("CARGO_BIN_EXE_mcp-server"));
    command
        .arg("serve")
        .arg("--openapi")
        .arg(&api)
        .args(["--base-url", upstream])
        .args(args)
        .env("RUST_LOG", "mcp_server=info")
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    if let Over::Http = over {
        command.args(["--transport", "http", "--bind", "127.0.0.1:0"]);
    }
    let mut child = command.spawn().expect("mcp-server starts");
    let stderr = lines_of(child.stderr.take().expect("piped stderr"));
    let stdout = child.stdout.take().expect("piped stdout");
    let stdin = child.stdin.take().expect("piped stdin");
    let (heard, hears) = mpsc::unbounded_channel();
    let client = match over {
        Over::Stdio => Hearing(heard).serve((stdout, stdin)).await,
        Over::Http => {
            let url = BufReader::new(stdout)
                .lines()
                .next_line()
                .await
                .unwrap()
                .expect("the endpoint line");
            Hearing(heard)
                .serve(StreamableHttpClientTransport::from_uri(url))
                .await
        }
    }
    .expect("the client connects");
    Served {
        client,
        hears,
        stderr,
        child,
    }
}

/// The lines of `stream`, as they come.
fn lines_of(
    stream: impl tokio::io::AsyncRead + Unpin + Send + 'static,
) -> mpsc::UnboundedReceiver<String> {
    let (send, lines) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut reader = BufReader::new(stream).lines();
        while let Ok(Some(line)) = reader.next_line().await {
            eprintln!("mcp-server: {line}");
            if send.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

impl Served {
    async fn tool_names(&self) -> Vec<String> {
        let tools = self.client.list_all_tools().await.expect("tools/list");
        tools
            .into_iter()
            .map(|tool| tool.name.into_owned())
            .collect()
    }

    async fn call(&self, name: &str) -> Result<CallToolResult, rmcp::ServiceError> {
        let mut params = CallToolRequestParams::new(name.to_owned());
        params.arguments = Some(serde_json::Map::new());
        self.client.call_tool(params).await
    }

    /// Waits for the client to hear that `list` changed.
    async fn hear(&mut self, list: &str) {
        let heard = timeout(HEARD_WITHIN, self.hears.recv())
            .await
            .unwrap_or_else(|_| panic!("no {list}/list_changed within {HEARD_WITHIN:?}"));
        assert_eq!(heard, Some(list));
    }

    /// The next stderr line containing `needle`, and the lines before it.
    async fn stderr_line(&mut self, needle: &str) -> (String, Vec<String>) {
        let mut before = Vec::new();
        loop {
            let line = timeout(HEARD_WITHIN, self.stderr.recv())
                .await
                .unwrap_or_else(|_| panic!("no stderr line with `{needle}`: {before:#?}"))
                .expect("stderr stays open");
            if line.contains(needle) {
                return (line, before);
            }
            before.push(line);
        }
    }

    /// The stderr lines written within a second.
    async fn stderr_for_a_second(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(1);
        while let Ok(Some(line)) = tokio::time::timeout_at(deadline, self.stderr.recv()).await {
            lines.push(line);
        }
        lines
    }

    async fn stop(mut self) {
        let _ = self.client.cancel().await;
        let _ = self.child.kill().await;
    }
}

/// Writes `text` to `path` as editors that save atomically do: a new file
/// renamed over the old one.
fn replace_file(path: &Path, text: &str) {
    let fresh: PathBuf = path.with_extension("yaml.new");
    std::fs::write(&fresh, text).unwrap();
    std::fs::rename(&fresh, path).unwrap();
}

/// Edit, break and mend the document under a running server.
async fn edits_are_served(over: Over) {
    let dir = tempfile::tempdir().unwrap();
    let api = dir.path().join("api.yaml");
    std::fs::write(&api, V1).unwrap();
    let mut upstream = upstream().await;
    let mut served = serve(dir.path(), over, &["--watch"], &upstream.url).await;
    assert_eq!(served.tool_names().await, ["listItems", "slowItem"]);

    // A call waits upstream while the document changes under it.
    let in_flight = {
        let peer = served.client.peer().clone();
        tokio::spawn(async move {
            let mut params = CallToolRequestParams::new("slowItem");
            params.arguments = Some(serde_json::Map::new());
            peer.call_tool(params).await
        })
    };
    timeout(HEARD_WITHIN, upstream.arrived.recv())
        .await
        .expect("the call reaches the upstream");

    replace_file(&api, V2);
    served.hear("tools").await;
    assert_eq!(served.tool_names().await, ["listItems", "getExtra"]);
    let (reloaded, _) = served.stderr_line("reloaded the tools").await;
    assert!(reloaded.contains("2 tools"), "{reloaded}");

    upstream.release.notify_one();
    let finished = timeout(HEARD_WITHIN, in_flight)
        .await
        .expect("the call in flight ends")
        .unwrap()
        .expect("the call in flight succeeds");
    assert_ne!(finished.is_error, Some(true), "{finished:?}");
    assert_eq!(finished.structured_content, Some(json!({"slow": "done"})));
    let gone = served.call("slowItem").await.unwrap_err();
    assert!(
        gone.to_string().contains("unknown tool `slowItem`"),
        "{gone}"
    );

    // A broken document: one error line, and the last good tools stay.
    std::fs::write(&api, BROKEN).unwrap();
    let (error, before) = served.stderr_line("reload failed").await;
    assert!(error.contains("ERROR"), "{error}");
    assert!(
        error.contains("still serving the previous tools"),
        "{error}"
    );
    assert!(
        error.contains(&format!("{}: cannot parse YAML", api.display())),
        "{error}"
    );
    assert!(
        !before.iter().any(|line| line.contains("ERROR")),
        "{before:#?}"
    );
    let after = served.stderr_for_a_second().await;
    assert!(
        !after.iter().any(|line| line.contains("ERROR")),
        "{after:#?}"
    );
    assert_eq!(
        heard_within_half_a_second(&mut served.hears).await,
        Vec::<&str>::new()
    );
    assert_eq!(served.tool_names().await, ["listItems", "getExtra"]);
    let items = served.call("listItems").await.unwrap();
    assert_eq!(
        items.structured_content,
        Some(json!({"result": ["apple", "pear"]}))
    );

    // Mended: served again.
    replace_file(&api, V1);
    served.hear("tools").await;
    assert_eq!(served.tool_names().await, ["listItems", "slowItem"]);
    served.stop().await;
}

#[tokio::test]
async fn watched_documents_are_reloaded_over_stdio() {
    edits_are_served(Over::Stdio).await;
}

#[tokio::test]
async fn watched_documents_are_reloaded_over_http() {
    edits_are_served(Over::Http).await;
}

#[tokio::test]
async fn a_route_map_change_reloads_tools_and_resources() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("api.yaml"), V1).unwrap();
    let routes = dir.path().join("routes.toml");
    let items_as_resource =
        "[[route_map]]\noperation_ids = [\"listItems\"]\nmcp_type = \"resource\"\n";
    std::fs::write(&routes, items_as_resource).unwrap();
    let upstream = upstream().await;
    let route_map = routes.display().to_string();
    let mut served = serve(
        dir.path(),
        Over::Stdio,
        &["--watch", "--route-map", &route_map],
        &upstream.url,
    )
    .await;
    assert_eq!(served.tool_names().await, ["slowItem"]);
    assert_eq!(served.client.list_all_resources().await.unwrap().len(), 1);

    std::fs::write(&routes, "").unwrap();
    let mut heard = vec![];
    for _ in 0..2 {
        let list = timeout(HEARD_WITHIN, served.hears.recv())
            .await
            .expect("both lists changed")
            .unwrap();
        heard.push(list);
    }
    heard.sort_unstable();
    assert_eq!(heard, ["resources", "tools"]);
    assert_eq!(served.tool_names().await, ["listItems", "slowItem"]);
    assert!(served.client.list_all_resources().await.unwrap().is_empty());
    served.stop().await;
}

#[cfg(unix)]
#[tokio::test]
async fn sighup_reloads_with_or_without_watch() {
    let dir = tempfile::tempdir().unwrap();
    let api = dir.path().join("api.yaml");
    std::fs::write(&api, V1).unwrap();
    let upstream = upstream().await;
    let mut served = serve(dir.path(), Over::Stdio, &[], &upstream.url).await;
    assert_eq!(served.tool_names().await, ["listItems", "slowItem"]);

    // Without --watch, a change on disk waits for SIGHUP.
    replace_file(&api, V2);
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(
        heard_within_half_a_second(&mut served.hears).await,
        Vec::<&str>::new()
    );
    assert_eq!(served.tool_names().await, ["listItems", "slowItem"]);

    let pid = served.child.id().expect("running").to_string();
    let hangup = Command::new("kill")
        .args(["-HUP", &pid])
        .status()
        .await
        .unwrap();
    assert!(hangup.success());
    served.hear("tools").await;
    assert_eq!(served.tool_names().await, ["listItems", "getExtra"]);
    let (reloading, _) = served.stderr_line("reloading the tools").await;
    assert!(reloading.contains("(SIGHUP)"), "{reloading}");
    served.stop().await;
}

#[tokio::test]
async fn overlay_and_transform_edits_are_served() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("api.yaml"), V1).unwrap();
    let overlay = dir.path().join("names.overlay.yaml");
    let rename_list = |name: &str| {
        format!(
            "overlay: 1.0.0\ninfo: {{title: names, version: \"1\"}}\nactions:\n  - target: $.paths['/items'].get\n    update: {{operationId: {name}}}\n"
        )
    };
    std::fs::write(&overlay, rename_list("allItems")).unwrap();
    let transform = dir.path().join("curated.toml");
    std::fs::write(&transform, "[tools.slowItem]\nname = \"slow\"\n").unwrap();
    let upstream = upstream().await;
    let (overlay_arg, transform_arg) = (
        overlay.display().to_string(),
        transform.display().to_string(),
    );
    let mut served = serve(
        dir.path(),
        Over::Stdio,
        &[
            "--watch",
            "--overlay",
            &overlay_arg,
            "--transform",
            &transform_arg,
        ],
        &upstream.url,
    )
    .await;
    assert_eq!(served.tool_names().await, ["allItems", "slow"]);

    replace_file(&overlay, &rename_list("everyItem"));
    served.hear("tools").await;
    assert_eq!(served.tool_names().await, ["everyItem", "slow"]);

    std::fs::write(&transform, "[tools.slowItem]\nname = \"patient\"\n").unwrap();
    served.hear("tools").await;
    assert_eq!(served.tool_names().await, ["everyItem", "patient"]);

    // A transform that no longer fits: one error line, the tools stay.
    std::fs::write(&transform, "[tools.noSuchTool]\nname = \"x\"\n").unwrap();
    let (error, _) = served.stderr_line("reload failed").await;
    assert!(error.contains("noSuchTool"), "{error}");
    assert_eq!(served.tool_names().await, ["everyItem", "patient"]);
    served.stop().await;
}
