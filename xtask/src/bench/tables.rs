//! The tables of `BENCHMARKS.md`, each written from the JSON lines its
//! benchmark printed: discovery, the targets, generation against the
//! anchor, calls, and scaling with the document's size.

use std::fmt::Write as _;

use serde_json::Value;

use super::{SYNTHETIC, file_name, ms};

/// Discovery mode per document: recall of the ranking on the task set,
/// `tools/list` and answer sizes, search latency.
pub(super) fn discovery_table(report: &mut String, lines: &[Value]) {
    let _ = writeln!(
        report,
        "## Discovery mode\n\n\
         `serve --discovery`: `tools/list` shows `search_tools` and `call_tool`. Recall is the share of the\n\
         tasks whose tool ranks first (@1) or in the top 5 (@5): the tasks the ranking was developed on\n\
         (`testdata/discovery/discovery_tasks.yaml`) and, in brackets, a held-out set it was never\n\
         tuned to (`discovery_tasks_held_out.yaml`) / a fresh set written after the last ranking change\n\
         and measured once (`discovery_tasks_fresh.yaml`). Answer bytes are the text of a 5-result `search_tools`\n\
         answer, its structured content as JSON (largest over the tasks); latency is one search, median and 95th percentile over every\n\
         task (absolute, for context).\n\n\
         | document | tasks (held out / fresh) | recall@1 (held out / fresh) | recall@5 (held out / fresh) | list bytes | answer text bytes (max) | search µs (median / p95) |\n\
         |---|---:|---:|---:|---:|---:|---:|"
    );
    for line in lines.iter().filter(|l| l["bench"] == "discovery") {
        let _ = writeln!(
            report,
            "| {} | {} ({} / {}) | {:.0} % ({:.0} % / {:.0} %) | {:.0} % ({:.0} % / {:.0} %) | {} | {} | {:.0} / {:.0} |",
            line["document"].as_str().unwrap_or("?"),
            line["tasks"],
            line["held_out_tasks"],
            line["fresh_tasks"],
            line["recall_at_1"].as_f64().unwrap_or(0.0) * 100.0,
            line["held_out_recall_at_1"].as_f64().unwrap_or(0.0) * 100.0,
            line["fresh_recall_at_1"].as_f64().unwrap_or(0.0) * 100.0,
            line["recall_at_5"].as_f64().unwrap_or(0.0) * 100.0,
            line["held_out_recall_at_5"].as_f64().unwrap_or(0.0) * 100.0,
            line["fresh_recall_at_5"].as_f64().unwrap_or(0.0) * 100.0,
            line["list_bytes"],
            line["answer_bytes_max"],
            line["search_us_median"].as_f64().unwrap_or(0.0),
            line["search_us_p95"].as_f64().unwrap_or(0.0),
        );
    }
    let _ = writeln!(report);
}

/// A row of the targets table.
pub(super) fn target_row(measure: &str, target: &str, value: &str) -> String {
    format!("| {measure} | {target} | **{value}** |")
}

