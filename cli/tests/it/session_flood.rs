//! No lock-out by session floods: at the live-session cap a new
//! `initialize` ends the session idle longest (never-used ones first) and
//! that session's id answers 404; busy sessions (a call in flight, a stream
//! open) are never ended, so 503 remains only when every session is busy;
//! sessions never used after `initialize` end after a short grace.
//!
//! In process, on loopback; `shared` does the same with sessions shared by
//! two replicas through Redis. The same flood against the release binary, with
//! its memory, is `cargo xtask load` (`load`), and the soak run is
//! `cargo xtask soak` (`soak`); both are ignored here.

pub(crate) mod client;
mod load;
mod shared;
mod soak;

use std::time::{Duration, Instant};

use mcp_core::{ToolDef, tool};
use mcp_server::{HttpConfig, Server};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use tokio::sync::watch;

use self::client::{Session, flood, ping, post};
use crate::support::http::{Running, serve_http};

#[derive(Deserialize, JsonSchema)]
struct Add {
    a: i64,
    b: i64,
}

/// A server with [`tools`].
fn server(release: watch::Receiver<bool>) -> Server {
    Server::builder().tools(tools(release)).build().unwrap()
}

/// `add`, and `wait` (which returns once `release` is true).
fn tools(release: watch::Receiver<bool>) -> [ToolDef; 2] {
    let add: ToolDef = tool("add")
        .input::<Add>()
        .output::<i64>()
        .run(|args: Add| async move { args.a + args.b })
        .unwrap();
    let wait: ToolDef = tool("wait")
        .run(move || {
            let mut release = release.clone();
            async move {
                let _ = release.wait_for(|released| *released).await;
                "released"
            }
        })
        .unwrap();
    [add, wait]
}

async fn start(config: HttpConfig) -> (Running, watch::Sender<bool>) {
    let (release, released) = watch::channel(false);
    (serve_http(server(released), config).await, release)
}

