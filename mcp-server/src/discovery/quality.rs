//! How well the ranking finds the tool a request wants, measured on the
//! task sets in `testdata/discovery/`, and what each signal contributes.
//!
//! The sets: `discovery_tasks_corpus.yaml` (eight documents, each split by
//! position into a development half, the odd tasks, and a test half, the
//! even ones; DigitalOcean, Jira and OpenAI are never developed on), and
//! GitHub's and Stripe's older sets (`discovery_tasks.yaml`, developed on;
//! `discovery_tasks_held_out.yaml`; `discovery_tasks_fresh.yaml`).
//!
//! Slow in a debug build, so not run by default: `cargo xtask discovery`
//! runs them in release with their tables printed
//! (`evaluation`: recall@1, @5 and @20 per document and half; `ablation`:
//! the same with each signal off alone). `DISCOVERY_MISSES=1` prints the
//! misses of the development halves of the documents developed on, and
//! only those: the test halves and the never-developed documents are
//! measured, never looked into. `DISCOVERY_DOCUMENTS=github,stripe`
//! measures some documents only.

use std::collections::HashMap;
use std::sync::Arc;

use mcp_core::{Tool, ToolDef};
use mcp_openapi::{ClientConfig, OpenApi};
use serde::Deserialize;

use super::document::OPENAPI_META_KEY;
use super::index::SearchIndex;
use super::signals::Signals;

#[derive(Debug, Deserialize)]
pub(crate) struct Task {
    pub(crate) ask: String,
    pub(crate) serves: Vec<String>,
}

/// The labels of the corpus task set and their documents.
pub(crate) const DOCUMENTS: [(&str, &str); 8] = [
    ("github", "github-api.github.com.json"),
    ("stripe", "stripe-spec3.json"),
    ("kubernetes", "kubernetes-apisguru.json"),
    ("jira", "jira-apisguru.json"),
    ("discord", "discord.json"),
    ("box", "box.json"),
    ("digitalocean", "digitalocean-apisguru.json"),
    ("openai", "openai.yaml"),
];

/// The documents whose tasks are never developed on, neither half.
pub(crate) const NEVER_DEVELOPED: [&str; 3] = ["digitalocean", "jira", "openai"];

/// The corpus task set.
pub(crate) const CORPUS_TASKS: &str = "discovery_tasks_corpus.yaml";

/// GitHub's and Stripe's older sets, and whether the ranking was developed
/// on each.
const OLDER_SETS: [(&str, bool); 3] = [
    ("discovery_tasks.yaml", true),
    ("discovery_tasks_held_out.yaml", false),
    ("discovery_tasks_fresh.yaml", false),
];

/// The ranks looked at: a hit within the first 1, 5 and 20.
const CUTOFFS: [usize; 3] = [1, 5, 20];

/// A task set: each document's tasks, by label.
type TaskSet = HashMap<String, Vec<Task>>;

pub(crate) fn read_tasks(file: &str) -> TaskSet {
    let path = testdata::discovery_tasks(file);
    let text = std::fs::read_to_string(&path).expect("the task file reads");
    serde_saphyr::from_str(&text).expect("the task file parses")
}

