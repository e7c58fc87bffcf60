//! 2025-11-25 sessions and tasks across replicas that share Redis, in raw
//! HTTP (what the Python SDK cannot express: creating and polling tasks,
//! dropping an SSE stream, reading a task through one chosen replica).

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::cluster::{Cluster, Nginx, Sharing, wait_until_refused};
use super::raw::{McpHttp, Version, events};

/// Three replicas sharing a Redis behind nginx, or `None` (saying why).
async fn shared_cluster(test: &str) -> Option<Cluster> {
    let nginx = Nginx::find_or_skip(test)?;
    Cluster::start(&nginx, 3, Sharing::Redis).await
}

fn http() -> reqwest::Client {
    reqwest::Client::new()
}

const TERMINAL: [&str; 3] = ["completed", "failed", "cancelled"];

/// Polls `tasks/get` until the task is terminal (within 60 s); returns
/// the last answer and the replicas that answered.
async fn poll(client: &mut McpHttp, task_id: &Value) -> (Value, BTreeSet<String>) {
    let mut answered = BTreeSet::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let got = client
            .request("tasks/get", json!({"taskId": task_id}))
            .await
            .unwrap_or_else(|error| panic!("tasks/get {task_id}: {error}"));
        answered.extend(client.upstream().map(str::to_owned));
        if TERMINAL.contains(&got["status"].as_str().unwrap_or_default()) {
            return (got, answered);
        }
        assert!(
            Instant::now() < deadline,
            "task {task_id} never ended: {got}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_2025_task_created_through_nginx_is_polled_and_read_on_every_replica() {
    let Some(cluster) = shared_cluster("the 2025-11-25 task test").await else {
        return;
    };
    let mut client = McpHttp::connect(http(), &cluster.url, Version::V2025)
        .await
        .expect("a session through nginx");
    let created = client
        .request(
            "tools/call",
            json!({"name": "countdown", "arguments": {"from": 5}, "task": {"ttl": 60000}}),
        )
        .await
        .expect("countdown as a task");
    let task_id = created["task"]["taskId"].clone();
    assert!(task_id.is_string(), "{created}");
    let (done, answered) = poll(&mut client, &task_id).await;
    assert_eq!(done["status"], "completed", "{done}\n{}", cluster.logs());
    assert!(
        answered.len() > 1,
        "one replica answered every poll: {answered:?}"
    );
    for replica in &cluster.replicas {
        let result = client
            .at(&replica.url)
            .request("tasks/result", json!({"taskId": task_id}))
            .await
            .unwrap_or_else(|error| panic!("tasks/result on {}: {error}", replica.url));
        assert_eq!(result["structuredContent"], json!({"steps": 5}), "{result}");
    }
    let listed = client
        .request("tasks/list", json!({}))
        .await
        .expect("tasks/list");
    let ids: Vec<&Value> = listed["tasks"]
        .as_array()
        .map(|tasks| tasks.iter().map(|task| &task["taskId"]).collect())
        .unwrap_or_default();
    assert_eq!(ids, [&task_id], "{listed}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_2026_task_created_through_nginx_is_polled_to_completion_through_it() {
    let Some(cluster) = shared_cluster("the 2026-07-28 task test").await else {
        return;
    };
    let mut client = McpHttp::connect(http(), &cluster.url, Version::V2026)
        .await
        .expect("a client")
        .with_tasks_extension();
    let created = client
        .request(
            "tools/call",
            json!({"name": "countdown", "arguments": {"from": 5}}),
        )
        .await
        .expect("countdown as a task");
    assert_eq!(created["resultType"], "task", "{created}");
    let (done, _) = poll(&mut client, &created["taskId"]).await;
    assert_eq!(done["status"], "completed", "{done}\n{}", cluster.logs());
    assert_eq!(
        done["result"]["structuredContent"],
        json!({"steps": 5}),
        "{done}"
    );
}

/// Reads `response`'s SSE body until `enough` says so (within 30 s);
/// returns the events read.
async fn read_events(
    response: &mut reqwest::Response,
    enough: impl Fn(&[super::raw::Event]) -> bool,
) -> Vec<super::raw::Event> {
    let mut body = String::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let parsed = events(&body);
        if enough(&parsed) {
            return parsed;
        }
        let chunk = tokio::time::timeout_at(deadline, response.chunk())
            .await
            .expect("events within 30 s")
            .expect("the stream reads");
        let Some(chunk) = chunk else {
            return events(&body);
        };
        body.push_str(&String::from_utf8_lossy(&chunk));
    }
}

fn progress_of(event: &super::raw::Event) -> Option<f64> {
    let data = event.data.as_ref()?;
    (data["method"] == "notifications/progress").then(|| data["params"]["progress"].as_f64())?
}

#[tokio::test(flavor = "multi_thread")]
async fn an_sse_stream_dropped_mid_call_resumes_on_another_replica() {
    let Some(cluster) = shared_cluster("the SSE resumption test").await else {
        return;
    };
    let mut client = McpHttp::connect(http(), &cluster.url, Version::V2025)
        .await
        .expect("a session through nginx");
    let (message, id) = client.message(
        "tools/call",
        json!({"name": "countdown", "arguments": {"from": 50}, "_meta": {"progressToken": "p"}}),
    );
    let mut response = client.open(&message).await.expect("the call starts");
    let runner = client
        .upstream()
        .expect("nginx names the replica")
        .to_owned();
    let first = read_events(&mut response, |events| {
        events
            .iter()
            .any(|event| event.id.is_some() && progress_of(event).is_some())
    })
    .await;
    drop(response);
    let seen: Vec<f64> = first.iter().filter_map(progress_of).collect();
    let last_id = first
        .iter()
        .rev()
        .find_map(|event| event.id.clone())
        .expect("an event id");

    let other = cluster
        .replicas
        .iter()
        .find(|replica| !replica.url.contains(&runner))
        .expect("another replica");
    let mut resumed = client
        .at(&other.url)
        .builder(reqwest::Method::GET)
        .header("last-event-id", &last_id)
        .send()
        .await
        .expect("the GET starts");
    assert!(
        resumed.status().is_success(),
        "resuming on {} after {last_id}: {}\n{}",
        other.url,
        resumed.status(),
        cluster.logs()
    );
    let rest = read_events(&mut resumed, |events| {
        events.iter().any(|event| {
            event
                .data
                .as_ref()
                .is_some_and(|data| data["id"] == json!(id))
        })
    })
    .await;
    let later: Vec<f64> = rest.iter().filter_map(progress_of).collect();
    let all: Vec<f64> = seen.iter().chain(&later).copied().collect();
    let expected: Vec<f64> = (1..=50).map(f64::from).collect();
    assert_eq!(
        all, expected,
        "progress before the drop {seen:?}, after resuming {later:?}"
    );
    let answer = rest
        .iter()
        .find_map(|event| event.data.clone().filter(|data| data["id"] == json!(id)))
        .expect("the response");
    assert_eq!(
        answer["result"]["structuredContent"],
        json!({"steps": 50}),
        "{answer}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_killed_replica_leaves_the_session_its_finished_task_and_fails_its_running_one() {
    let Some(mut cluster) = shared_cluster("the kill test").await else {
        return;
    };
    let mut client = McpHttp::connect(http(), &cluster.url, Version::V2025)
        .await
        .expect("a session through nginx");
    let task = json!({"ttl": 60000});
    let finished = client
        .request(
            "tools/call",
            json!({"name": "countdown", "arguments": {"from": 1}, "task": task}),
        )
        .await
        .expect("a short task")["task"]["taskId"]
        .clone();
    let (done, _) = poll(&mut client, &finished).await;
    assert_eq!(done["status"], "completed", "{done}");
    let running = client
        .request(
            "tools/call",
            json!({"name": "countdown", "arguments": {"from": 100}, "task": task}),
        )
        .await
        .expect("a long task")["task"]["taskId"]
        .clone();
    let runner = client
        .upstream()
        .expect("nginx names the replica")
        .to_owned();
    let victim = cluster
        .replicas
        .iter_mut()
        .find(|replica| replica.url.contains(&runner))
        .expect("the runner is a replica");
    victim.process.kill();
    wait_until_refused(victim.port());

    // The session goes on through the other replicas.
    let sum = client
        .call_tool("add", json!({"a": 20, "b": 22}))
        .await
        .expect("add after the kill");
    assert_eq!(sum["structuredContent"], json!({"result": 42}));
    let result = client
        .request("tasks/result", json!({"taskId": finished}))
        .await
        .expect("the finished task's result after the kill");
    assert_eq!(result["structuredContent"], json!({"steps": 1}), "{result}");
    // The task whose runner died fails, saying so (it is never run again
    // elsewhere).
    let (ended, _) = poll(&mut client, &running).await;
    assert_eq!(ended["status"], "failed", "{ended}");
    assert!(
        ended["statusMessage"]
            .as_str()
            .is_some_and(|message| !message.is_empty()),
        "{ended}"
    );
    println!("the task of the killed replica: {ended}");
    let listed = client
        .request("tasks/list", json!({}))
        .await
        .expect("tasks/list");
    let mut ids: Vec<String> = listed["tasks"]
        .as_array()
        .map(|tasks| {
            tasks
                .iter()
                .filter_map(|task| task["taskId"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    ids.sort();
    let mut expected: Vec<String> = [&finished, &running]
        .iter()
        .filter_map(|id| id.as_str().map(str::to_owned))
        .collect();
    expected.sort();
    assert_eq!(ids, expected, "{listed}");
}

fn is_pets_update(event: &super::raw::Event) -> bool {
    event.data.as_ref().is_some_and(|data| {
        data["method"] == "notifications/resources/updated"
            && data["params"]["uri"] == "demo://petstore/pets"
    })
}

#[tokio::test(flavor = "multi_thread")]
async fn a_session_stream_on_a_killed_replica_resumes_on_another_and_hears_later_updates() {
    let Some(mut cluster) = shared_cluster("the stream kill test").await else {
        return;
    };
    let mut client = McpHttp::connect(http(), &cluster.url, Version::V2025)
        .await
        .expect("a session through nginx");
    client
        .request(
            "resources/subscribe",
            json!({"uri": "demo://petstore/pets"}),
        )
        .await
        .expect("subscribed");
    let mut stream = client
        .builder(reqwest::Method::GET)
        .send()
        .await
        .expect("the session's stream opens");
    assert!(stream.status().is_success(), "GET: {}", stream.status());
    let holder = stream
        .headers()
        .get("x-upstream")
        .and_then(|value| value.to_str().ok())
        .expect("nginx names the replica")
        .to_owned();
    client
        .call_tool("createPets", json!({"id": 5000, "name": "before"}))
        .await
        .expect("createPets before the kill");
    let before = read_events(&mut stream, |events| events.iter().any(is_pets_update)).await;
    let last_id = before
        .iter()
        .filter(|event| is_pets_update(event))
        .find_map(|event| event.id.clone())
        .expect("the update has an event id");

    let victim = cluster
        .replicas
        .iter_mut()
        .find(|replica| replica.url.contains(&holder))
        .expect("the stream's replica");
    victim.process.kill();
    wait_until_refused(victim.port());
    drop(stream);

    let mut resumed = client
        .builder(reqwest::Method::GET)
        .header("last-event-id", &last_id)
        .send()
        .await
        .expect("the stream resumes through nginx");
    assert!(
        resumed.status().is_success(),
        "resuming after {last_id}: {}\n{}",
        resumed.status(),
        cluster.logs()
    );
    client
        .call_tool("createPets", json!({"id": 5001, "name": "after"}))
        .await
        .expect("createPets after the kill");
    let after = read_events(&mut resumed, |events| events.iter().any(is_pets_update)).await;
    let replayed: Vec<&Option<String>> = after
        .iter()
        .filter(|event| is_pets_update(event))
        .map(|event| &event.id)
        .collect();
    assert_eq!(
        replayed.len(),
        1,
        "one update after resuming, not the one before again: {after:?}"
    );
    assert_ne!(replayed[0].as_deref(), Some(last_id.as_str()));
}
