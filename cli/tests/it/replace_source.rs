//! Replacing a source while serving: one atomic swap, clashes refused, one
//! notification per changed list, calls in flight unharmed.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use mcp_core::resource::{ResourceDef, resource};
use mcp_core::{ToolDef, tool};
use mcp_server::testing::TestClient;
use mcp_server::{Server, ToolSource};
use rmcp::model::CallToolRequestParams;
use serde_json::{Value, json};
use tokio::sync::{Notify, mpsc};

use crate::support::{Hearing, Raw, heard_within_half_a_second, meta_2026};

fn ping(name: &str) -> ToolDef {
    tool(name).run(|| async { "pong" }).unwrap()
}

fn readme() -> ResourceDef {
    resource("docs://readme", "readme")
        .read(|| async { "Read me." })
        .unwrap()
}

async fn hearing(server: &Server) -> (TestClient<Hearing>, mpsc::UnboundedReceiver<&'static str>) {
    let (heard, hears) = mpsc::unbounded_channel();
    let client = TestClient::connect_with(server.clone(), Hearing(heard))
        .await
        .expect("the client connects");
    (client, hears)
}

fn names(server: &Server) -> Vec<String> {
    server.tools().into_iter().map(|tool| tool.name).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swap_is_atomic_for_every_reader() {
    let old: Vec<String> = (0..40).map(|i| format!("old_{i}")).collect();
    let new: Vec<String> = (0..25).map(|i| format!("new_{i}")).collect();
    let source = |names: &[String]| ToolSource::new("api", names.iter().map(|n| ping(n)));
    let server = Server::builder()
        .tool(ping("local"))
        .source(source(&old))
        .build()
        .unwrap();
    let listing = |names: &[String]| {
        let mut all = vec!["local".to_owned()];
        all.extend(names.iter().cloned());
        all
    };
    let (old_listing, new_listing) = (listing(&old), listing(&new));

    let (client, _) = hearing(&server).await;
    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let (server, stop) = (server.clone(), stop.clone());
        let (old, new) = (old.clone(), new.clone());
        std::thread::spawn(move || {
            let mut now_new = false;
            while !stop.load(Ordering::SeqCst) {
                now_new = !now_new;
                server
                    .replace_source(source(if now_new { &new } else { &old }))
                    .unwrap();
            }
            now_new
        })
    };
    for _ in 0..200 {
        let in_process = names(&server);
        let over_the_wire: Vec<String> = client
            .peer()
            .list_tools(None)
            .await
            .unwrap()
            .tools
            .into_iter()
            .map(|tool| tool.name.into_owned())
            .collect();
        for listed in [in_process, over_the_wire] {
            assert!(
                listed == old_listing || listed == new_listing,
                "a mix of the old and the new tools: {listed:?}"
            );
        }
    }
    stop.store(true, Ordering::SeqCst);
    let ended_new = swapper.join().unwrap();
    let last = if ended_new { new_listing } else { old_listing };
    assert_eq!(names(&server), last);
}

#[tokio::test]
async fn a_clash_or_an_unknown_source_changes_nothing_and_tells_no_one() {
    let server = Server::builder()
        .tool(ping("local"))
        .source(ToolSource::new("github", [ping("issues")]).prefix("gh_"))
        .build()
        .unwrap();
    let (client, mut hears) = hearing(&server).await;
    client.list_tools().await.unwrap();

    let clash = server
        .replace_source(ToolSource::new("github", [ping("pulls"), ping("local")]))
        .unwrap_err();
    assert_eq!(
        clash.to_string(),
        "duplicate tool `local`: defined by hand-written tools and by github (rename one, or give one source a prefix)"
    );
    let invalid = server
        .replace_source(ToolSource::new("github", [ping("pulls")]).prefix("a b "))
        .unwrap_err();
    assert!(
        invalid
            .to_string()
            .starts_with("github: prefix `a b ` gives an invalid tool name for `pulls`"),
        "{invalid}"
    );
    let unknown = server
        .replace_source(ToolSource::new("gitlab", [ping("pulls")]))
        .unwrap_err();
    assert_eq!(
        unknown.to_string(),
        "no tool source is named `gitlab` (the sources are `hand-written tools`, `github`)"
    );
    let clashing_resources = server
        .replace_sources([
            ToolSource::new("github", []).resources([readme()]),
            ToolSource::new("hand-written tools", [ping("local")]).resources([readme()]),
        ])
        .unwrap_err();
    assert_eq!(
        clashing_resources.to_string(),
        "duplicate resource `docs://readme`"
    );

    assert_eq!(names(&server), ["local", "gh_issues"]);
    assert!(server.resources().is_empty());
    assert_eq!(
        heard_within_half_a_second(&mut hears).await,
        Vec::<&str>::new()
    );
    let result = client.call_tool("gh_issues", Value::Null).await.unwrap();
    assert_eq!(result.content[0].as_text().unwrap().text, "pong");
}

