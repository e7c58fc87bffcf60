//! Discovery mode on real documents: recall of the ranking on the task set
//! it was developed on (`testdata/discovery/discovery_tasks.yaml`), on a
//! held-out one (`testdata/discovery/discovery_tasks_held_out.yaml`) and on a
//! fresh one written after the last ranking change
//! (`testdata/discovery/discovery_tasks_fresh.yaml`), the bytes of `tools/list`
//! and of a 5-result `search_tools` answer's text, and the latency of one search
//! (over every set's tasks).
//!
//! It also measures the corpus set
//! (`testdata/discovery/discovery_tasks_corpus.yaml`): per document and per
//! half (development: odd tasks; test: even tasks), recall@1, @5 and @20,
//! as `"bench": "discovery_halves"` lines.
//!
//! `cargo bench -p mcp-toolkit-server --features openapi --bench discovery -- --bench`
//! prints one JSON line per document (`cargo xtask bench` makes its
//! discovery table of them). Without `--bench` (as `cargo test --benches`
//! runs it) it is a smoke test on Petstore: one search, nothing timed.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use mcp_core::ToolDef;
use mcp_openapi::{ClientConfig, OpenApi};
use mcp_server::{Discovery, Server};
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Deserialize)]
struct Task {
    ask: String,
    serves: Vec<String>,
}

/// Searches per latency sample round.
const ROUNDS: usize = 20;

fn tools(document: &str) -> Vec<ToolDef> {
    let api = OpenApi::from_path(testdata::openapi(document)).expect("the document loads");
    let generated = api.generator().generate().expect("the tools generate");
    let config = ClientConfig::builder()
        .base_url("http://127.0.0.1:9")
        .build()
        .expect("the client config builds");
    generated
        .tool_defs(&Arc::new(config))
        .expect("the tool defs build")
}

fn server(document: &str) -> Server {
    Server::builder()
        .tools(tools(document))
        .discovery(Discovery::search())
        .build()
        .expect("the server builds")
}

/// The bytes of the text of the `search_tools` answer to `query` (the
/// structured content as JSON: what a model reading the text gets).
fn answer_bytes(server: &Server, query: &str) -> usize {
    let search = server
        .tool(mcp_server::SEARCH_TOOLS)
        .expect("discovery mode is on");
    let result = block_on(search.call_detached(json!({ "query": query })));
    result.text_content().len()
}

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime")
        .block_on(future)
}

/// The share of `tasks` whose tool `server` ranks first, and in the top 5.
fn recall(server: &Server, ids: &HashMap<String, String>, tasks: &[Task]) -> (f64, f64) {
    let (mut first, mut top5) = (0, 0);
    for task in tasks {
        let found = server.search(&task.ask, 5);
        let rank = found
            .iter()
            .position(|name| ids.get(name).is_some_and(|id| task.serves.contains(id)));
        first += usize::from(rank == Some(0));
        top5 += usize::from(rank.is_some());
    }
    let total = tasks.len().max(1) as f64;
    (first as f64 / total, top5 as f64 / total)
}

/// The task sets of one document: developed on, held out, fresh.
struct TaskSets {
    developed: Vec<Task>,
    held_out: Vec<Task>,
    fresh: Vec<Task>,
}

fn measure(document: &str, label: &str, sets: &TaskSets) -> Value {
    let TaskSets {
        developed: tasks,
        held_out,
        fresh,
    } = sets;
    let server = server(document);
    let ids: HashMap<String, String> = server
        .tools()
        .into_iter()
        .filter_map(|tool| {
            let id = tool
                .meta
                .get("rs.mcp-toolkit/openapi")?
                .get("operationId")?
                .as_str()?
                .to_owned();
            Some((tool.name, id))
        })
        .collect();
    let (at_1, at_5) = recall(&server, &ids, tasks);
    let (held_out_at_1, held_out_at_5) = recall(&server, &ids, held_out);
    let (fresh_at_1, fresh_at_5) = recall(&server, &ids, fresh);
    let developed = tasks.len();
    let tasks: Vec<&Task> = tasks.iter().chain(held_out).chain(fresh).collect();
    let list = json!({ "tools": server.listed_tools() });
    let mut answers: Vec<usize> = tasks
        .iter()
        .map(|task| answer_bytes(&server, &task.ask))
        .collect();
    answers.sort_unstable();
    let mut samples: Vec<f64> = Vec::new();
    for _ in 0..ROUNDS {
        for task in &tasks {
            let started = Instant::now();
            std::hint::black_box(server.search(&task.ask, 5));
            samples.push(started.elapsed().as_secs_f64() * 1e6);
        }
    }
    samples.sort_by(f64::total_cmp);
    json!({
        "bench": "discovery",
        "document": label,
        "tasks": developed,
        "recall_at_1": at_1,
        "recall_at_5": at_5,
        "held_out_tasks": held_out.len(),
        "held_out_recall_at_1": held_out_at_1,
        "held_out_recall_at_5": held_out_at_5,
        "fresh_tasks": fresh.len(),
        "fresh_recall_at_1": fresh_at_1,
        "fresh_recall_at_5": fresh_at_5,
        "list_bytes": list.to_string().len(),
        "answer_bytes_max": answers.iter().max().copied().unwrap_or(0),
        "answer_bytes_median": answers.get(answers.len() / 2).copied().unwrap_or(0),
        "search_us_median": samples.get(samples.len() / 2).copied().unwrap_or(0.0),
        "search_us_p95": samples.get(samples.len() * 95 / 100).copied().unwrap_or(0.0),
    })
}