/// The targets, each with the ratio measured in this run; the rows of whole
/// processes come made.
pub(super) fn targets_table(
    report: &mut String,
    ours: &[Value],
    anchor: &[Value],
    server: &[Value],
    generated_call: &[Value],
    whole_process_rows: Vec<(String, String, String)>,
    discovery: &[Value],
) {
    let find = |lines: &[Value], name: &str| -> Option<Value> {
        lines.iter().find(|l| file_name(l) == name).cloned()
    };
    let ratio =
        |line: &Value, a: &str, b: &str| line[a].as_f64().zip(line[b].as_f64()).map(|(a, b)| a / b);
    let mut rows: Vec<(String, String, String)> = Vec::new();
    let github = find(ours, "github-api.github.com.json");
    rows.push((
        "GitHub generation / serde_json floor".into(),
        "≤ 2.0".into(),
        github
            .as_ref()
            .and_then(|l| ratio(l, "ours_ns", "floor_ns"))
            .map_or("n/a".into(), |r| format!("{r:.2}")),
    ));
    // The corpus documents; the synthetic ones have their own scaling rows.
    let json_worst_floor = ours
        .iter()
        .filter(|l| l["floor"] == "serde_json" && !file_name(l).starts_with("synthetic-"))
        .filter_map(|l| ratio(l, "ours_ns", "floor_ns").map(|r| (r, file_name(l))))
        .max_by(|a, b| a.0.total_cmp(&b.0));
    rows.push((
        "worst JSON corpus document generation / serde_json floor".into(),
        "≤ 5".into(),
        json_worst_floor.map_or("n/a".into(), |(r, n)| format!("{r:.2} ({n})")),
    ));
    let stripe_rss = find(ours, "stripe-spec3.json").and_then(|l| l["peak_rss_kib"].as_f64());
    rows.push((
        "Stripe (stripe-spec3.json) generation peak RSS (MiB)".into(),
        "≤ 250".into(),
        stripe_rss.map_or("n/a".into(), |k| format!("{:.0}", k / 1024.0)),
    ));
    rows.extend(whole_process_rows);
    // rmcp-openapi / ours, floor to floor, on every document both load.
    let mut json_worst: Option<(f64, String)> = None;
    let mut yaml_worst: Option<(f64, String)> = None;
    for line in ours.iter().filter(|l| l.get("error").is_none()) {
        let name = file_name(line);
        let Some(a) = find(anchor, &name).filter(|a| a.get("error").is_none()) else {
            continue;
        };
        let (Some(ours_r), Some(anchor_r)) = (
            ratio(line, "ours_ns", "floor_ns"),
            ratio(&a, "median_ns", "floor_ns"),
        ) else {
            continue;
        };
        let r = anchor_r / ours_r;
        let worst = if line["floor"] == "serde_json" {
            &mut json_worst
        } else {
            &mut yaml_worst
        };
        if worst.as_ref().is_none_or(|(w, _)| r < *w) {
            *worst = Some((r, name));
        }
    }
    let worst = |w: Option<(f64, String)>| w.map_or("n/a".into(), |(r, n)| format!("{r:.1} ({n})"));
    rows.push((
        "rmcp-openapi / ours, worst JSON document both load".into(),
        "≥ 5".into(),
        worst(json_worst),
    ));
    rows.push((
        "rmcp-openapi / ours, worst YAML document (the anchor borrows our YAML parser)".into(),
        "≥ 5".into(),
        worst(yaml_worst),
    ));
    let stripe: Vec<String> = ours
        .iter()
        .filter(|l| file_name(l).starts_with("stripe"))
        .map(|l| format!("{} / {} ({})", l["tools"], l["operations"], file_name(l)))
        .collect();
    rows.push((
        "Stripe operations generated".into(),
        "all".into(),
        stripe.join(", "),
    ));
    let time =
        |n: usize| find(ours, &format!("synthetic-{n}.json")).and_then(|l| l["ours_ns"].as_f64());
    rows.push((
        "time(10,000 ops) / time(1,000 ops)".into(),
        "≤ 11".into(),
        time(10_000)
            .zip(time(1_000))
            .map_or("n/a".into(), |(b, s)| format!("{:.2}", b / s)),
    ));
    for line in server.iter().filter(|l| l["bench"] == "roundtrip") {
        rows.push((
            format!(
                "hand-written call / bare rmcp, {}",
                line["transport"].as_str().unwrap_or("?")
            ),
            "≤ 1.10".into(),
            format!("{:.3}", line["ratio"].as_f64().unwrap_or(f64::NAN)),
        ));
    }
    for line in generated_call {
        rows.push((
            "generated call / direct reqwest".into(),
            "≤ 1.2".into(),
            format!("{:.3}", line["ratio"].as_f64().unwrap_or(f64::NAN)),
        ));
    }
    for line in server.iter().filter(|l| l["bench"] == "tools_list") {
        rows.push((
            format!("`tools/list` first page, {} tools (ms)", line["tools"]),
            "≤ 5".into(),
            ms(line["ours_first_page_ns"].as_f64().unwrap_or(f64::NAN)),
        ));
    }
    for line in discovery.iter().filter(|l| l["bench"] == "discovery") {
        let document = line["document"].as_str().unwrap_or("?");
        let percent = |key: &str| format!("{:.0} %", line[key].as_f64().unwrap_or(0.0) * 100.0);
        rows.push((
            format!("discovery recall@5, {document} (held-out / fresh sets in brackets)"),
            "≥ 95 %".into(),
            format!(
                "{} ({} / {})",
                percent("recall_at_5"),
                percent("held_out_recall_at_5"),
                percent("fresh_recall_at_5")
            ),
        ));
        rows.push((
            format!("discovery recall@1, {document} (held-out / fresh sets in brackets)"),
            "≥ 75 %".into(),
            format!(
                "{} ({} / {})",
                percent("recall_at_1"),
                percent("held_out_recall_at_1"),
                percent("fresh_recall_at_1")
            ),
        ));
    }
    let _ = writeln!(report, "## Targets\n");
    let _ = writeln!(report, "| measure | target | this run |");
    let _ = writeln!(report, "|---|---|---|");
    for (measure, target, value) in rows {
        let _ = writeln!(report, "{}", target_row(&measure, &target, &value));
    }
    let _ = writeln!(
        report,
        "\nYAML rows: `rmcp-openapi` reads JSON values only (`Spec::from_value`), so its anchor parses YAML\n\
         with serde-saphyr, the parser we use; on these small documents parsing is most of both times, which\n\
         bounds their ratio by the anchor's own ratio to the floor. Scaling: the synthetic documents grow\n\
         linearly in bytes; the floor's own time(10,000) / time(1,000) is printed beside ours below.\n"
    );
}

