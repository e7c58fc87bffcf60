//! What each ranking signal contributes, measured on the task sets in
//! `tests/fixtures/`: recall at 1 and at 5 per document and task set with
//! every signal on and with each one off alone. Slow in a debug build, so
//! not run by default:
//! `cargo test --release -p mcp-server --lib ablation -- --ignored --nocapture`.

use std::collections::HashMap;
use std::sync::Arc;

use mcp_core::{Tool, ToolDef};
use mcp_openapi::{ClientConfig, OpenApi};
use serde::Deserialize;

use super::document::OPENAPI_META_KEY;
use super::index::SearchIndex;
use super::signals::Signals;

#[derive(Debug, Deserialize)]
struct Task {
    ask: String,
    serves: Vec<String>,
}

/// The task sets: file name, then tasks per document label.
fn task_sets() -> Vec<(&'static str, HashMap<String, Vec<Task>>)> {
    [
        "discovery_tasks.yaml",
        "discovery_tasks_held_out.yaml",
        "discovery_tasks_fresh.yaml",
    ]
    .into_iter()
    .map(|file| {
        let path = testdata::discovery_tasks(file);
        let text = std::fs::read_to_string(&path).expect("the task file reads");
        (
            file,
            serde_saphyr::from_str(&text).expect("the task file parses"),
        )
    })
    .collect()
}

fn tools(document: &str) -> Vec<ToolDef> {
    let api = OpenApi::from_path(testdata::openapi(document)).expect("the document loads");
    let config = ClientConfig::builder()
        .base_url("http://127.0.0.1:9")
        .build()
        .expect("the client config builds");
    api.generator()
        .generate()
        .expect("the tools generate")
        .tool_defs(&Arc::new(config))
        .expect("the tool defs build")
}

fn operation_id(tool: &Tool) -> &str {
    tool.meta
        .get(OPENAPI_META_KEY)
        .and_then(|meta| meta.get("operationId"))
        .and_then(serde_json::Value::as_str)
        .unwrap_or("?")
}

/// The rank of the first tool serving each task (`None`: not in the top 5).
fn ranks(index: &SearchIndex, tools: &[&Tool], tasks: &[Task]) -> Vec<Option<usize>> {
    tasks
        .iter()
        .map(|task| {
            index.search(&task.ask, 5, |_| true).iter().position(|hit| {
                task.serves
                    .iter()
                    .any(|id| id == operation_id(tools[hit.tool]))
            })
        })
        .collect()
}

#[test]
#[ignore = "slow in debug builds; run with --release --ignored"]
fn ablation() {
    let sets = task_sets();
    let documents = [
        ("github", tools("github-api.github.com.json")),
        ("stripe", tools("stripe-spec3.json")),
    ];
    let verbose = std::env::var_os("DISCOVERY_MISSES").is_some();
    println!("| signals | set | github @1 | github @5 | stripe @1 | stripe @5 |");
    println!("|---|---|---:|---:|---:|---:|");
    for (label, signals) in Signals::ablations() {
        let indexes: Vec<(&str, Vec<&Tool>, SearchIndex)> = documents
            .iter()
            .map(|(name, defs)| {
                let tools: Vec<&Tool> = defs.iter().map(ToolDef::tool).collect();
                let index = SearchIndex::with_signals(tools.iter().copied(), signals);
                (*name, tools, index)
            })
            .collect();
        for (file, tasks) in &sets {
            let mut row = format!("| {label} | {file} |");
            for (name, tools, index) in &indexes {
                let tasks = tasks.get(*name).map_or(&[][..], Vec::as_slice);
                let ranks = ranks(index, tools, tasks);
                let total = tasks.len().max(1) as f64;
                let first = ranks.iter().filter(|rank| **rank == Some(0)).count() as f64;
                let top5 = ranks.iter().filter(|rank| rank.is_some()).count() as f64;
                row += &format!(
                    " {:.0} % | {:.0} % |",
                    first / total * 100.0,
                    top5 / total * 100.0
                );
                // Misses of the held-out and fresh sets are not shown: the
                // ranking is not tuned to them.
                if verbose && label == "all signals" && *file == "discovery_tasks.yaml" {
                    for (task, rank) in tasks.iter().zip(&ranks) {
                        if *rank != Some(0) {
                            let got: Vec<&str> = index
                                .search(&task.ask, 5, |_| true)
                                .iter()
                                .map(|hit| operation_id(tools[hit.tool]))
                                .collect();
                            eprintln!(
                                "{file} {name}: {:?} rank {rank:?} want {:?} got {got:?}",
                                task.ask, task.serves
                            );
                        }
                    }
                }
            }
            println!("{row}");
        }
    }
}
