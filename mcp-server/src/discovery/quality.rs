//! How well the ranking finds the tool a request wants, measured on the
//! task sets in `testdata/discovery/`, and what each signal contributes.
//!
//! The sets: `discovery_tasks_corpus.yaml` (nine documents, each split by
//! position into a development half, the odd tasks, and a test half, the
//! even ones; DigitalOcean, Jira, OpenAI and Slack are never developed on,
//! see `testdata::CORPUS_DOCUMENTS`), and
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
//! measures some documents only. `ceiling` measures how far weighing the
//! same signals differently could go at all.

mod ceiling;

use std::collections::HashMap;
use std::sync::Arc;

use mcp_core::{Tool, ToolDef};
use mcp_openapi::{ClientConfig, OpenApi, Tag};
use serde::Deserialize;

use super::document::OPENAPI_META_KEY;
use super::index::SearchIndex;
use super::signals::{Signals, Weights};
use super::toolsets::Toolsets;
use crate::ToolSource;
use testdata::{CORPUS_DOCUMENTS, CORPUS_TASKS};

#[derive(Debug, Deserialize)]
pub(crate) struct Task {
    pub(crate) ask: String,
    pub(crate) serves: Vec<String>,
}

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

/// The tools of `document`, and its tags.
fn tools(document: &str) -> (Vec<ToolDef>, Vec<Tag>) {
    let api = OpenApi::from_path(testdata::openapi(document)).expect("the document loads");
    let config = ClientConfig::builder()
        .base_url("http://127.0.0.1:9")
        .build()
        .expect("the client config builds");
    let defs = api
        .generator()
        .generate()
        .expect("the tools generate")
        .tool_defs(&Arc::new(config))
        .expect("the tool defs build");
    (defs, api.tags())
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
    rank_within(index, tools, task, CUTOFFS[2])
}

/// The rank of the first tool serving `task` (`None`: not in the top `limit`).
fn rank_within(index: &SearchIndex, tools: &[&Tool], task: &Task, limit: usize) -> Option<usize> {
    index
        .search(&task.ask, limit, |_| true)
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
    /// Whether the ranking was developed on its development half.
    developed: bool,
    defs: Vec<ToolDef>,
    toolsets: Toolsets,
}

impl Document {
    /// The document's tools, and their index ranking with `signals`.
    fn index(&self, signals: Signals) -> (Vec<&Tool>, SearchIndex) {
        let tools: Vec<&Tool> = self.defs.iter().map(ToolDef::tool).collect();
        let index = SearchIndex::with_signals(tools.iter().copied(), &self.toolsets, signals);
        (tools, index)
    }
}