pub(super) fn generation_table(report: &mut String, ours: &[Value], anchor: &[Value]) {
    let _ = writeln!(
        report,
        "## Generation: load + generate all tools + serialize `tools/list`\n"
    );
    let _ = writeln!(
        report,
        "Floor: the same bytes parsed to a `serde_json::Value` (by `serde_json`, or `serde-saphyr` for YAML),\n\
         timed in alternation with the measured work in the same process. Anchor: `rmcp-openapi` 0.32.1, same\n\
         work and documents, in its own process with its own alternating floor (release builds; medians).\n\
         **rmcp-openapi / ours** compares the two floor to floor: (anchor / its floor) / (ours / our floor),\n\
         which cancels the drift of a shared machine between the two processes; the raw time ratio is beside it.\n\
         Ours runs with the default settings (output schemas on their default budget); **full schemas / floor**\n\
         is the same work with `output_budget(None)` (the whole output schemas), timed after the peak RSS is read,\n\
         with the `tools/list` size of both.\n"
    );
    let _ = writeln!(
        report,
        "| document | ops | tools | floor ms | ours ms | ours / floor | rmcp-openapi ms | rmcp-openapi / floor | rmcp-openapi / ours | raw time ratio | peak RSS MiB | peak RSS per tool KiB | `tools/list` MB | full schemas / floor | full `tools/list` MB |"
    );
    let _ = writeln!(
        report,
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    );
    for line in ours {
        let name = file_name(line);
        if let Some(error) = line.get("error") {
            let _ = writeln!(
                report,
                "| {name} | | | | error: {error} | | | | | | | | | | |"
            );
            continue;
        }
        let ours_ns = line["ours_ns"].as_f64().unwrap_or(f64::NAN);
        let floor = line["floor_ns"].as_f64().unwrap_or(f64::NAN);
        let parser = line["floor"].as_str().unwrap_or("?");
        let anchor_cells = match anchor.iter().find(|a| file_name(a) == name) {
            Some(a) if a.get("error").is_some() => [
                "fails".to_owned(),
                String::new(),
                format!("({})", short(a["error"].as_str().unwrap_or(""))),
                String::new(),
            ],
            Some(a) => {
                let ns = a["median_ns"].as_f64().unwrap_or(f64::NAN);
                let anchor_floor = a["floor_ns"].as_f64().unwrap_or(f64::NAN);
                [
                    ms(ns),
                    format!("{:.2}x", ns / anchor_floor),
                    format!("**{:.1}x**", (ns / anchor_floor) / (ours_ns / floor)),
                    format!("{:.1}x", ns / ours_ns),
                ]
            }
            None => [
                "n/a".to_owned(),
                String::new(),
                String::new(),
                String::new(),
            ],
        };
        let rss_kib = line["peak_rss_kib"].as_f64().unwrap_or(0.0);
        let _ = writeln!(
            report,
            "| {name} | {} | {} | {} ({parser}) | {} | {:.2}x | {} | {:.0} | {} | {:.2} | {} | {:.2} |",
            line["operations"],
            line["tools"],
            ms(floor),
            ms(ours_ns),
            ours_ns / floor,
            anchor_cells.join(" | "),
            rss_kib / 1024.0,
            match line["tools"].as_f64() {
                Some(tools) if tools > 0.0 => format!("{:.0}", rss_kib / tools),
                _ => String::new(),
            },
            line["tools_list_bytes"].as_f64().unwrap_or(f64::NAN) / 1e6,
            line["full_schemas_ns"]
                .as_f64()
                .zip(line["full_schemas_floor_ns"].as_f64())
                .map_or_else(|| "n/a".to_owned(), |(a, b)| format!("{:.2}x", a / b)),
            line["full_schemas_tools_list_bytes"]
                .as_f64()
                .unwrap_or(f64::NAN)
                / 1e6,
        );
    }
    let _ = writeln!(report);
}

