//! Session floods with sessions shared through Redis (two in-process
//! replicas, a private `redis-server`; skipped without one): each replica
//! caps the sessions it holds; one ended to admit another is ended
//! everywhere (its record goes, so no replica restores it) unless another
//! replica served it since it went idle here, in which case only this
//! replica's copy ends and the session lives on.

use std::time::Duration;

use mcp_server::store::RedisStore;
use mcp_server::{HttpConfig, Server};
use serde_json::json;

use super::client::{Session, flood, ping};
use crate::support::http::{Running, serve_http};
use crate::support::redis::TestRedis;

async fn replica(redis: &TestRedis, max_sessions: usize) -> Running {
    let store = RedisStore::connect(&redis.url()).await.unwrap();
    let (_release, released) = tokio::sync::watch::channel(false);
    let server = Server::builder()
        .store(store)
        .tools(super::tools(released))
        .build()
        .unwrap();
    serve_http(server, HttpConfig::new().max_sessions(max_sessions)).await
}

/// How many session records Redis holds.
async fn records(redis: &TestRedis) -> usize {
    let client = redis::Client::open(redis.url()).unwrap();
    let mut connection = client.get_multiplexed_async_connection().await.unwrap();
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg("mcp:session:*")
        .query_async(&mut connection)
        .await
        .unwrap();
    keys.iter()
        .filter(|key| !key.ends_with(":subscriptions"))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_through_redis_ends_sessions_everywhere_and_admits_fresh_clients() {
    let Some(redis) = TestRedis::start().await else {
        return;
    };
    let a = replica(&redis, 20).await;
    let b = replica(&redis, 20).await;
    let http = reqwest::Client::new();
    let flooded = flood(&a.url, 300, 8).await;
    assert_eq!(flooded.failed, 0, "{:?}", flooded.first_failure);
    assert_eq!((flooded.accepted, flooded.refused), (300, 0));
    // The first sessions are gone on every replica: none restores them.
    for id in &flooded.first_ids {
        assert_eq!(ping(&http, &b.url, id).await, 404, "session {id} on b");
        assert_eq!(ping(&http, &a.url, id).await, 404, "session {id} on a");
    }
    let kept = records(&redis).await;
    assert!(kept <= 24, "{kept} session records are left in Redis");
    // Fresh clients are served on either replica.
    for url in [&a.url, &b.url] {
        let mut fresh = Session::open(http.clone(), url).await.unwrap();
        fresh.request("tools/list", json!({})).await.unwrap();
        assert_eq!(fresh.reinitialized, 0);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_served_by_another_replica_lives_on_when_this_one_ends_its_copy() {
    let Some(redis) = TestRedis::start().await else {
        return;
    };
    let a = replica(&redis, 2).await;
    let b = replica(&redis, 10).await;
    let http = reqwest::Client::new();
    // Initialized on `a`, then served by `b` only: on `a` it looks unused.
    let session = Session::open(http.clone(), &a.url).await.unwrap();
    let id = session.id().unwrap().to_owned();
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(ping(&http, &b.url, &id).await, 200);
    // Two more sessions on `a` end its copy.
    let flooded = flood(&a.url, 2, 1).await;
    assert_eq!((flooded.accepted, flooded.refused), (2, 0));
    // The session lives on: `b` still serves it, and `a` restores it.
    assert_eq!(ping(&http, &b.url, &id).await, 200);
    assert_eq!(ping(&http, &a.url, &id).await, 200);

    // A session nobody served since it went idle is ended everywhere.
    let idle = Session::open(http.clone(), &a.url).await.unwrap();
    let idle = idle.id().unwrap().to_owned();
    tokio::time::sleep(Duration::from_millis(600)).await;
    let flooded = flood(&a.url, 3, 1).await;
    assert_eq!((flooded.accepted, flooded.refused), (3, 0));
    assert_eq!(ping(&http, &b.url, &idle).await, 404);
    assert_eq!(ping(&http, &a.url, &idle).await, 404);
}
