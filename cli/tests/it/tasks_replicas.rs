//! Replicas of one server sharing their task records in a real
//! `redis-server`: a task started on one replica is polled, waited for,
//! answered and cancelled through another, and a task whose replica dies is
//! reported failed, never run twice.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use mcp_core::client::ElicitRequest;
use mcp_core::{JsonObject, ToolCallContext, ToolDef, ToolExecution, tool};
use mcp_server::store::RedisStore;
use mcp_server::{HttpConfig, Server};
use serde_json::{Value, json};

use crate::support::http::{Running, serve_http, sse_reply};
use crate::support::meta_2026;
use crate::support::redis::TestRedis;

/// Short, so a dead replica is noticed within seconds.
const HEARTBEAT: Duration = Duration::from_millis(600);

/// How often a test polls, and how many times before it gives up.
const POLL: Duration = Duration::from_millis(50);
const POLLS: usize = 400;

fn tools(started: Arc<AtomicUsize>) -> Vec<ToolDef> {
    let brew: ToolDef = tool("brew")
        .execution(ToolExecution::optional())
        .run(|| async {
            tokio::time::sleep(Duration::from_millis(200)).await;
            "coffee"
        })
        .unwrap();
    let wait: ToolDef = tool("wait_forever")
        .execution(ToolExecution::optional())
        .run(move |_: JsonObject, cx: ToolCallContext| {
            started.fetch_add(1, Ordering::SeqCst);
            async move {
                cx.cancelled().await;
                "cancelled"
            }
        })
        .unwrap();
    let ask: ToolDef = tool("ask_name")
        .execution(ToolExecution::optional())
        .run(|_: JsonObject, cx: ToolCallContext| async move {
            let schema = json!({"type": "object", "properties": {"name": {"type": "string"}}});
            let request = ElicitRequest::new("Name?", schema)
                .map_err(|e| e.to_string())?
                .input_key("name");
            let answer = cx.elicit(request).await.map_err(|e| e.to_string())?;
            let name = answer.content.unwrap_or_default()["name"].clone();
            Ok::<_, String>(format!("hello {}", name.as_str().unwrap_or("?")))
        })
        .unwrap();
    let greet_later: ToolDef = tool("greet_later")
        .execution(ToolExecution::required())
        .run(|_: JsonObject, cx: ToolCallContext| async move {
            let schema = json!({"type": "object", "properties": {"name": {"type": "string"}}});
            let request = ElicitRequest::new("Name?", schema)
                .map_err(|e| e.to_string())?
                .input_key("user_name")
                .before_task();
            let answer = cx.elicit(request).await.map_err(|e| e.to_string())?;
            let name = answer.content.unwrap_or_default()["name"].clone();
            Ok::<_, String>(format!("later, {}", name.as_str().unwrap_or("?")))
        })
        .unwrap();
    vec![brew, wait, ask, greet_later]
}

