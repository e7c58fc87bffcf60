//! The ranking of `search_tools` on tasks phrased as people ask them
//! (`tests/fixtures/discovery_tasks.yaml`), against the real GitHub and
//! Stripe documents.

use std::collections::HashMap;
use std::time::Instant;

use mcp_core::ToolDef;
use mcp_openapi::{ClientConfig, OpenApi};
use mcp_server::Server;
use serde::Deserialize;

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

fn tasks() -> Tasks {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/discovery_tasks.yaml"
    );
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

#[test]
fn tasks_find_their_tools() {
    let tasks = tasks();
    assert!(tasks.github.len() + tasks.stripe.len() >= 40);
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
    let (github_1, github_5) = recall("github", &github, &tasks.github);
    let (stripe_1, stripe_5) = recall("stripe", &stripe, &tasks.stripe);
    eprintln!(
        "github recall@1 {github_1:.2} @5 {github_5:.2}; stripe recall@1 {stripe_1:.2} @5 {stripe_5:.2}"
    );
    let all = (tasks.github.len() + tasks.stripe.len()) as f64;
    let at_1 = (github_1 * tasks.github.len() as f64 + stripe_1 * tasks.stripe.len() as f64) / all;
    let at_5 = (github_5 * tasks.github.len() as f64 + stripe_5 * tasks.stripe.len() as f64) / all;
    // Floors at what the ranking reaches today (0.89 and 0.53), so that a
    // change that loses tasks fails; the aim is 0.95 and 0.75.
    assert!(at_5 >= 0.87, "recall@5 {at_5:.2} fell below 0.87");
    assert!(at_1 >= 0.50, "recall@1 {at_1:.2} fell below 0.50");
}