/// The share of `tasks` found within the first 1, 5 and 20 hits.
fn recall_at(server: &Server, ids: &HashMap<String, String>, tasks: &[&Task]) -> [f64; 3] {
    let mut found = [0_usize; 3];
    for task in tasks {
        let rank = server
            .search(&task.ask, 20)
            .iter()
            .position(|name| ids.get(name).is_some_and(|id| task.serves.contains(id)));
        for (count, cutoff) in found.iter_mut().zip([1, 5, 20]) {
            *count += usize::from(rank.is_some_and(|rank| rank < cutoff));
        }
    }
    let total = tasks.len().max(1) as f64;
    found.map(|count| count as f64 / total)
}

fn operation_ids(server: &Server) -> HashMap<String, String> {
    server
        .tools()
        .into_iter()
        .filter_map(|tool| {
            let id = tool
                .meta
                .get("rs.mcp-toolkit/openapi")?
                .get("operationId")?
                .as_str()?
                .to_owned();
            Some((tool.name, id))
        })
        .collect()
}

/// One line per corpus document and half, then the test halves of the
/// documents never developed on together.
fn measure_halves(corpus: &HashMap<String, Vec<Task>>) {
    let mut never: Vec<(usize, [f64; 3])> = Vec::new();
    for testdata::CorpusDocument {
        label,
        file,
        developed,
    } in testdata::CORPUS_DOCUMENTS
    {
        let Some(tasks) = corpus.get(label) else {
            continue;
        };
        let server = server(file);
        let ids = operation_ids(&server);
        let development: Vec<&Task> = tasks.iter().step_by(2).collect();
        let test: Vec<&Task> = tasks.iter().skip(1).step_by(2).collect();
        let mut answers: Vec<usize> = tasks
            .iter()
            .map(|task| answer_bytes(&server, &task.ask))
            .collect();
        answers.sort_unstable();
        for (half, tasks) in [("development", development), ("test", test)] {
            let recall = recall_at(&server, &ids, &tasks);
            if half == "test" && !developed {
                never.push((tasks.len(), recall));
            }
            println!(
                "{}",
                json!({
                    "bench": "discovery_halves",
                    "document": label,
                    "developed_on": developed,
                    "half": half,
                    "tasks": tasks.len(),
                    "recall_at_1": recall[0],
                    "recall_at_5": recall[1],
                    "recall_at_20": recall[2],
                    "answer_bytes_max": answers.last().copied().unwrap_or(0),
                })
            );
        }
    }
    let tasks: usize = never.iter().map(|(tasks, _)| tasks).sum();
    let pooled = |at: usize| {
        never
            .iter()
            .map(|(count, recall)| *count as f64 * recall[at])
            .sum::<f64>()
            / tasks.max(1) as f64
    };
    println!(
        "{}",
        json!({
            "bench": "discovery_halves",
            "document": "never developed on (pooled)",
            "developed_on": false,
            "half": "test",
            "tasks": tasks,
            "recall_at_1": pooled(0),
            "recall_at_5": pooled(1),
            "recall_at_20": pooled(2),
        })
    );
}

fn main() {
    if !std::env::args().any(|arg| arg == "--bench") {
        let server = server("petstore.yaml");
        let found = server.search("show one pet by its id", 1);
        assert_eq!(found.len(), 1, "a search finds a tool");
        assert!(answer_bytes(&server, "list pets") > 0);
        return;
    }
    let read = |file: &str| -> HashMap<String, Vec<Task>> {
        let path = testdata::discovery_tasks(file);
        let text = std::fs::read_to_string(path).expect("the task file reads");
        serde_saphyr::from_str(&text).expect("the task file parses")
    };
    let mut tasks = read("discovery_tasks.yaml");
    let mut held_out = read("discovery_tasks_held_out.yaml");
    let mut fresh = read("discovery_tasks_fresh.yaml");
    for (document, label) in [
        ("github-api.github.com.json", "github"),
        ("stripe-spec3.json", "stripe"),
    ] {
        let sets = TaskSets {
            developed: tasks.remove(label).unwrap_or_default(),
            held_out: held_out.remove(label).unwrap_or_default(),
            fresh: fresh.remove(label).unwrap_or_default(),
        };
        println!("{}", measure(document, label, &sets));
    }
    measure_halves(&read(testdata::CORPUS_TASKS));
}
