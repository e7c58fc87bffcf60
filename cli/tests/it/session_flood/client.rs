//! The pieces the flood tests and the soak run share: a 2025-11-25 client
//! that initializes again when its session answers 404 (as the
//! specification tells clients to), a flood of `initialize` requests never
//! followed up, percentiles, and a process's resident set size.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The `initialize` request of a 2025-11-25 client.
pub(crate) fn initialize(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "flood-test", "version": "0"}}})
}

/// A POST with the headers Streamable HTTP requires, in `session` if given.
pub(crate) fn post(
    http: &reqwest::Client,
    url: &str,
    session: Option<&str>,
) -> reqwest::RequestBuilder {
    let request = http
        .post(url)
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json");
    match session {
        Some(session) => request
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", "2025-11-25"),
        None => request,
    }
}

/// The JSON-RPC message answering request `id` in a JSON or SSE body.
pub(crate) fn reply(body: &str, id: i64) -> Option<Value> {
    let answers = |message: &Value| message["id"] == json!(id);
    if let Ok(message) = serde_json::from_str::<Value>(body) {
        return answers(&message).then_some(message);
    }
    body.split("\n\n")
        .filter_map(|event| {
            let data: Vec<&str> = event
                .lines()
                .filter_map(|line| line.strip_prefix("data:"))
                .map(str::trim_start)
                .collect();
            serde_json::from_str::<Value>(&data.join("\n")).ok()
        })
        .find(answers)
}

/// A client session that initializes again when the server ended it.
#[derive(Debug)]
pub(crate) struct Session {
    http: reqwest::Client,
    url: String,
    id: Option<String>,
    next: i64,
    /// How often the server ended the session (404) and it initialized again.
    pub(crate) reinitialized: u64,
}

impl Session {
    /// Initializes a session at `url`.
    pub(crate) async fn open(http: reqwest::Client, url: &str) -> Result<Self, String> {
        let mut session = Self {
            http,
            url: url.to_owned(),
            id: None,
            next: 1,
            reinitialized: 0,
        };
        session.initialize().await?;
        Ok(session)
    }

    /// The session's id.
    pub(crate) fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    async fn initialize(&mut self) -> Result<(), String> {
        let reply = post(&self.http, &self.url, None)
            .json(&initialize(0))
            .send()
            .await
            .map_err(|error| format!("initialize: {error}"))?;
        let status = reply.status();
        let id = reply
            .headers()
            .get("mcp-session-id")
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned);
        let body = reply.text().await.map_err(|error| error.to_string())?;
        let (200, Some(id)) = (status.as_u16(), id) else {
            return Err(format!("initialize answered {status}: {body}"));
        };
        let answer = reply_of(&body, 0)?;
        if answer.get("result").is_none() {
            return Err(format!("initialize failed: {answer}"));
        }
        let initialized = post(&self.http, &self.url, Some(&id))
            .json(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .send()
            .await
            .map_err(|error| format!("notifications/initialized: {error}"))?;
        // A flood may end the new session before this notification lands.
        if ![202, 404].contains(&initialized.status().as_u16()) {
            return Err(format!(
                "notifications/initialized answered {}",
                initialized.status()
            ));
        }
        self.id = Some(id);
        Ok(())
    }

    /// Sends `method` and returns its result; a session the server ended
    /// (404) initializes again and sends it once more, a few times at most.
    pub(crate) async fn request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        for _ in 0..5 {
            if self.id.is_none() {
                self.initialize().await?;
            }
            let id = self.next;
            self.next += 1;
            let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
            let reply = post(&self.http, &self.url, self.id.as_deref())
                .json(&message)
                .send()
                .await
                .map_err(|error| format!("{method}: {error}"))?;
            let status = reply.status().as_u16();
            let body = reply.text().await.map_err(|error| error.to_string())?;
            match status {
                200 => {
                    let answer = reply_of(&body, id)?;
                    return match answer.get("result") {
                        Some(result) => Ok(result.clone()),
                        None => Err(format!("{method} failed: {answer}")),
                    };
                }
                404 => {
                    self.id = None;
                    self.reinitialized += 1;
                }
                _ => return Err(format!("{method} answered {status}: {body}")),
            }
        }
        Err(format!("{method}: the session kept being ended"))
    }

    /// Calls tool `name`; a result with `isError` is an error.
    pub(crate) async fn call_tool(
        &mut self,
        name: &str,
        arguments: Value,
    ) -> Result<Value, String> {
        let result = self
            .request("tools/call", json!({"name": name, "arguments": arguments}))
            .await?;
        if result["isError"] == json!(true) {
            return Err(format!("{name} failed: {result}"));
        }
        Ok(result)
    }

    /// Ends the session with `DELETE`.
    pub(crate) async fn close(self) -> Result<(), String> {
        let Some(id) = &self.id else { return Ok(()) };
        let ended = self
            .http
            .delete(&self.url)
            .header("mcp-session-id", id)
            .header("mcp-protocol-version", "2025-11-25")
            .send()
            .await
            .map_err(|error| format!("DELETE: {error}"))?;
        match ended.status().as_u16() {
            200..=299 | 404 => Ok(()),
            status => Err(format!("DELETE answered {status}")),
        }
    }
}