/// A task that reports progress (a write of its record) every few
/// milliseconds until stopped, counting its ticks.
fn ticking(ticks: Arc<AtomicUsize>) -> ToolDef {
    tool("tick")
        .execution(ToolExecution::optional())
        .run(move |_: JsonObject, cx: ToolCallContext| {
            let ticks = ticks.clone();
            async move {
                while !cx.is_cancelled() {
                    let tick = ticks.fetch_add(1, Ordering::SeqCst);
                    let _ = cx.progress(tick as f64, None, None).await;
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                "stopped"
            }
        })
        .unwrap()
}

/// A replica serving over HTTP on loopback until dropped.
type Replica = Running;

/// Starts a replica on the current runtime, its tasks in `redis`.
async fn replica(redis_url: &str, stateless: bool, started: Arc<AtomicUsize>) -> Replica {
    replica_with(redis_url, HttpConfig::new().stateless(stateless), started).await
}

async fn replica_with(redis_url: &str, config: HttpConfig, started: Arc<AtomicUsize>) -> Replica {
    let store = RedisStore::connect(redis_url).await.expect("Redis answers");
    let server = Server::builder()
        .tools(tools(started.clone()))
        .tool(ticking(started))
        .store(store)
        .task_heartbeat(HEARTBEAT)
        .build()
        .unwrap();
    serve_http(server, config).await
}

/// A replica on a runtime of its own, as good as another process: dropping
/// the runtime ends everything it runs at once, like a killed process.
struct Process {
    url: String,
    kill: Option<std::sync::mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Process {
    fn start(redis_url: String, started: Arc<AtomicUsize>) -> Process {
        let (url_tx, url_rx) = std::sync::mpsc::channel();
        let (kill, killed) = std::sync::mpsc::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .enable_all()
                .build()
                .unwrap();
            let replica = runtime.block_on(replica(&redis_url, true, started));
            url_tx.send(replica.url.clone()).unwrap();
            let _ = killed.recv();
            // No graceful stop: the runtime and all it runs just end.
            std::mem::forget(replica);
            runtime.shutdown_background();
        });
        Process {
            url: url_rx.recv().expect("the replica starts"),
            kill: Some(kill),
            thread: Some(thread),
        }
    }

    fn kill(&mut self) {
        if let Some(kill) = self.kill.take() {
            let _ = kill.send(());
        }
        if let Some(thread) = self.thread.take() {
            thread.join().unwrap();
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A client of one replica: a 2025-11-25 session, or 2026-07-28 requests
/// with the tasks extension.
struct Client {
    http: reqwest::Client,
    url: String,
    session: Option<String>,
    modern: bool,
}

fn meta_with_tasks() -> Value {
    let mut meta = meta_2026();
    meta["io.modelcontextprotocol/clientCapabilities"] =
        json!({"extensions": {"io.modelcontextprotocol/tasks": {}}, "elicitation": {}});
    meta
}

impl Client {
    fn modern(url: &str) -> Client {
        Client {
            http: reqwest::Client::new(),
            url: url.to_owned(),
            session: None,
            modern: true,
        }
    }

    async fn session_2025(url: &str) -> Client {
        let mut client = Client {
            http: reqwest::Client::new(),
            url: url.to_owned(),
            session: None,
            modern: false,
        };
        let init = client
            .post(
                &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "t", "version": "0"}}}),
            )
            .await;
        let session = init
            .headers()
            .get("mcp-session-id")
            .expect("a session id")
            .to_str()
            .unwrap()
            .to_owned();
        message(init).await;
        client.session = Some(session);
        let initialized = client
            .post(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        assert_eq!(initialized.status(), 202);
        client
    }

    async fn post(&self, body: &Value) -> reqwest::Response {
        let mut request = self
            .http
            .post(&self.url)
            .header("accept", "application/json, text/event-stream")
            .json(body);
        if let Some(session) = &self.session {
            request = request
                .header("mcp-session-id", session)
                .header("mcp-protocol-version", "2025-11-25");
        }
        if self.modern {
            let method = body["method"].as_str().unwrap_or_default();
            request = request
                .header("mcp-protocol-version", "2026-07-28")
                .header("mcp-method", method);
            let name = match method {
                "tools/call" => body["params"]["name"].as_str(),
                _ => body["params"]["taskId"].as_str(),
            };
            if let Some(name) = name {
                request = request.header("mcp-name", name);
            }
        }
        request.send().await.expect("the replica answers")
    }

    /// The JSON-RPC reply to `method` with `params`.
    async fn request(&self, id: i64, method: &str, mut params: Value) -> Value {
        if self.modern {
            params["_meta"] = meta_with_tasks();
        }
        let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        message(self.post(&body).await).await
    }

    /// A `tools/call` of `name` with no arguments.
    async fn call(&self, id: i64, name: &str) -> Value {
        self.request(id, "tools/call", json!({"name": name, "arguments": {}}))
            .await
    }

    /// A 2025-11-25 `tools/call` of `name` as a task with `task` metadata.
    async fn call_as_task(&self, id: i64, name: &str, task: Value) -> Value {
        let params = json!({"name": name, "arguments": {}, "task": task});
        self.request(id, "tools/call", params).await
    }

    /// `method` (`tasks/get`, `tasks/result`, `tasks/cancel`) of `task_id`.
    async fn on_task(&self, id: i64, method: &str, task_id: &Value) -> Value {
        self.request(id, method, json!({"taskId": task_id})).await
    }

    /// Polls `tasks/get` until the task's status is one of `statuses`.
    async fn until_status(&self, task_id: &Value, statuses: &[&str]) -> Value {
        for id in 1000..1000 + POLLS {
            let got = self.on_task(id as i64, "tasks/get", task_id).await;
            let status = got["result"]["status"].as_str().unwrap_or_default();
            if statuses.contains(&status) {
                return got;
            }
            assert!(got.get("error").is_none(), "{got}");
            tokio::time::sleep(POLL).await;
        }
        panic!("task {task_id} never reached {statuses:?}");
    }
}

