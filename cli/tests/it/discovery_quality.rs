//! The ranking of `search_tools` on tasks phrased as people ask them,
//! against the real GitHub and Stripe documents: the task set the ranking
//! was developed on (`testdata/discovery/discovery_tasks.yaml`) and a held-out
//! set it was never tuned to (`testdata/discovery/discovery_tasks_held_out.yaml`),
//! and a fresh set written after the ranking's last change and measured
//! once (`testdata/discovery/discovery_tasks_fresh.yaml`); and the corpus
//! set (`testdata/discovery/discovery_tasks_corpus.yaml`): eight documents,
//! each split into a development half (odd tasks) and a test half (even
//! tasks), three of them never developed on.

use std::collections::HashMap;
use std::time::Instant;

use mcp_core::ToolDef;
use mcp_openapi::{ClientConfig, OpenApi};
use mcp_server::{Discovery, Server};
use serde::Deserialize;
use serde_json::json;

#[derive(Debug, Deserialize)]
struct Task {
    ask: String,
    serves: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct Tasks {
    github: Vec<Task>,
    stripe: Vec<Task>,
}

fn tasks(file: &str) -> Tasks {
    let path = testdata::discovery_tasks(file);
    let text = std::fs::read_to_string(path).expect("the task file reads");
    serde_saphyr::from_str(&text).expect("the task file parses")
}

/// The tools generated from the corpus document `name`, as the CLI serves them.
pub(crate) fn generated_tools(name: &str) -> Vec<ToolDef> {
    let api = OpenApi::from_path(testdata::openapi(name)).expect("the document loads");
    let generated = api.generator().generate().expect("the tools generate");
    let config = ClientConfig::builder()
        .base_url("http://127.0.0.1:9")
        .build()
        .expect("the client config builds");
    generated
        .tool_defs(&std::sync::Arc::new(config))
        .expect("the tool defs build")
}

/// The operationId of each tool name.
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

/// Recall at 1 and at 5 of `tasks` on `server`, printing each miss.
fn recall(document: &str, server: &Server, tasks: &[Task]) -> (f64, f64) {
    let ids = operation_ids(server);
    let (mut first, mut top5) = (0, 0);
    for task in tasks {
        let found: Vec<&str> = server
            .search(&task.ask, 5)
            .iter()
            .map(|name| ids.get(name).map_or("?", String::as_str))
            .collect();
        let rank = found
            .iter()
            .position(|id| task.serves.iter().any(|s| s == id));
        match rank {
            Some(0) => {
                first += 1;
                top5 += 1;
            }
            Some(_) => top5 += 1,
            None => {}
        }
        if rank != Some(0) {
            eprintln!(
                "{document}: {:?} rank {rank:?}; want {:?}; got {found:?}",
                task.ask, task.serves
            );
        }
    }
    let total = tasks.len() as f64;
    (first as f64 / total, top5 as f64 / total)
}

/// Recall at 1 and at 5 of each document's tasks in `file`.
struct Recall {
    github: (f64, f64),
    stripe: (f64, f64),
}

fn recall_of(file: &str, github: &Server, stripe: &Server) -> Recall {
    let tasks = tasks(file);
    let recall = Recall {
        github: recall(&format!("{file} github"), github, &tasks.github),
        stripe: recall(&format!("{file} stripe"), stripe, &tasks.stripe),
    };
    eprintln!(
        "{file}: github recall@1 {:.2} @5 {:.2}; stripe recall@1 {:.2} @5 {:.2}",
        recall.github.0, recall.github.1, recall.stripe.0, recall.stripe.1
    );
    recall
}

/// Fails when a recall is below its floor; `floors` are (@1, @5).
fn assert_floors(what: &str, (at_1, at_5): (f64, f64), (floor_1, floor_5): (f64, f64)) {
    assert!(
        at_5 >= floor_5,
        "{what}: recall@5 {at_5:.2} fell below {floor_5}"
    );
    assert!(
        at_1 >= floor_1,
        "{what}: recall@1 {at_1:.2} fell below {floor_1}"
    );
}

#[test]
fn tasks_find_their_tools() {
    assert!(
        tasks("discovery_tasks.yaml").github.len() + tasks("discovery_tasks.yaml").stripe.len()
            >= 40
    );
    let started = Instant::now();
    let github = Server::builder()
        .tools(generated_tools("github-api.github.com.json"))
        .build()
        .unwrap();
    eprintln!("github generated in {:?}", started.elapsed());
    let started = Instant::now();
    let stripe = Server::builder()
        .tools(generated_tools("stripe-spec3.json"))
        .build()
        .unwrap();
    eprintln!("stripe generated in {:?}", started.elapsed());
    // Floors just under what the ranking reaches, so that a change that
    // loses tasks fails.
    let developed = recall_of("discovery_tasks.yaml", &github, &stripe);
    assert_floors("github", developed.github, FLOORS.github);
    assert_floors("stripe", developed.stripe, FLOORS.stripe);
    let held_out = recall_of("discovery_tasks_held_out.yaml", &github, &stripe);
    assert_floors("held-out github", held_out.github, HELD_OUT_FLOORS.github);
    assert_floors("held-out stripe", held_out.stripe, HELD_OUT_FLOORS.stripe);
    let fresh = recall_of("discovery_tasks_fresh.yaml", &github, &stripe);
    assert_floors("fresh github", fresh.github, FRESH_FLOORS.github);
    assert_floors("fresh stripe", fresh.stripe, FRESH_FLOORS.stripe);
}

/// The floors on the task set the ranking was developed on (it reaches
/// 0.93 and 1.00 on GitHub, 0.92 and 1.00 on Stripe; before the ranking
/// read the documents' own words, 0.96 and 0.88 at 1): one task under
/// each, GitHub's at 1 kept where it was.
const FLOORS: Recall = Recall {
    github: (0.92, 0.96),
    stripe: (0.88, 0.96),
};
/// The floors on the held-out task set (it reaches 0.82 and 1.00 on
/// GitHub, 0.90 and 0.95 on Stripe): one task fewer each.
const HELD_OUT_FLOORS: Recall = Recall {
    github: (0.77, 0.95),
    stripe: (0.84, 0.89),
};
/// The floors on the fresh task set (it reaches 0.60 and 1.00 on GitHub,
/// 0.80 and 0.80 on Stripe): one task fewer each.
const FRESH_FLOORS: Recall = Recall {
    github: (0.49, 0.89),
    stripe: (0.69, 0.69),
};

/// Tasks within the first 5 and the first 20 hits, and tasks.
#[derive(Clone, Copy, Default)]
struct Found {
    at_5: usize,
    at_20: usize,
    tasks: usize,
}

impl Found {
    fn percent(&self) -> (f64, f64) {
        let total = self.tasks.max(1) as f64;
        (
            self.at_5 as f64 / total * 100.0,
            self.at_20 as f64 / total * 100.0,
        )
    }
}

fn found(server: &Server, ids: &HashMap<String, String>, tasks: &[&Task]) -> Found {
    let mut found = Found {
        tasks: tasks.len(),
        ..Found::default()
    };
    for task in tasks {
        let rank = server
            .search(&task.ask, 20)
            .iter()
            .position(|name| ids.get(name).is_some_and(|id| task.serves.contains(id)));
        found.at_5 += usize::from(rank.is_some_and(|rank| rank < 5));
        found.at_20 += usize::from(rank.is_some());
    }
    found
}

/// Recall@5 and @20 of each half of each corpus document, and of the test
/// halves of the documents never developed on together, held above floors
/// just under what the ranking reaches.
#[test]
fn corpus_halves_find_their_tools() {
    let path = testdata::discovery_tasks(testdata::CORPUS_TASKS);
    let text = std::fs::read_to_string(path).expect("the task file reads");
    let corpus: HashMap<String, Vec<Task>> =
        serde_saphyr::from_str(&text).expect("the task file parses");
    let mut never = Found::default();
    for testdata::CorpusDocument {
        label,
        file,
        developed,
    } in testdata::CORPUS_DOCUMENTS
    {
        let tasks = &corpus[label];
        assert!(tasks.len() >= 25, "{label}: {} tasks", tasks.len());
        let server = Server::builder()
            .tools(generated_tools(file))
            .discovery(Discovery::search())
            .build()
            .unwrap();
        let ids = operation_ids(&server);
        // Every 5-result answer's text fits 6000 bytes, its next 15
        // candidates named.
        let search = server.tool(mcp_server::SEARCH_TOOLS).unwrap();
        for task in tasks {
            let result = block_on(search.call_detached(json!({"query": task.ask})));
            let text = result.text_content();
            assert!(
                text.len() <= 6000,
                "{label}: {:?} answers {} bytes of text: {text}",
                task.ask,
                text.len()
            );
        }
        let development: Vec<&Task> = tasks.iter().step_by(2).collect();
        let test: Vec<&Task> = tasks.iter().skip(1).step_by(2).collect();
        for (half, tasks) in [("development", development), ("test", test)] {
            let found = found(&server, &ids, &tasks);
            let (at_5, at_20) = found.percent();
            eprintln!("{label} {half}: recall@5 {at_5:.0} % @20 {at_20:.0} %");
            if half == "test" && !developed {
                never.at_5 += found.at_5;
                never.at_20 += found.at_20;
                never.tasks += found.tasks;
            }
            let (floor_5, floor_20) = CORPUS_FLOORS
                .iter()
                .find(|(floor_label, floor_half, _)| *floor_label == label && *floor_half == half)
                .map_or((0.0, 0.0), |(_, _, floors)| *floors);
            assert!(
                at_5 >= floor_5 && at_20 >= floor_20,
                "{label} {half}: recall@5 {at_5:.0} % @20 {at_20:.0} % fell below {floor_5} % / {floor_20} %"
            );
        }
    }
    let (at_5, at_20) = never.percent();
    eprintln!("never developed on, test halves: recall@5 {at_5:.0} % @20 {at_20:.0} %");
    assert!(
        at_5 >= NEVER_DEVELOPED_FLOORS.0 && at_20 >= NEVER_DEVELOPED_FLOORS.1,
        "never developed on, test halves: recall@5 {at_5:.0} % @20 {at_20:.0} %"
    );
}

/// Floors (recall@5, @20, in percent) per corpus document and half, one
/// task under what the ranking reaches.
const CORPUS_FLOORS: [(&str, &str, (f64, f64)); 18] = [
    ("github", "development", (64.2, 71.3)),
    ("github", "test", (49.9, 71.3)),
    ("stripe", "development", (49.9, 71.3)),
    ("stripe", "test", (49.9, 71.3)),
    ("kubernetes", "development", (64.2, 71.3)),
    ("kubernetes", "test", (49.9, 57.0)),
    ("jira", "development", (42.8, 49.9)),
    ("jira", "test", (35.6, 42.8)),
    ("discord", "development", (64.2, 85.6)),
    ("discord", "test", (78.5, 85.6)),
    ("box", "development", (49.9, 71.3)),
    ("box", "test", (49.9, 78.5)),
    ("digitalocean", "development", (57.0, 64.2)),
    ("digitalocean", "test", (64.2, 78.5)),
    ("openai", "development", (42.8, 64.2)),
    ("openai", "test", (57.0, 71.3)),
    ("slack", "development", (49.9, 64.2)),
    ("slack", "test", (57.0, 71.3)),
];

/// Floors of the test halves of the documents never developed on together.
const NEVER_DEVELOPED_FLOORS: (f64, f64) = (58.9, 71.4);

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime")
        .block_on(future)
}