fn reply_of(body: &str, id: i64) -> Result<Value, String> {
    reply(body, id).ok_or_else(|| format!("no answer to request {id} in {body}"))
}

/// What a flood of `initialize` requests got.
#[derive(Debug, Default)]
pub(crate) struct Flood {
    /// Answered 200 with a session.
    pub(crate) accepted: u64,
    /// Answered 503.
    pub(crate) refused: u64,
    /// Anything else, and the first such answer.
    pub(crate) failed: u64,
    pub(crate) first_failure: Option<String>,
    /// The ids of the first sessions opened, in order.
    pub(crate) first_ids: Vec<String>,
    pub(crate) elapsed: Duration,
}

/// Sends `count` `initialize` requests, `concurrency` at a time, from one
/// client, reading each answer and never using the sessions.
pub(crate) async fn flood(url: &str, count: u64, concurrency: u64) -> Flood {
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(concurrency as usize)
        .build()
        .expect("an HTTP client");
    let next = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let workers: Vec<_> = (0..concurrency)
        .map(|_| {
            let (http, url, next) = (http.clone(), url.to_owned(), next.clone());
            tokio::spawn(async move {
                let mut flood = Flood::default();
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= count {
                        return flood;
                    }
                    let sent = post(&http, &url, None)
                        .json(&initialize(index))
                        .send()
                        .await;
                    let reply = match sent {
                        Ok(reply) => reply,
                        Err(error) => {
                            flood.failed += 1;
                            flood.first_failure.get_or_insert(error.to_string());
                            continue;
                        }
                    };
                    let status = reply.status().as_u16();
                    let id = reply
                        .headers()
                        .get("mcp-session-id")
                        .and_then(|value| value.to_str().ok())
                        .map(str::to_owned);
                    let _ = reply.bytes().await;
                    match (status, id) {
                        (200, Some(id)) => {
                            flood.accepted += 1;
                            if index < 16 {
                                flood.first_ids.push(id);
                            }
                        }
                        (503, _) => flood.refused += 1,
                        (status, _) => {
                            flood.failed += 1;
                            flood
                                .first_failure
                                .get_or_insert(format!("initialize answered {status}"));
                        }
                    }
                }
            })
        })
        .collect();
    let mut total = Flood::default();
    for worker in workers {
        let flood = worker.await.expect("a flood worker ends");
        total.accepted += flood.accepted;
        total.refused += flood.refused;
        total.failed += flood.failed;
        if total.first_failure.is_none() {
            total.first_failure = flood.first_failure;
        }
        total.first_ids.extend(flood.first_ids);
    }
    total.elapsed = started.elapsed();
    total
}

/// The status of a `ping` in session `id`.
pub(crate) async fn ping(http: &reqwest::Client, url: &str, id: &str) -> u16 {
    let reply = post(http, url, Some(id))
        .json(&json!({"jsonrpc": "2.0", "id": 9, "method": "ping"}))
        .send()
        .await
        .expect("the server answers");
    let status = reply.status().as_u16();
    let _ = reply.bytes().await;
    status
}

/// The value at `fraction` (0 to 1) of sorted `values`.
pub(crate) fn percentile(values: &[Duration], fraction: f64) -> Duration {
    if values.is_empty() {
        return Duration::ZERO;
    }
    let rank = (fraction * (values.len() - 1) as f64).round() as usize;
    values[rank.min(values.len() - 1)]
}

/// The resident set size of process `pid` in KiB, from `/proc`.
pub(crate) fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
}