/// The JSON-RPC message of a response body (JSON, or the SSE event with an id).
async fn message(response: reqwest::Response) -> Value {
    let text = response.text().await.unwrap();
    if let Ok(message) = serde_json::from_str(&text) {
        return message;
    }
    sse_reply(&text)
}

async fn two_replicas(redis: &TestRedis, stateless: bool) -> (Replica, Replica) {
    let started = Arc::new(AtomicUsize::new(0));
    let a = replica(&redis.url(), stateless, started.clone()).await;
    let b = replica(&redis.url(), stateless, started).await;
    (a, b)
}

#[tokio::test]
async fn a_2026_task_started_on_one_replica_is_polled_to_completion_on_another() {
    let Some(redis) = TestRedis::start().await else {
        return;
    };
    let (a, b) = two_replicas(&redis, true).await;
    let created = Client::modern(&a.url).call(1, "brew").await;
    assert_eq!(created["result"]["resultType"], "task", "{created}");
    let task_id = created["result"]["taskId"].clone();
    let done = Client::modern(&b.url)
        .until_status(&task_id, &["completed", "failed", "cancelled"])
        .await;
    assert_eq!(done["result"]["status"], "completed", "{done}");
    assert_eq!(done["result"]["result"]["content"][0]["text"], "coffee");
}

#[tokio::test]
async fn a_2025_task_started_on_one_replica_is_read_and_its_result_awaited_on_another() {
    let Some(redis) = TestRedis::start().await else {
        return;
    };
    let (a, b) = two_replicas(&redis, false).await;
    let on_a = Client::session_2025(&a.url).await;
    let on_b = Client::session_2025(&b.url).await;
    let created = on_a.call_as_task(1, "brew", json!({"ttl": 60000})).await;
    let task_id = created["result"]["task"]["taskId"].clone();
    assert!(task_id.is_string(), "{created}");
    let got = on_b.on_task(2, "tasks/get", &task_id).await;
    assert_eq!(got["result"]["ttl"], 60000, "{got}");
    assert!(got["result"]["status"].is_string(), "{got}");
    // `tasks/result` on B waits for the end of the task A runs.
    let result = on_b.on_task(3, "tasks/result", &task_id).await;
    assert_eq!(result["result"]["content"][0]["text"], "coffee", "{result}");
    let got = on_b.on_task(4, "tasks/get", &task_id).await;
    assert_eq!(got["result"]["status"], "completed", "{got}");
}

#[tokio::test]
async fn a_sessions_tasks_are_listed_on_any_replica() {
    let Some(redis) = TestRedis::start().await else {
        return;
    };
    let (a, b) = two_replicas(&redis, false).await;
    let on_a = Client::session_2025(&a.url).await;
    // The same session, served by the other replica.
    let on_b = Client {
        http: reqwest::Client::new(),
        url: b.url.clone(),
        session: on_a.session.clone(),
        modern: false,
    };
    let stranger = Client::session_2025(&b.url).await;
    let mut created = Vec::new();
    for (id, name) in [(1, "brew"), (2, "wait_forever")] {
        let task = on_a.call_as_task(id, name, json!({})).await;
        created.push(task["result"]["task"]["taskId"].clone());
    }
    let other = stranger.call_as_task(3, "brew", json!({})).await;
    assert!(other["result"]["task"]["taskId"].is_string(), "{other}");
    let listed = on_b.request(4, "tasks/list", json!({})).await;
    let ids: Vec<Value> = listed["result"]["tasks"]
        .as_array()
        .unwrap_or_else(|| panic!("{listed}"))
        .iter()
        .map(|task| task["taskId"].clone())
        .collect();
    assert_eq!(ids, created, "{listed}");
    let result = on_b.on_task(5, "tasks/result", &created[0]).await;
    assert_eq!(result["result"]["content"][0]["text"], "coffee", "{result}");
    let cancelled = on_b.on_task(6, "tasks/cancel", &created[1]).await;
    assert_eq!(cancelled["result"]["status"], "cancelled", "{cancelled}");
    let listed = on_a.request(7, "tasks/list", json!({})).await;
    let statuses: Vec<&str> = listed["result"]["tasks"]
        .as_array()
        .unwrap_or_else(|| panic!("{listed}"))
        .iter()
        .filter_map(|task| task["status"].as_str())
        .collect();
    assert_eq!(statuses, ["completed", "cancelled"], "{listed}");
}

