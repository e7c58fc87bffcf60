//! Generation benchmark: load a document, generate every tool and serialize
//! the `tools/list` JSON, against the floor of `serde_json::from_slice` of the
//! same bytes, measured in the same process and run. With the default
//! settings (output schemas on their default budget), and then, as context,
//! with full output schemas (`output_budget(None)`), after the peak RSS of
//! the default run is read.
//!
//! `cargo bench -p mcp-openapi --bench generate -- FILE...` prints one JSON
//! line per document (`cargo xtask bench` collects them into BENCHMARKS.md).
//! `BENCH_DEFAULT_ONLY=1` skips the full-schemas timing (for profiling the
//! default path alone).
//! Without `--bench` (as `cargo test --benches` runs it) it is a smoke test:
//! one iteration on the small corpus documents, asserting nothing about time.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mcp_openapi::OpenApi;
use serde_json::{Value, json};

/// The `tools/list` result, serialized straight from the tools.
#[derive(serde::Serialize)]
struct ToolsList<'a> {
    tools: Vec<&'a mcp_core::Tool>,
}

/// Loads, generates and serializes, with the default settings or (`full`)
/// full output schemas; returns (operations, tools, JSON bytes).
fn generate(bytes: &[u8], full: bool) -> Result<(usize, usize, usize), String> {
    let api = OpenApi::from_slice(bytes).map_err(|e| e.to_string())?;
    let mut generator = api.generator();
    if full {
        generator = generator.output_budget(None);
    }
    let generated = generator.generate().map_err(|e| e.to_string())?;
    let list = ToolsList {
        tools: generated.tools.iter().map(|t| &t.tool).collect(),
    };
    let json = serde_json::to_vec(&list).map_err(|e| e.to_string())?;
    Ok((api.routes().len(), list.tools.len(), json.len()))
}

/// Medians of timing `a` and `b` in alternation until `budget` is spent (at
/// least 3, at most 31 rounds each): the machine is shared, and alternating
/// exposes both to the same drift, so their ratio is steadier than that of
/// two separate blocks.
fn medians(budget: Duration, mut a: impl FnMut(), mut b: impl FnMut()) -> (Duration, Duration) {
    let (mut times_a, mut times_b) = (Vec::new(), Vec::new());
    let started = Instant::now();
    while times_a.len() < 3 || (started.elapsed() < budget && times_a.len() < 31) {
        let start = Instant::now();
        a();
        times_a.push(start.elapsed());
        let start = Instant::now();
        b();
        times_b.push(start.elapsed());
    }
    let median = |mut times: Vec<Duration>| {
        times.sort();
        times[times.len() / 2]
    };
    (median(times_a), median(times_b))
}

fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn measure(path: &Path, budget: Duration) -> Value {
    let file = path.display().to_string();
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) => return json!({"file": file, "error": e.to_string()}),
    };
    let (operations, tools, json_bytes) = match generate(&bytes, false) {
        Ok(counts) => counts,
        Err(error) => return json!({"file": file, "error": error}),
    };
    // The floor: the same bytes parsed to a `Value` by the parser the
    // document needs (serde_json for JSON, serde-saphyr for YAML).
    let is_json = serde_json::from_slice::<Value>(&bytes).is_ok();
    let parse = || {
        if is_json {
            drop(black_box(serde_json::from_slice::<Value>(&bytes)));
        } else {
            drop(black_box(serde_saphyr::from_slice::<Value>(&bytes)));
        }
    };
    let (floor, ours) = medians(budget, parse, || drop(black_box(generate(&bytes, false))));
    let peak_rss_kib = peak_rss_kib();
    if std::env::var_os("BENCH_DEFAULT_ONLY").is_some() {
        return json!({
            "file": file,
            "floor_ns": floor.as_nanos() as u64,
            "ours_ns": ours.as_nanos() as u64,
            "peak_rss_kib": peak_rss_kib,
        });
    }
    let full_json_bytes = generate(&bytes, true).map_or(0, |(_, _, json)| json);
    let (full_floor, full) = medians(budget, parse, || drop(black_box(generate(&bytes, true))));
    json!({
        "file": file,
        "bytes": bytes.len(),
        "operations": operations,
        "tools": tools,
        "tools_list_bytes": json_bytes,
        "floor": if is_json { "serde_json" } else { "serde-saphyr" },
        "floor_ns": floor.as_nanos() as u64,
        "ours_ns": ours.as_nanos() as u64,
        "peak_rss_kib": peak_rss_kib,
        "full_schemas_tools_list_bytes": full_json_bytes,
        "full_schemas_floor_ns": full_floor.as_nanos() as u64,
        "full_schemas_ns": full.as_nanos() as u64,
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let full = args.iter().any(|a| a == "--bench");
    let files: Vec<PathBuf> = args
        .iter()
        .filter(|a| !a.starts_with("--"))
        .map(PathBuf::from)
        .collect();
    if full {
        let budget = Duration::from_millis(
            std::env::var("BENCH_BUDGET_MS")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(2000),
        );
        for file in &files {
            println!("{}", measure(file, budget));
        }
        return;
    }
    // Smoke mode: every step runs once on small documents; failures fail.
    for name in ["petstore.yaml", "petstore-expanded.yaml", "uspto.yaml"] {
        let line = measure(&testdata::openapi(name), Duration::ZERO);
        assert!(line.get("error").is_none(), "{line}");
        assert!(line["tools"].as_u64().unwrap_or(0) > 0, "{line}");
    }
}
