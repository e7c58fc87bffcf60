//! Tests of the HTTP limits: pending requests, the session cap.

use super::*;

fn limits(max_sessions: usize, max_pending: usize) -> Arc<Limits> {
    let config = HttpConfig::new()
        .max_sessions(max_sessions)
        .max_pending_requests(max_pending)
        .max_body_bytes(1024);
    Arc::new(Limits::new(
        Arc::new(LocalSessionManager::default()),
        &config,
    ))
}

#[tokio::test]
async fn the_pending_count_is_released_with_the_request() {
    let limits = limits(1, 2);
    let session: Arc<str> = Arc::from("s");
    let first = limits.begin_request(session.clone());
    let second = limits.begin_request(session.clone());
    assert!(first.is_some() && second.is_some());
    assert!(limits.begin_request(session.clone()).is_none());
    drop(first);
    assert!(limits.begin_request(session.clone()).is_some());
    drop(second);
    assert!(limits.pending.lock().unwrap().is_empty());
}

#[tokio::test]
async fn concurrent_initializations_count_against_the_session_cap() {
    let limits = limits(1, 1);
    let first = limits.reserve_session().await;
    assert!(first.is_some());
    assert!(limits.reserve_session().await.is_none());
    drop(first);
    assert!(limits.reserve_session().await.is_some());
}