#[tokio::test]
async fn the_per_session_task_limit_counts_the_sessions_live_tasks_on_every_replica() {
    let Some(redis) = TestRedis::start().await else {
        return;
    };
    let started = Arc::new(AtomicUsize::new(0));
    let config = || HttpConfig::new().max_tasks_per_session(2);
    let a = replica_with(&redis.url(), config(), started.clone()).await;
    let b = replica_with(&redis.url(), config(), started).await;
    let on_a = Client::session_2025(&a.url).await;
    let on_b = Client {
        http: reqwest::Client::new(),
        url: b.url.clone(),
        session: on_a.session.clone(),
        modern: false,
    };
    let short = on_a.call_as_task(1, "brew", json!({"ttl": 1000})).await;
    assert!(short["result"]["task"]["taskId"].is_string(), "{short}");
    let long = on_b.call_as_task(2, "brew", json!({"ttl": 60000})).await;
    assert!(long["result"]["task"]["taskId"].is_string(), "{long}");
    let refused = on_a.call_as_task(3, "brew", json!({"ttl": 60000})).await;
    assert_eq!(refused["error"]["code"], -32000, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("keeps 2 tasks"), "{refused}");
    // Once the short task's record expires, its place is free again.
    for id in 4..4 + POLLS as i64 {
        let again = on_b.call_as_task(id, "brew", json!({"ttl": 60000})).await;
        if again["result"]["task"]["taskId"].is_string() {
            return;
        }
        assert_eq!(again["error"]["code"], -32000, "{again}");
        tokio::time::sleep(POLL).await;
    }
    panic!("the expired task still counted against the limit");
}

#[tokio::test]
async fn task_records_expire_in_redis_with_their_ttl() {
    let Some(redis) = TestRedis::start().await else {
        return;
    };
    let (a, b) = two_replicas(&redis, false).await;
    let on_a = Client::session_2025(&a.url).await;
    let on_b = Client::session_2025(&b.url).await;
    let created = on_a.call_as_task(1, "brew", json!({"ttl": 1500})).await;
    let task_id = created["result"]["task"]["taskId"].clone();
    let result = on_b.on_task(2, "tasks/result", &task_id).await;
    assert_eq!(result["result"]["content"][0]["text"], "coffee", "{result}");
    let client = redis::Client::open(redis.url()).unwrap();
    let connection = client.get_multiplexed_async_connection().await.unwrap();
    let pttl = |key: String| {
        let mut connection = connection.clone();
        async move {
            redis::cmd("PTTL")
                .arg(key)
                .query_async::<i64>(&mut connection)
                .await
                .unwrap()
        }
    };
    let record = pttl(format!("mcp:task:{}", task_id.as_str().unwrap())).await;
    assert!(
        record > 0 && record <= 1500,
        "the record's PTTL is {record}"
    );
    let session = on_a.session.clone().unwrap();
    let index = pttl(format!("mcp:tasks:{session}")).await;
    assert!(index > 0 && index <= 1500, "the index's PTTL is {index}");
    let replicas: Vec<String> = redis::cmd("KEYS")
        .arg("mcp:replica:*")
        .query_async(&mut connection.clone())
        .await
        .unwrap();
    assert_eq!(replicas.len(), 2, "{replicas:?}");
    for replica in replicas {
        let beat = pttl(replica).await;
        assert!(beat > 0 && beat <= 600, "a heartbeat's PTTL is {beat}");
    }
    for id in 3..3 + POLLS as i64 {
        let got = on_b.on_task(id, "tasks/get", &task_id).await;
        if got["error"]["code"] == -32602 {
            return;
        }
        assert_eq!(got["result"]["status"], "completed", "{got}");
        tokio::time::sleep(POLL).await;
    }
    panic!("the task record never expired");
}

