//! The soak run of `cargo xtask soak [SECS]`: mixed calls over HTTP against
//! the release `mcp-server demo` for a bounded time, its resident set size
//! sampled every few seconds. Steady clients hold a session each and call
//! the demo's tools (`add`, `countdown`, `listPets`, `showPetById`) with a
//! `tools/list` now and then; churning clients open a session, list and
//! call, and end it with `DELETE`, every tenth abandoning one unused
//! instead (the unused grace ends those).
//!
//! `MCP_SOAK_SECONDS` (600) and `MCP_SOAK_CLIENTS` (8 steady, plus 2
//! churning); the table goes to stdout and to `MCP_SOAK_REPORT` if set.
//! RSS "at start" is taken once the load has run for a fifth of the time
//! (at most 90 s): past the 60 s grace of never-used sessions, so that the
//! abandoned ones have reached their steady number and the allocator its
//! working size; the RSS of the idle server before the load is shown too.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::client::{Session, percentile, post, rss_kib};
use super::load::{demo, setting};

/// How often the RSS is sampled.
const SAMPLE_EVERY: Duration = Duration::from_secs(5);

/// Counts shared by the clients.
#[derive(Debug, Default)]
struct Counts {
    calls: AtomicU64,
    errors: AtomicU64,
    sessions: AtomicU64,
    abandoned: AtomicU64,
    reinitialized: AtomicU64,
    first_error: std::sync::Mutex<Option<String>>,
}

impl Counts {
    fn error(&self, error: String) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        let mut first = self.first_error.lock().unwrap();
        if first.is_none() {
            eprintln!("first soak error: {error}");
            *first = Some(error);
        }
    }
}

/// One of the demo's tools with arguments, and a check of its result.
fn mixed_call(step: u64) -> (&'static str, Value, fn(&Value, u64) -> bool) {
    match step % 4 {
        0 => ("add", json!({"a": step, "b": 1}), |result, step| {
            result["structuredContent"]["result"] == json!(step + 1)
        }),
        1 => ("countdown", json!({"from": 3}), |result, _| {
            result["structuredContent"]["steps"] == json!(3)
        }),
        2 => ("listPets", json!({"limit": 2}), |result, _| {
            result.to_string().contains("Rex")
        }),
        _ => ("showPetById", json!({"petId": "2"}), |result, _| {
            result.to_string().contains("Tom")
        }),
    }
}

/// Calls one mixed tool (or `tools/list` every 20 steps) in `session`,
/// timing it.
async fn step(session: &mut Session, step: u64, counts: &Counts) -> Option<Duration> {
    let started = Instant::now();
    let outcome = if step.is_multiple_of(20) {
        session
            .request("tools/list", json!({}))
            .await
            .and_then(|result| match result["tools"].as_array() {
                Some(tools) if tools.len() >= 5 => Ok(()),
                _ => Err(format!("tools/list gave {result}")),
            })
    } else {
        let (name, arguments, check) = mixed_call(step);
        session
            .call_tool(name, arguments)
            .await
            .and_then(|result| match check(&result, step) {
                true => Ok(()),
                false => Err(format!("{name} gave {result}")),
            })
    };
    counts.calls.fetch_add(1, Ordering::Relaxed);
    match outcome {
        Ok(()) => Some(started.elapsed()),
        Err(error) => {
            counts.error(error);
            None
        }
    }
}

/// A client holding one session until `deadline`.
async fn steady(url: String, deadline: Instant, counts: Arc<Counts>) -> Vec<Duration> {
    let mut latencies = Vec::new();
    let mut session = match Session::open(reqwest::Client::new(), &url).await {
        Ok(session) => session,
        Err(error) => {
            counts.error(error);
            return latencies;
        }
    };
    counts.sessions.fetch_add(1, Ordering::Relaxed);
    let mut n = 0;
    while Instant::now() < deadline {
        latencies.extend(step(&mut session, n, &counts).await);
        n += 1;
    }
    counts
        .reinitialized
        .fetch_add(session.reinitialized, Ordering::Relaxed);
    if let Err(error) = session.close().await {
        counts.error(error);
    }
    latencies
}