/// The development half (odd positions, counting from one) and the test
/// half of `tasks`.
pub(crate) fn halves<T>(tasks: &[T]) -> (Vec<&T>, Vec<&T>) {
    let development = tasks.iter().step_by(2).collect();
    let test = tasks.iter().skip(1).step_by(2).collect();
    (development, test)
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

/// The rank of the first tool serving `task` (`None`: not in the top 20).
fn rank(index: &SearchIndex, tools: &[&Tool], task: &Task) -> Option<usize> {
    index
        .search(&task.ask, CUTOFFS[2], |_| true)
        .iter()
        .position(|hit| {
            task.serves
                .iter()
                .any(|id| id == operation_id(tools[hit.tool]))
        })
}

/// Tasks found within each cutoff, and tasks measured.
#[derive(Clone, Copy, Default)]
struct Recall {
    found: [usize; 3],
    tasks: usize,
}

impl Recall {
    fn add(&mut self, rank: Option<usize>) {
        self.tasks += 1;
        for (found, cutoff) in self.found.iter_mut().zip(CUTOFFS) {
            *found += usize::from(rank.is_some_and(|rank| rank < cutoff));
        }
    }

    fn merge(&mut self, other: Recall) {
        self.tasks += other.tasks;
        for (found, more) in self.found.iter_mut().zip(other.found) {
            *found += more;
        }
    }

    fn cells(&self) -> String {
        let total = self.tasks.max(1) as f64;
        self.found
            .iter()
            .map(|found| format!(" {:.0} % |", *found as f64 / total * 100.0))
            .collect()
    }
}

/// One document ready to search.
struct Document {
    label: &'static str,
    defs: Vec<ToolDef>,
}

fn documents() -> Vec<Document> {
    let only = std::env::var("DISCOVERY_DOCUMENTS").ok();
    DOCUMENTS
        .iter()
        .filter(|(label, _)| {
            only.as_deref()
                .is_none_or(|only| only.split(',').any(|wanted| wanted == *label))
        })
        .map(|&(label, file)| Document {
            label,
            defs: tools(file),
        })
        .collect()
}

/// The rows of one ranking: per document and half, then pooled.
fn measure(documents: &[Document], signals: Signals, verbose: bool) -> Vec<(String, Recall)> {
    let corpus = read_tasks(CORPUS_TASKS);
    let older: Vec<(&str, bool, TaskSet)> = OLDER_SETS
        .iter()
        .map(|&(file, developed)| (file, developed, read_tasks(file)))
        .collect();
    let mut rows = Vec::new();
    let (mut developed_test, mut never_test) = (Recall::default(), Recall::default());
    for document in documents {
        let tools: Vec<&Tool> = document.defs.iter().map(ToolDef::tool).collect();
        let index = SearchIndex::with_signals(tools.iter().copied(), signals);
        let never = NEVER_DEVELOPED.contains(&document.label);
        let tasks = corpus.get(document.label).map_or(&[][..], Vec::as_slice);
        let (development, test) = halves(tasks);
        for (half, tasks, developed) in
            [("development", development, !never), ("test", test, false)]
        {
            let mut recall = Recall::default();
            for task in tasks {
                let rank = rank(&index, &tools, task);
                recall.add(rank);
                if verbose && developed && rank != Some(0) {
                    print_miss(&index, &tools, document.label, task, rank);
                }
            }
            if half == "test" {
                if never {
                    never_test.merge(recall);
                } else {
                    developed_test.merge(recall);
                }
            }
            let never = if never { " (never developed on)" } else { "" };
            rows.push((format!("{}{never} | {half}", document.label), recall));
        }
        for (file, developed, sets) in &older {
            let Some(tasks) = sets.get(document.label) else {
                continue;
            };
            let mut recall = Recall::default();
            for task in tasks {
                let rank = rank(&index, &tools, task);
                recall.add(rank);
                if verbose && *developed && rank != Some(0) {
                    print_miss(&index, &tools, document.label, task, rank);
                }
            }
            rows.push((format!("{} | {file}", document.label), recall));
        }
    }
    rows.push((
        "documents developed on | test halves".to_owned(),
        developed_test,
    ));
    rows.push((
        "documents never developed on | test halves".to_owned(),
        never_test,
    ));
    rows
}

fn print_miss(index: &SearchIndex, tools: &[&Tool], label: &str, task: &Task, rank: Option<usize>) {
    let got: Vec<&str> = index
        .search(&task.ask, 5, |_| true)
        .iter()
        .map(|hit| operation_id(tools[hit.tool]))
        .collect();
    eprintln!(
        "{label}: {:?} rank {rank:?} want {:?} got {got:?}",
        task.ask, task.serves
    );
}

#[test]
fn halves_alternate() {
    let (development, test) = halves(&[1, 2, 3, 4, 5]);
    assert_eq!(development, [&1, &3, &5]);
    assert_eq!(test, [&2, &4]);
}

#[test]
#[ignore = "slow in debug builds: `cargo xtask discovery`"]
fn evaluation() {
    let documents = documents();
    let verbose = std::env::var_os("DISCOVERY_MISSES").is_some();
    println!("| document | half or set | tasks | recall@1 | recall@5 | recall@20 |");
    println!("|---|---|---:|---:|---:|---:|");
    for (row, recall) in measure(&documents, Signals::default(), verbose) {
        println!("| {row} | {} |{}", recall.tasks, recall.cells());
    }
}

#[test]
#[ignore = "slow in debug builds: `cargo xtask discovery`"]
fn ablation() {
    let documents = documents();
    println!("| signals | document | half or set | tasks | recall@1 | recall@5 | recall@20 |");
    println!("|---|---|---|---:|---:|---:|---:|");
    for (label, signals) in Signals::ablations() {
        for (row, recall) in measure(&documents, signals, false) {
            println!("| {label} | {row} | {} |{}", recall.tasks, recall.cells());
        }
    }
}