#[tokio::test]
async fn a_task_running_on_one_replica_is_cancelled_through_another() {
    let Some(redis) = TestRedis::start().await else {
        return;
    };
    let (a, b) = two_replicas(&redis, false).await;
    let on_a = Client::session_2025(&a.url).await;
    let on_b = Client::session_2025(&b.url).await;
    let created = on_a.call_as_task(1, "wait_forever", json!({})).await;
    let task_id = created["result"]["task"]["taskId"].clone();
    let cancelled = on_b.on_task(2, "tasks/cancel", &task_id).await;
    assert_eq!(cancelled["result"]["status"], "cancelled", "{cancelled}");
    let got = on_a.on_task(3, "tasks/get", &task_id).await;
    assert_eq!(got["result"]["status"], "cancelled", "{got}");
    let again = on_b.on_task(4, "tasks/cancel", &task_id).await;
    assert_eq!(again["error"]["code"], -32602, "{again}");
}

#[tokio::test]
async fn a_2026_question_of_a_task_on_one_replica_is_answered_through_another() {
    let Some(redis) = TestRedis::start().await else {
        return;
    };
    let (a, b) = two_replicas(&redis, true).await;
    let created = Client::modern(&a.url).call(1, "ask_name").await;
    let task_id = created["result"]["taskId"].clone();
    let on_b = Client::modern(&b.url);
    let asking = on_b.until_status(&task_id, &["input_required"]).await;
    assert_eq!(
        asking["result"]["inputRequests"]["name"]["method"], "elicitation/create",
        "{asking}"
    );
    let updated = on_b
        .request(
            2,
            "tasks/update",
            json!({"taskId": task_id, "inputResponses": {
                "name": {"action": "accept", "content": {"name": "Ada"}}}}),
        )
        .await;
    assert!(updated.get("error").is_none(), "{updated}");
    let done = Client::modern(&a.url)
        .until_status(&task_id, &["completed", "failed", "cancelled"])
        .await;
    assert_eq!(
        done["result"]["result"]["content"][0]["text"], "hello Ada",
        "{done}"
    );
}

#[tokio::test]
async fn a_2026_input_round_begun_on_one_replica_is_finished_on_another() {
    let Some(redis) = TestRedis::start().await else {
        return;
    };
    let (a, b) = two_replicas(&redis, true).await;
    let round_1 = Client::modern(&a.url).call(1, "greet_later").await;
    assert_eq!(
        round_1["result"]["resultType"], "input_required",
        "{round_1}"
    );
    let state = round_1["result"]["requestState"].clone();
    // Sealed with the secret the replicas share in Redis (HMAC-SHA256), not
    // with a key of A's own.
    let tag = state.as_str().and_then(|state| state.rsplit_once('.'));
    assert_eq!(tag.map(|(_, tag)| tag.len()), Some(64), "{round_1}");
    let client = redis::Client::open(redis.url()).unwrap();
    let mut connection = client.get_multiplexed_async_connection().await.unwrap();
    let secret: Option<String> = redis::cmd("GET")
        .arg("mcp:request-state-key")
        .query_async(&mut connection)
        .await
        .unwrap();
    assert_eq!(secret.map(|secret| secret.len()), Some(64));
    let on_b = Client::modern(&b.url);
    let round_2 = on_b
        .request(
            2,
            "tools/call",
            json!({"name": "greet_later", "arguments": {}, "requestState": state,
                "inputResponses": {"user_name": {"action": "accept", "content": {"name": "Ada"}}}}),
        )
        .await;
    assert_eq!(round_2["result"]["resultType"], "task", "{round_2}");
    let done = on_b
        .until_status(&round_2["result"]["taskId"], &["completed", "failed"])
        .await;
    assert_eq!(
        done["result"]["result"]["content"][0]["text"], "later, Ada",
        "{done}"
    );
    // A state that was tampered with is refused on every replica.
    let forged = format!("{}0", state.as_str().unwrap_or_default());
    let refused = on_b
        .request(
            3,
            "tools/call",
            json!({"name": "greet_later", "arguments": {}, "requestState": forged}),
        )
        .await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
}