/// A client opening short sessions until `deadline`: three requests, then
/// `DELETE`; every tenth is abandoned right after `initialize`.
async fn churn(url: String, deadline: Instant, counts: Arc<Counts>) -> Vec<Duration> {
    let http = reqwest::Client::new();
    let mut latencies = Vec::new();
    let mut n = 0u64;
    while Instant::now() < deadline {
        n += 1;
        if n.is_multiple_of(10) {
            let opened = post(&http, &url, None)
                .json(&super::client::initialize(n))
                .send()
                .await;
            match opened {
                Ok(reply) if reply.status() == 200 => {
                    let _ = reply.bytes().await;
                    counts.abandoned.fetch_add(1, Ordering::Relaxed);
                }
                Ok(reply) => counts.error(format!("initialize answered {}", reply.status())),
                Err(error) => counts.error(error.to_string()),
            }
            continue;
        }
        let mut session = match Session::open(http.clone(), &url).await {
            Ok(session) => session,
            Err(error) => {
                counts.error(error);
                continue;
            }
        };
        counts.sessions.fetch_add(1, Ordering::Relaxed);
        for k in 0..3 {
            latencies.extend(step(&mut session, n * 3 + k, &counts).await);
        }
        counts
            .reinitialized
            .fetch_add(session.reinitialized, Ordering::Relaxed);
        if let Err(error) = session.close().await {
            counts.error(error);
        }
    }
    latencies
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "a soak run of ten minutes: `cargo xtask soak [SECS]`"]
async fn soak_of_the_release_binary() {
    let seconds = setting("MCP_SOAK_SECONDS", 600);
    let clients = setting("MCP_SOAK_CLIENTS", 8) as usize;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let log = dir.path().join("soak.log");
    let server = demo(&log, &[]);
    let pid = server.child.id();
    let counts = Arc::new(Counts::default());
    let started = Instant::now();
    let deadline = started + Duration::from_secs(seconds);
    let mut runs = Vec::new();
    for _ in 0..clients {
        runs.push(tokio::spawn(steady(
            server.url.clone(),
            deadline,
            counts.clone(),
        )));
    }
    for _ in 0..2 {
        runs.push(tokio::spawn(churn(
            server.url.clone(),
            deadline,
            counts.clone(),
        )));
    }
    let mut samples: Vec<(Duration, u64)> = Vec::new();
    while Instant::now() < deadline {
        if let Some(kib) = rss_kib(pid) {
            let at = started.elapsed();
            eprintln!(
                "{:>5.0} s  RSS {:>6.1} MiB  calls {}  errors {}",
                at.as_secs_f64(),
                kib as f64 / 1024.0,
                counts.calls.load(Ordering::Relaxed),
                counts.errors.load(Ordering::Relaxed)
            );
            samples.push((at, kib));
        }
        let left = deadline.saturating_duration_since(Instant::now());
        tokio::time::sleep(SAMPLE_EVERY.min(left)).await;
    }
    let mut latencies = Vec::new();
    for run in runs {
        latencies.extend(run.await.expect("a soak client ends"));
    }
    let elapsed = started.elapsed();
    if let Some(kib) = rss_kib(pid) {
        samples.push((elapsed, kib));
    }
    drop(server);
    latencies.sort();

    let warm_up = (Duration::from_secs(seconds) / 5).min(Duration::from_secs(90));
    let at = |time: Duration| {
        samples
            .iter()
            .min_by_key(|(at, _)| at.abs_diff(time))
            .map(|(at, kib)| (*at, *kib))
            .expect("RSS samples")
    };
    let idle = samples.first().map_or(0, |(_, kib)| *kib);
    let (start_at, start) = at(warm_up);
    let (middle_at, middle) = at(elapsed / 2);
    let (end_at, end) = *samples.last().expect("RSS samples");
    let max = samples
        .iter()
        .filter(|(at, _)| *at >= start_at)
        .map(|(_, kib)| *kib)
        .max()
        .unwrap_or(end);
    let mib = |kib: u64| kib as f64 / 1024.0;
    let growth = (end as f64 / start as f64 - 1.0) * 100.0;
    let calls = counts.calls.load(Ordering::Relaxed);
    let errors = counts.errors.load(Ordering::Relaxed);
    let table = format!(
        "| seconds | steady + churning clients | calls | calls/s | errors | sessions opened (abandoned) | re-initializations (404) | p50 ms | p99 ms | RSS idle MiB | RSS start MiB (at s) | RSS middle MiB (at s) | RSS end MiB (at s) | max after start MiB | end / start |\n\
         |---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n\
         | {:.0} | {clients} + 2 | {calls} | {:.0} | {errors} | {} ({}) | {} | {:.1} | {:.1} | {:.1} | {:.1} ({:.0}) | {:.1} ({:.0}) | {:.1} ({:.0}) | {:.1} | {:+.1} % |\n",
        elapsed.as_secs_f64(),
        calls as f64 / elapsed.as_secs_f64(),
        counts.sessions.load(Ordering::Relaxed) + counts.abandoned.load(Ordering::Relaxed),
        counts.abandoned.load(Ordering::Relaxed),
        counts.reinitialized.load(Ordering::Relaxed),
        percentile(&latencies, 0.5).as_secs_f64() * 1000.0,
        percentile(&latencies, 0.99).as_secs_f64() * 1000.0,
        mib(idle),
        mib(start),
        start_at.as_secs_f64(),
        mib(middle),
        middle_at.as_secs_f64(),
        mib(end),
        end_at.as_secs_f64(),
        mib(max),
        growth,
    );
    let series: Vec<String> = samples
        .iter()
        .map(|(at, kib)| format!("{:.0}:{:.1}", at.as_secs_f64(), mib(*kib)))
        .collect();
    println!("{table}\nRSS samples (s:MiB): {}", series.join(" "));
    if let Some(path) = std::env::var_os("MCP_SOAK_REPORT") {
        std::fs::write(&path, &table).expect("the soak report is written");
    }
    assert_eq!(
        errors,
        0,
        "the soak run had errors, the first: {:?}",
        counts.first_error.lock().unwrap()
    );
    assert!(calls > 0, "no call was made");
    assert!(
        mib(max) <= mib(start) * 1.10,
        "RSS grew beyond 10 % of its start ({:.1} -> max {:.1} MiB)",
        mib(start),
        mib(max)
    );
}
