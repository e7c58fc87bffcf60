//! `cargo xtask bench`: runs every benchmark on this machine and writes
//! `BENCHMARKS.md`, always as ratios against a baseline measured in the same
//! run (the machine is shared and noisy; absolute times are context only).

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::synth;

/// Operation counts of the synthetic documents (scaling benchmark).
const SYNTHETIC: [usize; 4] = [10, 100, 1_000, 10_000];

/// Runs the benchmarks and writes `BENCHMARKS.md`.
pub(crate) fn run(root: &Path) -> Result<(), String> {
    let documents = documents(root)?;
    let files: Vec<String> = documents.iter().map(|p| p.display().to_string()).collect();

    // One process per document, so its peak RSS is that document's alone.
    let mut ours = Vec::new();
    for file in &files {
        ours.extend(bench_lines(
            root,
            "mcp-openapi",
            "generate",
            std::slice::from_ref(file),
        )?);
    }
    let anchor = anchor_lines(root, &files).unwrap_or_else(|error| {
        eprintln!("xtask bench: rmcp-openapi anchor unavailable: {error}");
        Vec::new()
    });
    let mut report = String::new();
    let _ = writeln!(report, "# Benchmarks\n");
    let _ = writeln!(
        report,
        "Made by `cargo xtask bench` on this machine (2 cores, shared and noisy). Every figure that\n\
         matters is a ratio against a baseline measured in the same run; absolute times are context.\n"
    );
    generation_table(&mut report, &ours, &anchor);
    scaling_table(&mut report, &ours);
    let server = bench_lines(root, "mcp-server", "roundtrip", &[])?;
    let generated_call = bench_lines(root, "mcp-openapi", "call_overhead", &[])?;
    call_tables(&mut report, &server, &generated_call);
    let _ = writeln!(
        report,
        "## Reproduce\n\n`cargo xtask bench` (about 10 minutes on 2 cores once built; the rmcp-openapi anchor's first\n\
         release build takes about 15 minutes more). Each bench also runs alone:\n\
         `cargo bench -p mcp-openapi --bench generate -- --bench FILE...`,\n\
         `cargo bench -p mcp-server --bench roundtrip -- --bench`,\n\
         `cargo bench -p mcp-openapi --bench call_overhead -- --bench`; compile times:\n\
         `mcp-macros/scripts/compile_bench.sh`.\n"
    );
    fs::write(root.join("BENCHMARKS.md"), &report)
        .map_err(|e| format!("cannot write BENCHMARKS.md: {e}"))?;
    print!("{report}");
    Ok(())
}

/// The corpus documents plus freshly generated synthetic ones.
fn documents(root: &Path) -> Result<Vec<PathBuf>, String> {
    let corpus = root.join("../shared/corpus");
    let mut documents: Vec<PathBuf> = fs::read_dir(&corpus)
        .map_err(|e| format!("cannot read {}: {e}", corpus.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("json" | "yaml")
            )
        })
        .collect();
    documents.sort();
    let dir = root.join("target/bench");
    fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    for n in SYNTHETIC {
        let path = dir.join(format!("synthetic-{n}.json"));
        fs::write(&path, synth::document(n))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        documents.push(path);
    }
    Ok(documents)
}

/// Runs a `harness = false` bench of `package` in full mode and parses its JSON lines.
fn bench_lines(
    root: &Path,
    package: &str,
    bench: &str,
    args: &[String],
) -> Result<Vec<Value>, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .args([
            "bench", "--quiet", "-p", package, "--bench", bench, "--", "--bench",
        ])
        .args(args)
        .current_dir(root);
    json_lines(&mut command)
}

/// Builds the rmcp-openapi anchor (outside the workspace) and runs it.
fn anchor_lines(root: &Path, files: &[String]) -> Result<Vec<Value>, String> {
    let manifest = root.join("bench/rmcp-openapi-anchor/Cargo.toml");
    let target = root.join("target/anchor");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    crate::run(
        Command::new(cargo)
            .args(["build", "--quiet", "--release", "--manifest-path"])
            .arg(&manifest)
            .env("CARGO_TARGET_DIR", &target),
    )?;
    let mut command = Command::new(target.join("release/rmcp-openapi-anchor"));
    command.arg("5").args(files);
    json_lines(&mut command)
}

