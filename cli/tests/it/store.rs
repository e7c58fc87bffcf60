//! The Redis store itself: connecting, and what a lost Redis looks like.

use mcp_server::store::RedisStore;

use crate::support::redis::TestRedis;

#[tokio::test]
async fn connects_pings_and_reconnects_after_a_restart() {
    let Some(mut redis) = TestRedis::start().await else {
        return;
    };
    let store = RedisStore::connect(&redis.url()).await.expect("connects");
    store.ping().await.expect("Redis answers");

    redis.stop();
    let error = store.ping().await.expect_err("Redis is down");
    assert!(error.is_unreachable(), "{error}");
    assert!(error.to_string().contains(&redis.url()), "{error}");

    redis.restart().await;
    // The first command after the restart may still find the old
    // connection broken; the manager reconnects by itself.
    let mut answered = false;
    for _ in 0..50 {
        if store.ping().await.is_ok() {
            answered = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(answered, "the store answers again without a new connect");
}
