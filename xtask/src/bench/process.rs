//! Whole processes as a user runs them: `mcp-server tools` and the first
//! `tools/list` of `mcp-server serve` over stdio, against a process that
//! only parses the same document (the `process` bench of `mcp-server`).

use std::fmt::Write as _;

use serde_json::Value;

use super::{file_name, ms};

/// The heading of the section.
pub(super) const SECTION: &str = "## Whole processes: `mcp-server tools` and `serve` over stdio";

/// The documents timed as whole processes (each takes a few seconds).
pub(super) const DOCUMENTS: [&str; 3] = [
    "github-api.github.com.json",
    "stripe-spec3.json",
    "kubernetes-apisguru.json",
];

fn ratio(line: &Value, key: &str) -> Option<f64> {
    line[key]
        .as_f64()
        .zip(line["floor_ns"].as_f64())
        .map(|(a, b)| a / b)
}

/// The target rows: GitHub's two ratios and Stripe's `tools` time.
pub(super) fn target_rows(lines: &[Value]) -> Vec<(String, String, String)> {
    let find = |name: &str| lines.iter().find(|l| file_name(l) == name);
    let github = find("github-api.github.com.json");
    let stripe = find("stripe-spec3.json");
    let show = |value: Option<f64>, digits: usize| {
        value.map_or_else(|| "n/a".to_owned(), |v| format!("{v:.digits$}"))
    };
    vec![
        (
            "`mcp-server tools --openapi` GitHub / parse-only process".into(),
            "≤ 2.5".into(),
            show(github.and_then(|l| ratio(l, "tools_ns")), 2),
        ),
        (
            "`mcp-server serve` first `tools/list`, GitHub / parse-only process".into(),
            "≤ 3".into(),
            show(github.and_then(|l| ratio(l, "serve_first_list_ns")), 2),
        ),
        (
            "`mcp-server tools --openapi stripe-spec3.json` (s)".into(),
            "< 1.5".into(),
            show(
                stripe
                    .and_then(|l| l["tools_ns"].as_f64())
                    .map(|ns| ns / 1e9),
                2,
            ),
        ),
    ]
}

/// The table of whole-process times.
pub(super) fn table(report: &mut String, lines: &[Value]) {
    let _ = writeln!(report, "{SECTION}\n");
    let _ = writeln!(
        report,
        "Floor: a process that reads the document and parses it with serde_json, started in alternation\n\
         with the two measured ones (release builds; medians). `tools` runs with stdout to /dev/null\n\
         (compact JSON); `serve` is timed from start to the first `tools/list` answer after `initialize`.\n"
    );
    let _ = writeln!(
        report,
        "| document | parse-only process ms | `tools` ms | `tools` / floor | `serve` first `tools/list` ms | `serve` / floor | first page KiB | `serve` peak RSS MiB |"
    );
    let _ = writeln!(report, "|---|---|---|---|---|---|---|---|");
    for line in lines {
        let name = file_name(line);
        if let Some(error) = line.get("error") {
            let _ = writeln!(report, "| {name} | error: {error} | | | | | | |");
            continue;
        }
        let _ = writeln!(
            report,
            "| {name} | {} | {} | **{:.2}x** | {} | **{:.2}x** | {:.0} | {:.0} |",
            ms(line["floor_ns"].as_f64().unwrap_or(f64::NAN)),
            ms(line["tools_ns"].as_f64().unwrap_or(f64::NAN)),
            ratio(line, "tools_ns").unwrap_or(f64::NAN),
            ms(line["serve_first_list_ns"].as_f64().unwrap_or(f64::NAN)),
            ratio(line, "serve_first_list_ns").unwrap_or(f64::NAN),
            line["first_list_bytes"].as_f64().unwrap_or(f64::NAN) / 1024.0,
            line["serve_peak_rss_kib"].as_f64().unwrap_or(f64::NAN) / 1024.0,
        );
    }
    let _ = writeln!(report);
}