/// Initializes a session (and sends `notifications/initialized`).
async fn open(http: &reqwest::Client, url: &str) -> Session {
    Session::open(http.clone(), url).await.expect("a session")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_abandoned_sessions_leaves_room_for_a_fresh_client() {
    let (running, _release) = start(HttpConfig::new().max_sessions(200)).await;
    let http = reqwest::Client::new();
    // A client that works before the flood and is idle during it.
    let mut before = open(&http, &running.url).await;
    before.request("tools/list", json!({})).await.unwrap();

    let flood = flood(&running.url, 5000, 16).await;
    eprintln!(
        "5000 initialize requests in {:.1} s: {} accepted, {} refused, {} failed",
        flood.elapsed.as_secs_f64(),
        flood.accepted,
        flood.refused,
        flood.failed
    );
    assert_eq!(flood.failed, 0, "{:?}", flood.first_failure);
    assert_eq!(flood.refused, 0, "idle sessions should have given way");
    assert_eq!(flood.accepted, 5000);
    // The flood's first sessions gave way to its later ones.
    for id in &flood.first_ids {
        assert_eq!(ping(&http, &running.url, id).await, 404, "session {id}");
    }

    // A fresh client is served at once.
    let started = Instant::now();
    let mut fresh = open(&http, &running.url).await;
    let tools = fresh.request("tools/list", json!({})).await.unwrap();
    let latency = started.elapsed();
    eprintln!("a fresh client's initialize + tools/list: {latency:?}");
    assert_eq!(tools["tools"].as_array().map(Vec::len), Some(2), "{tools}");
    assert_eq!(fresh.reinitialized, 0);
    assert!(latency < Duration::from_secs(2), "{latency:?}");

    // The used session outlived the never-used ones of the flood.
    let sum = before
        .call_tool("add", json!({"a": 2, "b": 3}))
        .await
        .unwrap();
    assert_eq!(sum["structuredContent"]["result"], 5, "{sum}");
    assert_eq!(
        before.reinitialized, 0,
        "a used session gave way to unused ones"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_while_clients_work_costs_them_no_errors() {
    let (running, _release) = start(HttpConfig::new().max_sessions(200)).await;
    let (stop, stopped) = watch::channel(false);
    let workers: Vec<_> = (0..20)
        .map(|worker: i64| {
            let url = running.url.clone();
            let mut stopped = stopped.clone();
            tokio::spawn(async move {
                let http = reqwest::Client::new();
                let mut session = Session::open(http, &url).await?;
                let (mut calls, mut a) = (0, worker * 1_000_000);
                while !*stopped.borrow_and_update() {
                    let result = session.call_tool("add", json!({"a": a, "b": 1})).await?;
                    if result["structuredContent"]["result"] != a + 1 {
                        return Err(format!("add({a}, 1) gave {result}"));
                    }
                    if calls % 10 == 0 {
                        session.request("tools/list", json!({})).await?;
                    }
                    calls += 1;
                    a += 1;
                }
                Ok((calls, session.reinitialized))
            })
        })
        .collect();
    let flood = flood(&running.url, 3000, 16).await;
    stop.send_replace(true);
    let (mut calls, mut reinitialized) = (0, 0);
    for worker in workers {
        let (worker_calls, worker_reinitialized) = worker
            .await
            .expect("a worker ends")
            .expect("a working client's calls all succeed");
        assert!(worker_calls > 0);
        calls += worker_calls;
        reinitialized += worker_reinitialized;
    }
    eprintln!(
        "{calls} calls of 20 working clients, {reinitialized} re-initializations, during \
         {} initialize requests ({} accepted, {} refused) in {:.1} s",
        flood.accepted + flood.refused + flood.failed,
        flood.accepted,
        flood.refused,
        flood.elapsed.as_secs_f64()
    );
    assert_eq!(flood.failed, 0, "{:?}", flood.first_failure);
    assert_eq!(flood.refused, 0);
}

#[tokio::test]
async fn idle_sessions_give_way_never_used_ones_first_and_answer_404() {
    let (running, _release) = start(HttpConfig::new().max_sessions(2)).await;
    let http = reqwest::Client::new();
    let mut used = open(&http, &running.url).await;
    used.request("ping", json!({})).await.unwrap();
    let unused = open(&http, &running.url).await;
    let third = open(&http, &running.url).await;
    let unused = unused.id().unwrap().to_owned();
    assert_eq!(ping(&http, &running.url, &unused).await, 404);
    // The used session was idle longer, but the never-used one went first.
    used.request("ping", json!({})).await.unwrap();
    assert_eq!(used.reinitialized, 0);
    // Now the used session idle longest gives way.
    let mut third = third;
    third.request("ping", json!({})).await.unwrap();
    let _fourth = open(&http, &running.url).await;
    let used = used.id().unwrap().to_owned();
    assert_eq!(ping(&http, &running.url, &used).await, 404);
    assert_eq!(ping(&http, &running.url, third.id().unwrap()).await, 200);
}

#[tokio::test]
async fn busy_sessions_are_never_ended_so_503_remains_when_all_are_busy() {
    let (running, release) = start(HttpConfig::new().max_sessions(2)).await;
    let http = reqwest::Client::new();
    // One session with a call in flight.
    let calling = open(&http, &running.url).await;
    let call = post(&http, &running.url, calling.id())
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "wait", "arguments": {}}}))
        .send()
        .await
        .unwrap();
    assert_eq!(call.status(), 200);
    // One with its standalone SSE stream open.
    let streaming = open(&http, &running.url).await;
    let stream = http
        .get(&running.url)
        .header("accept", "text/event-stream")
        .header("mcp-session-id", streaming.id().unwrap())
        .header("mcp-protocol-version", "2025-11-25")
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status(), 200);

    let refused = post(&http, &running.url, None)
        .json(&client::initialize(7))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 503);
    assert!(refused.headers().get("retry-after").is_some());
    let body: serde_json::Value = refused.json().await.unwrap();
    assert_eq!(body["id"], 7, "{body}");
    assert_eq!(body["error"]["code"], -32000, "{body}");

    // Closing the stream makes its session idle: it gives way.
    drop(stream);
    let mut admitted = None;
    for _ in 0..50 {
        match Session::open(http.clone(), &running.url).await {
            Ok(session) => {
                admitted = Some(session);
                break;
            }
            Err(error) => assert!(error.contains("503"), "{error}"),
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(admitted.is_some(), "no room after the stream closed");
    assert_eq!(
        ping(&http, &running.url, streaming.id().unwrap()).await,
        404
    );
    // The call in flight kept its session.
    release.send_replace(true);
    assert!(call.text().await.unwrap().contains("released"));
    assert_eq!(ping(&http, &running.url, calling.id().unwrap()).await, 200);
}

#[tokio::test]
async fn sessions_never_used_end_after_the_grace() {
    let config = HttpConfig::new().unused_session_grace(Duration::from_millis(300));
    let (running, _release) = start(config).await;
    let http = reqwest::Client::new();
    let unused = open(&http, &running.url).await;
    let mut used = open(&http, &running.url).await;
    used.request("tools/list", json!({})).await.unwrap();
    // Nothing is asked of the unused session (any message would renew it)
    // while the used one goes on and then idles past the grace too.
    for _ in 0..5 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        used.request("tools/list", json!({})).await.unwrap();
    }
    tokio::time::sleep(Duration::from_millis(1000)).await;
    assert_eq!(ping(&http, &running.url, unused.id().unwrap()).await, 404);
    assert_eq!(ping(&http, &running.url, used.id().unwrap()).await, 200);
}