#[tokio::test]
async fn each_swap_tells_every_session_once_per_changed_list() {
    let server = Server::builder()
        .source(ToolSource::new("api", [ping("a")]).resources([readme()]))
        .build()
        .unwrap();
    let (client, mut hears) = hearing(&server).await;
    let info = client.peer().peer_info().unwrap();
    let resources = info.capabilities.resources.as_ref().unwrap();
    assert_eq!(resources.list_changed, Some(true));
    client.list_tools().await.unwrap();

    let mut raw = Raw::new(server.clone());
    raw.request(1, "server/discover", json!({"_meta": meta_2026()}))
        .await;
    raw.send(
        json!({"jsonrpc": "2.0", "id": 2, "method": "subscriptions/listen", "params": {
        "notifications": {"toolsListChanged": true, "resourcesListChanged": true},
        "_meta": meta_2026()}}),
    )
    .await;
    // The listen stream is acknowledged before anything is streamed on it.
    tokio::time::sleep(Duration::from_millis(200)).await;

    // The tools change, the resources stay.
    let changes = server
        .replace_source(ToolSource::new("api", [ping("a"), ping("b")]).resources([readme()]))
        .unwrap();
    assert!(changes.tools && !changes.resources);
    assert_eq!(heard_within_half_a_second(&mut hears).await, ["tools"]);
    raw.notification("notifications/tools/list_changed").await;

    // Both change: one notification each.
    let changes = server
        .replace_source(ToolSource::new("api", [ping("b")]))
        .unwrap();
    assert!(changes.tools && changes.resources);
    let mut heard = heard_within_half_a_second(&mut hears).await;
    heard.sort_unstable();
    assert_eq!(heard, ["resources", "tools"]);
    raw.notification("notifications/resources/list_changed")
        .await;
    raw.notification("notifications/tools/list_changed").await;
    assert!(client.peer().list_all_resources().await.unwrap().is_empty());

    // The same again: nothing to tell.
    let changes = server
        .replace_source(ToolSource::new("api", [ping("b")]))
        .unwrap();
    assert!(!changes.any());
    assert_eq!(
        heard_within_half_a_second(&mut hears).await,
        Vec::<&str>::new()
    );
    let listed = raw
        .request(3, "tools/list", json!({"_meta": meta_2026()}))
        .await;
    assert_eq!(listed["result"]["tools"].as_array().unwrap().len(), 1);
    assert!(
        !raw.notifications.iter().any(|n| n["method"]
            .as_str()
            .is_some_and(|m| m.ends_with("list_changed"))),
        "{:?}",
        raw.notifications
    );
}

#[tokio::test]
async fn a_call_in_flight_finishes_on_the_tool_it_started_with() {
    let started = Arc::new(Notify::new());
    let release = Arc::new(Notify::new());
    let slow = {
        let (started, release) = (started.clone(), release.clone());
        tool("slow")
            .run(move || {
                let (started, release) = (started.clone(), release.clone());
                async move {
                    started.notify_one();
                    release.notified().await;
                    "the old slow"
                }
            })
            .unwrap()
    };
    let server = Server::builder()
        .source(ToolSource::new("api", [slow]))
        .build()
        .unwrap();
    let (client, mut hears) = hearing(&server).await;
    client.list_tools().await.unwrap();
    let call = {
        let peer = client.peer().clone();
        tokio::spawn(async move { peer.call_tool(CallToolRequestParams::new("slow")).await })
    };
    tokio::time::timeout(Duration::from_secs(5), started.notified())
        .await
        .expect("the call starts");

    let new_slow = tool("slow").run(|| async { "the new slow" }).unwrap();
    server
        .replace_source(ToolSource::new("api", [new_slow, ping("fast")]))
        .unwrap();
    assert_eq!(heard_within_half_a_second(&mut hears).await, ["tools"]);
    release.notify_one();
    let result = tokio::time::timeout(Duration::from_secs(5), call)
        .await
        .expect("the call ends")
        .unwrap()
        .unwrap();
    assert_eq!(result.content[0].as_text().unwrap().text, "the old slow");
    let again = client.call_tool("slow", Value::Null).await.unwrap();
    assert_eq!(again.content[0].as_text().unwrap().text, "the new slow");
}
