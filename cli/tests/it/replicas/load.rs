//! A bounded load test: many concurrent clients call `add` through nginx
//! for a fixed time; calls per second, latency percentiles and errors per
//! cluster shape. `cargo xtask load` runs the full one (ignored here) and
//! writes its table into `BENCHMARKS.md`; a one-second smoke run is a test.

use std::time::{Duration, Instant};

use serde_json::json;

use super::cluster::{Cluster, Nginx, Sharing};
use super::raw::{McpHttp, Version};

/// One cluster shape under load.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shape {
    /// How many replicas sit behind nginx.
    pub(crate) replicas: usize,
    /// What the clients speak.
    pub(crate) version: Version,
    /// How the replicas share state.
    pub(crate) sharing: Sharing,
}

/// What a load run measured.
#[derive(Debug)]
pub(crate) struct Figures {
    shape: Shape,
    clients: usize,
    elapsed: Duration,
    latencies: Vec<Duration>,
    errors: usize,
    first_error: Option<String>,
}

impl Figures {
    fn percentile(&self, fraction: f64) -> Duration {
        if self.latencies.is_empty() {
            return Duration::ZERO;
        }
        let rank = (fraction * (self.latencies.len() - 1) as f64).round() as usize;
        self.latencies[rank.min(self.latencies.len() - 1)]
    }

    /// One markdown table row.
    fn row(&self) -> String {
        let state = match self.shape.sharing {
            Sharing::Stateless => "`--stateless`",
            Sharing::Redis => "`--state redis://`",
        };
        format!(
            "| {} | {} | {state} | {} | {:.1} | {} | {:.0} | {:.1} | {:.1} | {} |",
            self.shape.replicas,
            self.shape.version.as_str(),
            self.clients,
            self.elapsed.as_secs_f64(),
            self.latencies.len(),
            self.latencies.len() as f64 / self.elapsed.as_secs_f64(),
            self.percentile(0.5).as_secs_f64() * 1000.0,
            self.percentile(0.99).as_secs_f64() * 1000.0,
            self.errors,
        )
    }
}

/// The table's header.
const HEADER: &str = "| replicas | protocol | state | clients | seconds | calls | calls/s | p50 ms | p99 ms | errors |\n\
                      |---:|---|---|---:|---:|---:|---:|---:|---:|---:|";

/// One client: connects (a 2025-11-25 session or none), then calls `add`
/// until `deadline`, checking every sum. Returns the latencies of the
/// calls that succeeded, the error count and the first error.
async fn client(
    http: reqwest::Client,
    url: String,
    version: Version,
    deadline: Instant,
    seed: i64,
) -> (Vec<Duration>, usize, Option<String>) {
    let (mut latencies, mut errors, mut first_error) = (Vec::new(), 0, None);
    let mut client = match McpHttp::connect(http, &url, version).await {
        Ok(client) => client,
        Err(error) => return (latencies, 1, Some(error)),
    };
    let mut a = seed;
    while Instant::now() < deadline {
        let started = Instant::now();
        let outcome = client
            .call_tool("add", json!({"a": a, "b": 1}))
            .await
            .and_then(
                |result| match result["structuredContent"]["result"].as_i64() {
                    Some(sum) if sum == a + 1 => Ok(()),
                    _ => Err(format!("add({a}, 1) gave {result}")),
                },
            );
        match outcome {
            Ok(()) => latencies.push(started.elapsed()),
            Err(error) => {
                errors += 1;
                first_error.get_or_insert(error);
            }
        }
        a += 1;
    }
    (latencies, errors, first_error)
}

/// Starts a cluster of `shape` and runs `clients` clients for `duration`.
/// `None` when the shape needs a `redis-server` there is not.
pub(crate) async fn measure(
    nginx: &Nginx,
    shape: Shape,
    clients: usize,
    duration: Duration,
) -> Option<Figures> {
    let cluster = Cluster::start(nginx, shape.replicas, shape.sharing).await?;
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(clients)
        .build()
        .expect("an HTTP client");
    let started = Instant::now();
    let deadline = started + duration;
    let runs: Vec<_> = (0..clients)
        .map(|index| {
            tokio::spawn(client(
                http.clone(),
                cluster.url.clone(),
                shape.version,
                deadline,
                index as i64 * 1_000_000,
            ))
        })
        .collect();
    let mut figures = Figures {
        shape,
        clients,
        elapsed: Duration::ZERO,
        latencies: Vec::new(),
        errors: 0,
        first_error: None,
    };
    for run in runs {
        let (latencies, errors, first_error) = run.await.expect("a load client ends");
        figures.latencies.extend(latencies);
        figures.errors += errors;
        if figures.first_error.is_none() {
            figures.first_error = first_error;
        }
    }
    figures.elapsed = started.elapsed();
    figures.latencies.sort();
    if let Some(error) = &figures.first_error {
        eprintln!("first error of {shape:?}: {error}\n{}", cluster.logs());
    }
    Some(figures)
}

/// The shapes of the full run: 1 and 3 replicas, stateless 2026-07-28
/// and 2025-11-25 sessions in Redis.
fn shapes() -> Vec<Shape> {
    let mut shapes = Vec::new();
    for (version, sharing) in [
        (Version::V2026, Sharing::Stateless),
        (Version::V2025, Sharing::Redis),
    ] {
        for replicas in [1, 3] {
            shapes.push(Shape {
                replicas,
                version,
                sharing,
            });
        }
    }
    shapes
}

fn setting(variable: &str, default: u64) -> u64 {
    std::env::var(variable)
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(default)
}

/// The full load run: `MCP_LOAD_CLIENTS` clients (64) for `MCP_LOAD_SECONDS`
/// (10) per shape; the table goes to stdout and to `MCP_LOAD_REPORT` when set.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "a load run of about a minute: `cargo xtask load`"]
async fn load_through_nginx() {
    let Some(nginx) = Nginx::find_or_skip("the load test") else {
        return;
    };
    let clients = setting("MCP_LOAD_CLIENTS", 64) as usize;
    let duration = Duration::from_secs(setting("MCP_LOAD_SECONDS", 10));
    let mut table = format!("{HEADER}\n");
    let mut errors = 0;
    for shape in shapes() {
        let Some(figures) = measure(&nginx, shape, clients, duration).await else {
            continue;
        };
        errors += figures.errors;
        println!("{}", figures.row());
        table.push_str(&figures.row());
        table.push('\n');
    }
    println!("{table}");
    if let Some(path) = std::env::var_os("MCP_LOAD_REPORT") {
        std::fs::write(&path, &table).expect("the load report is written");
    }
    assert_eq!(errors, 0, "the load run had errors (see above)");
}

/// A one-second run through three replicas per protocol generation: every
/// call succeeds.
#[tokio::test(flavor = "multi_thread")]
async fn load_smoke_through_nginx_has_no_errors() {
    let Some(nginx) = Nginx::find_or_skip("the load smoke test") else {
        return;
    };
    for shape in shapes().into_iter().filter(|shape| shape.replicas == 3) {
        let Some(figures) = measure(&nginx, shape, 8, Duration::from_secs(1)).await else {
            continue;
        };
        assert_eq!(figures.errors, 0, "{shape:?}: {:?}", figures.first_error);
        assert!(
            !figures.latencies.is_empty(),
            "{shape:?}: no call succeeded"
        );
    }
}
