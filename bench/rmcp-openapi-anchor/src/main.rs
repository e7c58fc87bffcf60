//! Times `rmcp-openapi` 0.32.1 on each document given: parse + generate all
//! tools + serialize the `tools/list` JSON, the same work `cargo xtask bench`
//! times for `mcp-openapi`, alternating with the same floor (the bytes
//! parsed to a `Value`) so the two runs can be compared floor to floor.
//! Prints one JSON line per document:
//! `{"file": .., "tools": .., "median_ns": .., "floor_ns": ..}` or `{"file": .., "error": ..}`.

use std::time::{Duration, Instant};

/// The `tools/list` result, serialized straight from the tools.
#[derive(serde::Serialize)]
struct ToolsList<'a> {
    tools: &'a [rmcp::model::Tool],
}

/// The bytes parsed to a `Value`: the floor both benchmarks measure against.
fn parse(bytes: &[u8], yaml: bool) -> Result<serde_json::Value, String> {
    if yaml {
        serde_saphyr::from_slice(bytes).map_err(|e| e.to_string())
    } else {
        serde_json::from_slice(bytes).map_err(|e| e.to_string())
    }
}

fn generate(bytes: &[u8], yaml: bool) -> Result<usize, String> {
    let value = parse(bytes, yaml)?;
    let spec = rmcp_openapi::Spec::from_value(value).map_err(|e| e.to_string())?;
    let metadata = spec
        .to_tool_metadata(None, false, false, false)
        .map_err(|e| e.to_string())?;
    let tools: Vec<rmcp::model::Tool> = metadata.iter().map(rmcp::model::Tool::from).collect();
    let json = serde_json::to_vec(&ToolsList { tools: &tools }).map_err(|e| e.to_string())?;
    std::hint::black_box(json);
    Ok(tools.len())
}

fn main() {
    let mut args = std::env::args().skip(1);
    let runs: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(5);
    for file in args {
        let bytes = match std::fs::read(&file) {
            Ok(bytes) => bytes,
            Err(e) => {
                println!(
                    "{}",
                    serde_json::json!({"file": file, "error": e.to_string()})
                );
                continue;
            }
        };
        let yaml = file.ends_with(".yaml") || file.ends_with(".yml");
        let mut times: Vec<Duration> = Vec::new();
        let mut floors: Vec<Duration> = Vec::new();
        let mut outcome = Ok(0);
        for _ in 0..runs {
            let start = Instant::now();
            std::hint::black_box(parse(&bytes, yaml).ok());
            floors.push(start.elapsed());
            let start = Instant::now();
            outcome = generate(&bytes, yaml);
            times.push(start.elapsed());
            if outcome.is_err() {
                break;
            }
        }
        times.sort();
        floors.sort();
        let median = |times: &[Duration]| times[times.len() / 2].as_nanos() as u64;
        let line = match outcome {
            Ok(tools) => serde_json::json!({
                "file": file,
                "tools": tools,
                "median_ns": median(&times),
                "floor_ns": median(&floors),
            }),
            Err(error) => serde_json::json!({"file": file, "error": error}),
        };
        println!("{line}");
    }
}
