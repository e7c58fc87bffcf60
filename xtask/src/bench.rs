//! `cargo xtask bench`: runs every benchmark on this machine and writes
//! `BENCHMARKS.md`, always as ratios against a baseline measured in the same
//! run (the machine is shared and noisy; absolute times are context only).
//! `cargo xtask bench big-documents` measures only the biggest directory
//! documents and rewrites their section and target rows.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::{stdout_of, synth};
use tables::{call_tables, discovery_table, generation_table, scaling_table, targets_table};

mod big_documents;
mod process;
mod tables;

/// The code-mode sections of `BENCHMARKS.md`, measured by their own
/// commands (see each section) and kept when the file is rewritten.
const CODE_MODE_BYTES: &str = "## Code mode: bytes reaching the model";
const CODE_MODE_CALLS: &str = "## Code mode: sandbox start and calls from a script";
/// The result-bounding section of `BENCHMARKS.md`, measured by its test.
const RESULT_BYTES: &str = "## Results sized for a model";

/// Operation counts of the synthetic documents (scaling benchmark).
const SYNTHETIC: [usize; 4] = [10, 100, 1_000, 10_000];

/// `cargo xtask bench [PART]`: with no part, runs every benchmark and
/// writes `BENCHMARKS.md`; `big-documents` runs only that part.
pub(crate) fn run(root: &Path, args: &[String]) -> Result<(), String> {
    match args {
        [] => all(root),
        [part] if part == "big-documents" => big_documents::run_alone(root),
        _ => Err(format!(
            "unknown arguments {args:?}; `cargo xtask bench` runs everything, \
             `cargo xtask bench big-documents` the biggest directory documents only"
        )),
    }
}

/// Runs every benchmark and writes `BENCHMARKS.md`.
fn all(root: &Path) -> Result<(), String> {
    let documents = documents(root)?;
    let files: Vec<String> = documents.iter().map(|p| p.display().to_string()).collect();

    // One process per document, so its peak RSS is that document's alone.
    let mut ours = Vec::new();
    for file in &files {
        ours.extend(bench_lines(
            root,
            "mcp-toolkit-openapi",
            "generate",
            std::slice::from_ref(file),
        )?);
    }
    let (anchor, anchor_note) = match anchor_lines(root, &files) {
        Ok(lines) => (lines, None),
        Err(error) => {
            eprintln!("xtask bench: rmcp-openapi anchor unavailable: {error}");
            let note =
                format!("The rmcp-openapi anchor did not run: {error}; its columns say n/a.\n");
            (Vec::new(), Some(note))
        }
    };
    let mut report = String::new();
    let _ = writeln!(report, "# Benchmarks\n");
    let _ = writeln!(
        report,
        "Made by `cargo xtask bench` on this machine (2 cores, shared and noisy). Every figure that\n\
         matters is a ratio against a baseline measured in the same run; absolute times are context.\n"
    );
    if let Some(note) = anchor_note {
        let _ = writeln!(report, "{note}");
    }
    let process_files: Vec<String> = files
        .iter()
        .filter(|f| process::DOCUMENTS.iter().any(|d| f.ends_with(d)))
        .cloned()
        .collect();
    let processes = bench_lines(root, "mcp-server", "process", &process_files)?;
    let server = bench_lines(root, "mcp-toolkit-server", "roundtrip", &[])?;
    let generated_call = bench_lines(root, "mcp-toolkit-openapi", "call_overhead", &[])?;
    let discovery = bench_lines(root, "mcp-toolkit-server", "discovery", &[])?;
    let big = big_documents::lines(root).inspect_err(|error| {
        eprintln!("xtask bench: the biggest directory documents were not measured: {error}");
    });
    let mut whole_process_rows = process::target_rows(&processes);
    whole_process_rows.extend(big_documents::target_rows(
        big.as_deref().unwrap_or_default(),
    ));
    targets_table(
        &mut report,
        &ours,
        &anchor,
        &server,
        &generated_call,
        whole_process_rows,
        &discovery,
    );
    generation_table(&mut report, &ours, &anchor);
    process::table(&mut report, &processes);
    big_documents::table(&mut report, big.as_deref().map_err(String::as_str));
    scaling_table(&mut report, &ours);
    call_tables(&mut report, &server, &generated_call);
    discovery_table(&mut report, &discovery);
    let previous = fs::read_to_string(root.join("BENCHMARKS.md")).unwrap_or_default();
    for kept in [
        crate::discovery::SECTION,
        crate::build_cost::SECTION,
        crate::load::SECTION,
        CODE_MODE_BYTES,
        CODE_MODE_CALLS,
        RESULT_BYTES,
        crate::soak::SECTION,
    ] {
        if let Some(section) = crate::benchmarks_md::section(&previous, kept) {
            report.push_str(section);
        }
    }
    let _ = writeln!(
        report,
        "## Reproduce\n\n`cargo xtask bench` (about 3 minutes on 2 cores once built; the rmcp-openapi anchor's first\n\
         release build takes about 15 minutes more; `BENCH_SKIP_ANCHOR=1` leaves it out). Each bench also runs alone:\n\
         `cargo bench -p mcp-toolkit-openapi --bench generate -- --bench FILE...`,\n\
         `cargo bench -p mcp-server --bench process -- --bench FILE...` (and `-- --modes FILE...` for discovery\n\
         and code mode; `cargo xtask bench big-documents` runs that part alone, on the biggest directory documents),\n\
         `cargo bench -p mcp-toolkit-server --bench roundtrip -- --bench`,\n\
         `cargo bench -p mcp-toolkit-openapi --bench call_overhead -- --bench`,\n\
         `cargo bench -p mcp-toolkit-server --bench discovery -- --bench`; compile times:\n\
         `mcp-macros/scripts/compile_bench.sh`.\n"
    );
    fs::write(root.join("BENCHMARKS.md"), &report)
        .map_err(|e| format!("cannot write BENCHMARKS.md: {e}"))?;
    print!("{report}");
    Ok(())
}

/// The corpus documents plus freshly generated synthetic ones.
fn documents(root: &Path) -> Result<Vec<PathBuf>, String> {
    let corpus = testdata::openapi_dir();
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
    bench_output(root, package, bench, "--bench", args)
}

/// Runs a `harness = false` bench of `package` with `flag` (the measure it
/// takes) and `args`, and parses its JSON lines.
fn bench_output(
    root: &Path,
    package: &str,
    bench: &str,
    flag: &str,
    args: &[String],
) -> Result<Vec<Value>, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .args([
            "bench", "--quiet", "-p", package, "--bench", bench, "--", flag,
        ])
        .args(args)
        .current_dir(root);
    json_lines(&mut command)
}

/// Builds the rmcp-openapi anchor (outside the workspace) and runs it;
/// with `BENCH_SKIP_ANCHOR` set, neither (its columns then say n/a).
fn anchor_lines(root: &Path, files: &[String]) -> Result<Vec<Value>, String> {
    if std::env::var_os("BENCH_SKIP_ANCHOR").is_some() {
        return Err("skipped (BENCH_SKIP_ANCHOR is set)".into());
    }
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
    Ok(stdout_of(command)?
        .lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect())
}

pub(super) fn file_name(line: &Value) -> String {
    let file = line["file"].as_str().unwrap_or("?");
    Path::new(file)
        .file_name()
        .map_or_else(|| file.to_owned(), |n| n.to_string_lossy().into_owned())
}

pub(super) fn ms(ns: f64) -> String {
    format!("{:.2}", ns / 1e6)
}