#[tokio::test]
async fn a_task_whose_replica_died_is_reported_failed_and_never_run_again() {
    let Some(redis) = TestRedis::start().await else {
        return;
    };
    let started = Arc::new(AtomicUsize::new(0));
    let mut a = Process::start(redis.url(), started.clone());
    let b = replica(&redis.url(), true, started.clone()).await;
    let created = Client::modern(&a.url).call(1, "wait_forever").await;
    let task_id = created["result"]["taskId"].clone();
    let on_b = Client::modern(&b.url);
    let got = on_b.on_task(2, "tasks/get", &task_id).await;
    assert_eq!(got["result"]["status"], "working", "{got}");
    a.kill();
    let failed = on_b.until_status(&task_id, &["failed"]).await;
    let message = failed["result"]["statusMessage"]
        .as_str()
        .unwrap_or_default();
    assert!(message.contains("stopped"), "{failed}");
    assert_eq!(failed["result"]["error"]["code"], -32603, "{failed}");
    // Failed for good, and the tool ran once.
    let again = on_b.on_task(3, "tasks/get", &task_id).await;
    assert_eq!(again["result"]["status"], "failed", "{again}");
    assert_eq!(started.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_replica_taken_for_dead_stops_the_task_the_others_failed() {
    let Some(redis) = TestRedis::start().await else {
        return;
    };
    let ticks = Arc::new(AtomicUsize::new(0));
    let a = replica(&redis.url(), true, ticks.clone()).await;
    let b = replica(&redis.url(), true, Arc::new(AtomicUsize::new(0))).await;
    let mut meta = meta_with_tasks();
    meta["progressToken"] = json!("p1");
    let created = Client::modern(&a.url)
        .post(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "tick", "arguments": {}, "_meta": meta}}))
        .await;
    let created = message(created).await;
    let task_id = created["result"]["taskId"].clone();
    assert!(task_id.is_string(), "{created}");
    // A's heartbeats vanish (as if A stalled past its TTL): B fails the task.
    let client = redis::Client::open(redis.url()).unwrap();
    let mut connection = client.get_multiplexed_async_connection().await.unwrap();
    let on_b = Client::modern(&b.url);
    let mut failed = None;
    for id in 2..2 + POLLS as i64 {
        let beats: Vec<String> = redis::cmd("KEYS")
            .arg("mcp:replica:*")
            .query_async(&mut connection)
            .await
            .unwrap();
        let _: () = redis::cmd("DEL")
            .arg(beats)
            .query_async(&mut connection)
            .await
            .unwrap();
        let got = on_b.on_task(id, "tasks/get", &task_id).await;
        if got["result"]["status"] == "failed" {
            failed = Some(got);
            break;
        }
    }
    let failed = failed.expect("B failed the task");
    assert!(
        failed["result"]["statusMessage"]
            .as_str()
            .is_some_and(|message| message.contains("stopped")),
        "{failed}"
    );
    // A's next write finds the end in the store: A stops ticking, and the
    // task stays failed wherever it is read.
    let mut stopped = false;
    let mut last = ticks.load(Ordering::SeqCst);
    for _ in 0..POLLS {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let now = ticks.load(Ordering::SeqCst);
        if now == last {
            stopped = true;
            break;
        }
        last = now;
    }
    assert!(stopped, "A kept running the failed task");
    let on_a = Client::modern(&a.url)
        .on_task(900, "tasks/get", &task_id)
        .await;
    assert_eq!(on_a["result"]["status"], "failed", "{on_a}");
}

#[tokio::test]
async fn without_redis_a_task_request_is_a_jsonrpc_error_until_redis_returns() {
    let Some(mut redis) = TestRedis::start().await else {
        return;
    };
    let started = Arc::new(AtomicUsize::new(0));
    let a = replica(&redis.url(), true, started).await;
    let client = Client::modern(&a.url);
    redis.stop();
    let refused = client.call(1, "brew").await;
    assert_eq!(refused["error"]["code"], -32603, "{refused}");
    let why = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(why.contains("task store"), "{refused}");
    let unknown = client.on_task(2, "tasks/get", &json!("no-such-task")).await;
    assert!(
        unknown["error"]["message"]
            .as_str()
            .is_some_and(|why| why.contains("task store")),
        "{unknown}"
    );
    redis.restart().await;
    for id in 3..3 + POLLS as i64 {
        let created = client.call(id, "brew").await;
        if created["result"]["resultType"] == "task" {
            let done = client
                .until_status(&created["result"]["taskId"], &["completed"])
                .await;
            assert_eq!(done["result"]["result"]["content"][0]["text"], "coffee");
            return;
        }
        tokio::time::sleep(POLL).await;
    }
    panic!("tasks never started again after Redis returned");
}
