//! Code mode's own costs, over a real client session (rmcp client, in-memory
//! duplex, as `roundtrip.rs`), against direct `tools/call` requests to the
//! same trivial hand-written tool on the same server, interleaved rounds
//! (medians):
//!
//! - sandbox start: `execute` of `return 1` vs one direct `tools/call`; the
//!   difference is what a run costs before its first tool call (the same
//!   pair is also timed through `call_detached`, without a session);
//! - N tool calls from one script (N = 10 and 100; sequential `await`s in a
//!   loop, and `Promise.all`) vs the same N direct `tools/call` requests made
//!   one after another by the client.
//!
//! Each is measured twice: back to back (every sample right after the one
//! before), and paced as a model's turns are (every sample, direct or
//! script, after a pause in which the sandboxes made ahead are ready).
//!
//! `cargo bench -p mcp-toolkit-server --bench code_mode --features code-mode`
//! prints one JSON line per measurement. Without `--bench` (as
//! `cargo test --benches` runs it) it is a smoke test: each script once,
//! its answer checked, nothing timed or asserted about time.

use std::time::{Duration, Instant};

use mcp_server::{CodeMode, Server};
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

/// The tool's arguments.
#[derive(Debug, Deserialize, JsonSchema)]
struct SumArgs {
    a: i64,
    b: i64,
}

type Client = RunningService<RoleClient, ()>;

/// The trivial hand-written tool of `roundtrip.rs`, served in code mode
/// with its default limits (100 calls a run, 8 at once).
fn server() -> Server {
    let sum = mcp_core::tool("sum")
        .description("Adds two integers.")
        .input::<SumArgs>()
        .run(|args: SumArgs| async move { (args.a + args.b).to_string() })
        .expect("a valid tool");
    Server::builder()
        .tool(sum)
        .code_mode(CodeMode::new())
        .build()
        .expect("a valid server")
}

async fn connect(server: Server) -> Client {
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let (reader, writer) = tokio::io::split(server_end);
    tokio::spawn(server.serve_io(reader, writer));
    ().serve(client_end).await.expect("connects to mcp-server")
}

fn request(name: &'static str, arguments: Value) -> CallToolRequestParams {
    CallToolRequestParams::new(name)
        .with_arguments(arguments.as_object().cloned().unwrap_or_default())
}

/// What a script made of `calls` calls returns, and the direct calls sum to.
fn expected(calls: usize) -> i64 {
    let calls = calls as i64;
    calls * (calls + 1) / 2
}

/// A script making `calls` calls of `sum`, awaited one by one.
fn sequential(calls: usize) -> String {
    format!(
        "let total = 0;\nfor (let i = 0; i < {calls}; i++) total += await tools.sum({{ a: i, b: 1 }});\nreturn total;"
    )
}

/// A script making `calls` calls of `sum` at once with `Promise.all`.
fn parallel(calls: usize) -> String {
    format!(
        "const sums = await Promise.all(Array.from({{ length: {calls} }}, (_, i) => tools.sum({{ a: i, b: 1 }})));\nreturn sums.reduce((total, sum) => total + sum, 0);"
    )
}

/// One way of doing the work, timed as a whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Work {
    /// `calls` direct `tools/call` requests, one after another.
    Direct,
    /// `execute` of the sequential script.
    Sequential,
    /// `execute` of the `Promise.all` script.
    Parallel,
    /// `execute` of `return 1`.
    ReturnOne,
}

fn ok(result: &CallToolResult) {
    assert_ne!(result.is_error, Some(true), "the call failed: {result:?}");
}

/// Does `work` once over `client`; checks its answer and times it.
async fn once(client: &Client, work: Work, calls: usize) -> Duration {
    let code = match work {
        Work::Direct => {
            let start = Instant::now();
            let mut total = 0;
            for i in 0..calls {
                let result = client
                    .call_tool(request("sum", json!({"a": i, "b": 1})))
                    .await
                    .expect("the call succeeds");
                ok(&result);
                total += sum_of(&result);
            }
            let elapsed = start.elapsed();
            assert_eq!(total, expected(calls));
            return elapsed;
        }
        Work::Sequential => sequential(calls),
        Work::Parallel => parallel(calls),
        Work::ReturnOne => "return 1".to_owned(),
    };
    let start = Instant::now();
    let result = client
        .call_tool(request("execute", json!({ "code": code })))
        .await
        .expect("the call succeeds");
    let elapsed = start.elapsed();
    ok(&result);
    let answer = result
        .structured_content
        .expect("execute's structured content");
    let (value, made) = if work == Work::ReturnOne {
        (1, 0)
    } else {
        (expected(calls), calls)
    };
    assert_eq!(
        answer,
        json!({ "result": value, "logs": [], "calls": made })
    );
    elapsed
}

/// The sum a direct call of `sum` answered.
fn sum_of(result: &CallToolResult) -> i64 {
    let text = result
        .content
        .first()
        .and_then(|content| content.as_text())
        .map(|text| text.text.as_str())
        .unwrap_or_default();
    text.parse().expect("a sum")
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort_unstable();
    times[times.len() / 2]
}

fn ns(duration: Duration) -> u64 {
    u64::try_from(duration.as_nanos()).unwrap_or(u64::MAX)
}

/// When a sample starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pace {
    /// Right after the sample before.
    BackToBack,
    /// After [`PAUSE`], as a model's next call comes after its turn.
    Paused,
}

impl Pace {
    fn name(self) -> &'static str {
        match self {
            Pace::BackToBack => "back_to_back",
            Pace::Paused => "paused",
        }
    }
}

/// The pause before a paced sample: long enough for the run before to have
/// made its sandbox's successor (a few hundred microseconds of work).
const PAUSE: Duration = Duration::from_millis(5);