pub(super) fn call_tables(report: &mut String, server: &[Value], generated_call: &[Value]) {
    let _ = writeln!(
        report,
        "## Hand-written tool call: our server vs a bare rmcp `#[tool]` server\n"
    );
    let _ = writeln!(
        report,
        "Same tool, same rmcp client, same transport; the two servers take turns every ten calls \
         (medians). Over HTTP each call is a new loopback connection (rmcp's client does not reuse \
         one after an SSE response), for both servers alike.\n"
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

pub(super) fn short(error: &str) -> String {
    let first = error.lines().next().unwrap_or("");
    let cut: String = first.chars().take(80).collect();
    cut.replace('|', "/")
}

pub(super) fn scaling_table(report: &mut String, ours: &[Value]) {
    let line = |n: usize| {
        ours.iter()
            .find(|l| file_name(l) == format!("synthetic-{n}.json"))
    };
    let time = |n: usize, key: &str| line(n).and_then(|l| l[key].as_f64());
    let _ = writeln!(report, "## Scaling (synthetic documents)\n");
    let _ = writeln!(
        report,
        "| operations | floor ms | ours ms | per operation µs | ours / floor |"
    );
    let _ = writeln!(report, "|---|---|---|---|---|");
    for n in SYNTHETIC {
        if let (Some(ns), Some(floor)) = (time(n, "ours_ns"), time(n, "floor_ns")) {
            let _ = writeln!(
                report,
                "| {n} | {} | {} | {:.1} | {:.2}x |",
                ms(floor),
                ms(ns),
                ns / 1e3 / n as f64,
                ns / floor
            );
        }
    }
    if let (Some(big), Some(small)) = (time(10_000, "ours_ns"), time(1_000, "ours_ns")) {
        let floors = time(10_000, "floor_ns").zip(time(1_000, "floor_ns"));
        let _ = writeln!(
            report,
            "\ntime(10,000) / time(1,000) = **{:.2}** (target ≤ 11); the floor's own ratio in the same run: {}\n",
            big / small,
            floors.map_or_else(|| "n/a".to_owned(), |(b, s)| format!("{:.2}", b / s)),
        );
    }
}