fn documents() -> Vec<Document> {
    let only = std::env::var("DISCOVERY_DOCUMENTS").ok();
    CORPUS_DOCUMENTS
        .iter()
        .filter(|document| {
            only.as_deref()
                .is_none_or(|only| only.split(',').any(|wanted| wanted == document.label))
        })
        .map(|corpus| {
            let (defs, tags) = tools(corpus.file);
            // The toolsets as an `OpenApiSource` describes them.
            let source = ToolSource::new(corpus.label, defs).describe_tags(&tags);
            let descriptions = source
                .toolset_descriptions
                .iter()
                .map(|(name, description)| (name.as_str(), description.as_str()));
            let toolsets = Toolsets::new(&source.tools, descriptions);
            Document {
                label: corpus.label,
                developed: corpus.developed,
                defs: source.tools,
                toolsets,
            }
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
    // Both halves of the documents never developed on: neither was looked at.
    let mut never_both = Recall::default();
    for document in documents {
        let (tools, index) = document.index(signals);
        let never = !document.developed;
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
            if never {
                never_both.merge(recall);
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
    rows.push((
        "documents never developed on | both halves".to_owned(),
        never_both,
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
    // `DISCOVERY_UNTUNED=1`: with the weights tuning starts from.
    let signals = match std::env::var_os("DISCOVERY_UNTUNED") {
        Some(_) => Signals {
            weights: untuned(),
            ..Signals::default()
        },
        None => Signals::default(),
    };
    for (row, recall) in measure(&documents, signals, verbose) {
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

/// The development data: the development halves of the documents developed
/// on, and the task set GitHub's and Stripe's ranking was developed on.
fn development_tasks(documents: &[Document]) -> Vec<Vec<Task>> {
    let mut corpus = read_tasks(CORPUS_TASKS);
    let mut developed = read_tasks(OLDER_SETS[0].0);
    documents
        .iter()
        .map(|document| {
            if !document.developed {
                return Vec::new();
            }
            let tasks = corpus.remove(document.label).unwrap_or_default();
            let mut chosen: Vec<Task> = tasks.into_iter().step_by(2).collect();
            chosen.extend(developed.remove(document.label).unwrap_or_default());
            chosen
        })
        .collect()
}

/// The score of `weights` on the development data: per task, one point
/// for each of the first 1, 5 and 20 hits it is within.
fn development_score(documents: &[Document], tasks: &[Vec<Task>], weights: Weights) -> usize {
    let signals = Signals {
        weights,
        ..Signals::default()
    };
    let mut score = 0;
    for (document, tasks) in documents.iter().zip(tasks) {
        if tasks.is_empty() {
            continue;
        }
        let (tools, index) = document.index(signals);
        for task in tasks {
            let rank = rank(&index, &tools, task);
            score += CUTOFFS
                .iter()
                .filter(|&&cutoff| rank.is_some_and(|rank| rank < cutoff))
                .count();
        }
    }
    score
}

/// Coordinate ascent of the weights on the development data only (the
/// never-developed documents and every test half are left out): each
/// weight in turn is scaled while that raises the score. Prints the best
/// weights found; `Weights::default` holds them.
#[test]
#[ignore = "slow: `cargo xtask discovery tune`"]
fn tune() {
    let documents: Vec<Document> = documents()
        .into_iter()
        .filter(|document| document.developed)
        .collect();
    let tasks = development_tasks(&documents);
    // `DISCOVERY_TUNE_FROM_DEFAULTS=1`: from the weights in force instead.
    let mut best = match std::env::var_os("DISCOVERY_TUNE_FROM_DEFAULTS") {
        Some(_) => Weights::default(),
        None => untuned(),
    };
    let mut best_score = development_score(&documents, &tasks, best);
    // No step may lose a task of the tuned sets the start finds; the end
    // is checked against what they reached before (`TUNED_FLOORS`).
    let floors = tuned_recall(&documents, best);
    println!("start: {best_score} {best:?}, tuned sets {floors:?} (before: {TUNED_FLOORS:?})");
    let fields = best.fields.len();
    let lexicon = best.lexicon.len();
    for round in 0..2 {
        for parameter in 0..fields + lexicon + 7 {
            for factor in [0.0, 0.5, 0.75, 1.5, 2.0] {
                let mut trial = best;
                let value = slot(&mut trial, parameter);
                *value = if *value == 0.0 && factor > 0.0 {
                    0.25 * factor
                } else {
                    *value * factor
                };
                // Bounds that keep every signal a weighing, never a filter:
                // no weight above 6, shares and factors within (0.25, 1].
                let (low, high) = bounds(parameter);
                if *value > high || *value < low {
                    continue;
                }
                if !keeps_tuned_sets(&documents, trial, &floors) {
                    continue;
                }
                let score = development_score(&documents, &tasks, trial);
                if score > best_score {
                    best_score = score;
                    best = trial;
                    println!("round {round} parameter {parameter}: {best_score} {best:?}");
                }
            }
        }
    }
    println!(
        "best: {best_score} {best:?}, tuned sets {:?} (before: {TUNED_FLOORS:?})",
        tuned_recall(&documents, best)
    );
}

/// The least and the most weight `parameter` may take while tuning.
fn bounds(parameter: usize) -> (f32, f32) {
    let others = Weights::default().fields.len() + Weights::default().lexicon.len();
    match parameter.checked_sub(others) {
        // specificity (a share), coverage (a power), mood (a factor)
        Some(2) => (0.0, 1.0),
        Some(3) => (0.25, 2.0),
        Some(4) => (0.5, 1.0),
        Some(0 | 1 | 5 | 6) => (0.0, 1.0),
        _ => (0.0, 6.0),
    }
}

/// The weight `parameter` of `weights`: the fields', the lexicon's, then
/// the others in their order.
fn slot(weights: &mut Weights, parameter: usize) -> &mut f32 {
    let fields = weights.fields.len();
    let lexicon = weights.lexicon.len();
    match parameter {
        p if p < fields => &mut weights.fields[p],
        p if p < fields + lexicon => &mut weights.lexicon[p - fields],
        p => match p - fields - lexicon {
            0 => &mut weights.synonym,
            1 => &mut weights.part,
            2 => &mut weights.specificity,
            3 => &mut weights.coverage,
            4 => &mut weights.mood,
            5 => &mut weights.feedback,
            _ => &mut weights.intent_of_verb,
        },
    }
}

/// The tasks of the set GitHub's and Stripe's ranking was developed on
/// found first and within 5, per document, with `weights`.
fn tuned_recall(documents: &[Document], weights: Weights) -> Vec<(usize, usize)> {
    let developed = read_tasks(OLDER_SETS[0].0);
    let signals = Signals {
        weights,
        ..Signals::default()
    };
    documents
        .iter()
        .filter_map(|document| {
            let tasks = developed.get(document.label)?;
            let (tools, index) = document.index(signals);
            let ranks: Vec<Option<usize>> = tasks
                .iter()
                .map(|task| rank(&index, &tools, task))
                .collect();
            Some((
                ranks.iter().filter(|rank| **rank == Some(0)).count(),
                ranks
                    .iter()
                    .filter(|rank| rank.is_some_and(|rank| rank < 5))
                    .count(),
            ))
        })
        .collect()
}

/// What the ranking reached on the tuned sets before the document's own
/// words and the lexicon came in (GitHub 26 and 27 of 27 tasks at 1 and 5,
/// Stripe 23 and 26 of 26): tuning may not lose any of it.
const TUNED_FLOORS: [(&str, (usize, usize)); 2] = [("github", (26, 27)), ("stripe", (23, 26))];

/// The weights tuning starts from: the ranking's field weights before
/// tuning, the new fields and the lexicon off.
fn untuned() -> Weights {
    Weights {
        fields: [3.0, 2.0, 1.0, 2.0, 2.5, 1.0, 0.3, 0.3, 0.0, 0.0],
        lexicon: [0.0, 0.0, 0.0],
        ..Weights::default()
    }
}

/// Whether `weights` find at least as many tasks of the tuned sets at 1
/// and at 5 as `floors` (per document, in `documents`' order).
fn keeps_tuned_sets(documents: &[Document], weights: Weights, floors: &[(usize, usize)]) -> bool {
    tuned_recall(documents, weights)
        .iter()
        .zip(floors)
        .all(|(now, floor)| now.0 >= floor.0 && now.1 >= floor.1)
}