/// Does `work` once, right after an untimed direct call, so every sample
/// starts from the same state: on a shared VM, a call made after the
/// session's threads sat idle (0.2 ms is enough, and a run idles them for
/// longer) takes 2 to 5 times as long as one made right after another, and
/// without this the direct calls that follow a run (or a pause) would pay
/// for the idle time.
async fn settled(client: &Client, work: Work, calls: usize, pace: Pace) -> Duration {
    if pace == Pace::Paused {
        tokio::time::sleep(PAUSE).await;
    }
    once(client, Work::Direct, 1).await;
    once(client, work, calls).await
}

/// Medians of each of `works` over `rounds` interleaved rounds (after a
/// warm-up of a tenth of them).
async fn measure(
    client: &Client,
    works: &[Work],
    calls: usize,
    rounds: usize,
    pace: Pace,
) -> Vec<Duration> {
    for _ in 0..rounds.div_ceil(10) {
        for &work in works {
            settled(client, work, calls, pace).await;
        }
    }
    let mut times: Vec<Vec<Duration>> = vec![Vec::with_capacity(rounds); works.len()];
    for _ in 0..rounds {
        for (samples, &work) in times.iter_mut().zip(works) {
            samples.push(settled(client, work, calls, pace).await);
        }
    }
    times.iter_mut().map(|samples| median(samples)).collect()
}

/// `execute` of `return 1` vs one direct call, over the session.
async fn start(client: &Client, rounds: usize, pace: Pace) {
    let medians = measure(client, &[Work::Direct, Work::ReturnOne], 1, rounds, pace).await;
    let (direct, execute) = (medians[0], medians[1]);
    println!(
        "{}",
        json!({
            "bench": "code_mode_start",
            "pace": pace.name(),
            "rounds": rounds,
            "direct_call_median_ns": ns(direct),
            "execute_return_1_median_ns": ns(execute),
            "start_cost_ns": ns(execute.saturating_sub(direct)),
            "ratio": execute.as_secs_f64() / direct.as_secs_f64(),
        })
    );
}

/// The same pair through `call_detached`: no session, no protocol.
async fn start_detached(server: &Server, rounds: usize) {
    let execute = server.tool("execute").expect("code mode's execute");
    let sum = server.tool("sum").expect("the sum tool");
    let (mut direct_times, mut execute_times) = (Vec::new(), Vec::new());
    for round in 0..rounds + rounds.div_ceil(10) {
        let started = Instant::now();
        let result = sum.call_detached(json!({"a": 1, "b": 1})).await;
        let direct = started.elapsed();
        assert!(!result.is_error(), "{result:?}");
        let started = Instant::now();
        let result = execute.call_detached(json!({"code": "return 1"})).await;
        let run = started.elapsed();
        assert_eq!(
            result.structured_content,
            Some(json!({"result": 1, "logs": [], "calls": 0}))
        );
        if round >= rounds.div_ceil(10) {
            direct_times.push(direct);
            execute_times.push(run);
        }
    }
    let (direct, execute) = (median(&mut direct_times), median(&mut execute_times));
    println!(
        "{}",
        json!({
            "bench": "code_mode_start_detached",
            "rounds": rounds,
            "direct_call_median_ns": ns(direct),
            "execute_return_1_median_ns": ns(execute),
            "start_cost_ns": ns(execute.saturating_sub(direct)),
        })
    );
}

/// `calls` calls from a script (sequential, then `Promise.all`) vs `calls`
/// direct calls, with `execute` of `return 1` in the same rounds so the
/// start cost can be taken out of the per-call figure.
async fn calls_from_script(client: &Client, calls: usize, rounds: usize, pace: Pace) {
    let works = [
        Work::Direct,
        Work::Sequential,
        Work::Parallel,
        Work::ReturnOne,
    ];
    let medians = measure(client, &works, calls, rounds, pace).await;
    let (direct, empty) = (medians[0], medians[3]);
    for (shape, script) in [("sequential", medians[1]), ("promise_all", medians[2])] {
        let per_call = script.saturating_sub(empty).as_secs_f64() / calls as f64;
        println!(
            "{}",
            json!({
                "bench": "code_mode_calls",
                "pace": pace.name(),
                "shape": shape,
                "calls": calls,
                "rounds": rounds,
                "direct_median_ns": ns(direct),
                "script_median_ns": ns(script),
                "execute_return_1_median_ns": ns(empty),
                "ratio": script.as_secs_f64() / direct.as_secs_f64(),
                "direct_per_call_ns": (direct.as_secs_f64() / calls as f64 * 1e9) as u64,
                "script_per_call_after_start_ns": (per_call * 1e9) as u64,
            })
        );
    }
}

fn main() {
    let full = std::env::args().any(|arg| arg == "--bench");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    // Rounds: sandbox start, 10 calls, 100 calls; `BENCH_ROUNDS_SCALE` scales them.
    let scale: f64 = std::env::var("BENCH_ROUNDS_SCALE")
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(1.0);
    let rounds = |base: usize| {
        if full {
            ((base as f64 * scale) as usize).max(1)
        } else {
            1
        }
    };
    runtime.block_on(async {
        let client = connect(server()).await;
        start(&client, rounds(2000), Pace::BackToBack).await;
        start_detached(&server(), rounds(2000)).await;
        calls_from_script(&client, 10, rounds(400), Pace::BackToBack).await;
        calls_from_script(&client, 100, rounds(200), Pace::BackToBack).await;
        if full {
            start(&client, rounds(500), Pace::Paused).await;
            calls_from_script(&client, 10, rounds(400), Pace::Paused).await;
            calls_from_script(&client, 100, rounds(200), Pace::Paused).await;
        }
        client.cancel().await.expect("the session closes");
    });
}