fn json_lines(command: &mut Command) -> Result<Vec<Value>, String> {
    eprintln!("xtask: running {command:?}");
    let output = command
        .output()
        .map_err(|e| format!("cannot start {command:?}: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "{command:?} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect())
}

fn file_name(line: &Value) -> String {
    let file = line["file"].as_str().unwrap_or("?");
    Path::new(file)
        .file_name()
        .map_or_else(|| file.to_owned(), |n| n.to_string_lossy().into_owned())
}

fn ms(ns: f64) -> String {
    format!("{:.2}", ns / 1e6)
}

fn generation_table(report: &mut String, ours: &[Value], anchor: &[Value]) {
    let _ = writeln!(
        report,
        "## Generation: load + generate all tools + serialize `tools/list`\n"
    );
    let _ = writeln!(
        report,
        "Floor: `serde_json::from_slice` to `Value` of the same bytes (JSON documents only). Anchor: `rmcp-openapi` 0.32.1,\n\
         same work, same documents, same run (release builds; medians).\n"
    );
    let _ = writeln!(
        report,
        "| document | ops | tools | floor ms | ours ms | ours / floor | rmcp-openapi ms | rmcp-openapi / ours | peak RSS MiB | peak RSS per tool KiB |"
    );
    let _ = writeln!(report, "|---|---|---|---|---|---|---|---|---|---|");
    for line in ours {
        let name = file_name(line);
        if let Some(error) = line.get("error") {
            let _ = writeln!(report, "| {name} | | | | error: {error} | | | | | |");
            continue;
        }
        let ours_ns = line["ours_ns"].as_f64().unwrap_or(f64::NAN);
        let floor = line["floor_ns"].as_f64();
        let anchor_line = anchor.iter().find(|a| file_name(a) == name);
        let (anchor_ms, anchor_ratio) = match anchor_line {
            Some(a) if a.get("error").is_some() => (
                "fails".to_owned(),
                format!("({})", short(a["error"].as_str().unwrap_or(""))),
            ),
            Some(a) => {
                let ns = a["median_ns"].as_f64().unwrap_or(f64::NAN);
                (ms(ns), format!("{:.1}x", ns / ours_ns))
            }
            None => ("n/a".to_owned(), String::new()),
        };
        let _ = writeln!(
            report,
            "| {name} | {} | {} | {} | {} | {} | {anchor_ms} | {anchor_ratio} | {:.0} | {} |",
            line["operations"],
            line["tools"],
            floor.map_or_else(|| "(yaml)".to_owned(), ms),
            ms(ours_ns),
            floor.map_or_else(String::new, |f| format!("{:.2}x", ours_ns / f)),
            line["peak_rss_kib"].as_f64().unwrap_or(0.0) / 1024.0,
            match line["tools"].as_f64() {
                Some(tools) if tools > 0.0 => format!(
                    "{:.0}",
                    line["peak_rss_kib"].as_f64().unwrap_or(0.0) / tools
                ),
                _ => String::new(),
            },
        );
    }
    let _ = writeln!(report);
}

fn call_tables(report: &mut String, server: &[Value], generated_call: &[Value]) {
    let _ = writeln!(
        report,
        "## Hand-written tool call: our server vs a bare rmcp `#[tool]` server\n"
    );
    let _ = writeln!(
        report,
        "Same tool, same rmcp client, same transport, interleaved rounds (medians).\n"
    );
    let _ = writeln!(
        report,
        "| transport | calls | ours µs | bare rmcp µs | ours / bare (target ≤ 1.10) |"
    );
    let _ = writeln!(report, "|---|---|---|---|---|");
    for line in server.iter().filter(|l| l["bench"] == "roundtrip") {
        let _ = writeln!(
            report,
            "| {} | {} | {:.1} | {:.1} | **{:.3}** |",
            line["transport"].as_str().unwrap_or("?"),
            line["calls"],
            line["ours_median_ns"].as_f64().unwrap_or(f64::NAN) / 1e3,
            line["bare_median_ns"].as_f64().unwrap_or(f64::NAN) / 1e3,
            line["ratio"].as_f64().unwrap_or(f64::NAN),
        );
    }
    let _ = writeln!(
        report,
        "\n## `tools/list` with 10,000 tools registered (in-memory duplex, medians)\n"
    );
    let _ = writeln!(
        report,
        "| tools | our first page (tools) | ours ms | bare rmcp, all in one page, ms | ours / bare |"
    );
    let _ = writeln!(report, "|---|---|---|---|---|");
    for line in server.iter().filter(|l| l["bench"] == "tools_list") {
        let _ = writeln!(
            report,
            "| {} | {} | **{}** | {} | {:.3} |",
            line["tools"],
            line["first_page_tools"],
            ms(line["ours_first_page_ns"].as_f64().unwrap_or(f64::NAN)),
            ms(line["bare_one_page_ns"].as_f64().unwrap_or(f64::NAN)),
            line["ratio"].as_f64().unwrap_or(f64::NAN),
        );
    }
    let _ = writeln!(
        report,
        "\n## Generated tool call vs a direct `reqwest` call to the same local upstream\n"
    );
    let _ = writeln!(
        report,
        "| calls × rounds (best round) | direct µs/call | generated µs/call | generated / direct (target ≤ 1.2) |"
    );
    let _ = writeln!(report, "|---|---|---|---|");
    for line in generated_call {
        let _ = writeln!(
            report,
            "| {} × {} | {:.1} | {:.1} | **{:.3}** |",
            line["calls"],
            line["rounds"],
            line["direct_ns_per_call"].as_f64().unwrap_or(f64::NAN) / 1e3,
            line["tool_ns_per_call"].as_f64().unwrap_or(f64::NAN) / 1e3,
            line["ratio"].as_f64().unwrap_or(f64::NAN),
        );
    }
    let _ = writeln!(report);
}

fn short(error: &str) -> String {
    let first = error.lines().next().unwrap_or("");
    let cut: String = first.chars().take(80).collect();
    cut.replace('|', "/")
}

fn scaling_table(report: &mut String, ours: &[Value]) {
    let time = |n: usize| {
        ours.iter()
            .find(|l| file_name(l) == format!("synthetic-{n}.json"))
            .and_then(|l| l["ours_ns"].as_f64())
    };
    let _ = writeln!(report, "## Scaling (synthetic documents)\n");
    let _ = writeln!(report, "| operations | ours ms | per operation µs |");
    let _ = writeln!(report, "|---|---|---|");
    for n in SYNTHETIC {
        if let Some(ns) = time(n) {
            let _ = writeln!(report, "| {n} | {} | {:.1} |", ms(ns), ns / 1e3 / n as f64);
        }
    }
    if let (Some(big), Some(small)) = (time(10_000), time(1_000)) {
        let _ = writeln!(
            report,
            "\ntime(10,000) / time(1,000) = **{:.2}** (target ≤ 11)\n",
            big / small
        );
    }
}
