//! Snapshots of Petstore tools and of hard-shaped GitHub / Stripe operations.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use mcp_openapi::route_map::RouteKind;
use mcp_openapi::{Generated, OpenApi, RouteMap};
use serde_json::Value;

/// Loads a corpus document once per test binary.
fn api(name: &str) -> Arc<OpenApi> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<OpenApi>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Mutex::default);
    let mut cache = cache.lock().unwrap();
    cache
        .entry(name.to_owned())
        .or_insert_with(|| Arc::new(OpenApi::from_path(crate::corpus(name)).unwrap()))
        .clone()
}

fn generated(name: &str) -> Arc<(OpenApi, Generated)> {
    let api = OpenApi::from_path(crate::corpus(name)).unwrap();
    let generated = api.generator().generate().unwrap();
    Arc::new((api, generated))
}

/// Tools whose output schema reaches hundreds of definitions (Stripe's
/// expandable objects) are snapshotted with the `$defs` names only.
fn digest(mut tool: Value) -> Value {
    if serde_json::to_vec(&tool).unwrap().len() > 100_000
        && let Some(defs) = tool.pointer_mut("/outputSchema/$defs")
    {
        let names: Vec<Value> = defs
            .as_object()
            .unwrap()
            .keys()
            .map(|k| Value::from(k.as_str()))
            .collect();
        *defs = Value::Array(names);
    }
    tool
}

/// The tool of one operation (route maps leave every other operation out),
/// with its whole output schema: these snapshots show lowering, and
/// `output_budget.rs` tests the budget.
fn tool(doc: &str, operation_id: &str) -> Value {
    let api = api(doc);
    let only = RouteMap::new(RouteKind::Tool).operation_ids([operation_id]);
    let out = api
        .generator()
        .output_budget(None)
        .route_maps([only, RouteMap::new(RouteKind::Exclude)])
        .generate()
        .unwrap();
    assert_eq!(out.tools.len(), 1, "{doc}: no tool for {operation_id}");
    digest(serde_json::to_value(&out.tools[0].tool).unwrap())
}

#[test]
fn petstore_tools() {
    let entry = generated("petstore.yaml");
    let tools: Vec<Value> = entry
        .1
        .tools
        .iter()
        .map(|t| serde_json::to_value(&t.tool).unwrap())
        .collect();
    assert_eq!(tools.len(), 3);
    insta::assert_json_snapshot!("petstore", tools);
}

#[test]
fn petstore_swagger2_matches_the_3_0_shape() {
    let entry = generated("petstore-swagger2.json");
    let tools: Vec<Value> = entry
        .1
        .tools
        .iter()
        .map(|t| serde_json::to_value(&t.tool).unwrap())
        .collect();
    insta::assert_json_snapshot!("petstore_swagger2", tools);
}

#[test]
fn github_hard_operations() {
    // oneOf fields in a JSON body, a path/body collision-free flattening, nullable refs.
    insta::assert_json_snapshot!(
        "github_issues_create",
        tool("github-api.github.com.json", "issues/create")
    );
    // Body, path and query parameters together; an array output (wrapped).
    insta::assert_json_snapshot!(
        "github_issues_add_labels",
        tool("github-api.github.com.json", "issues/add-labels")
    );
    // A header parameter.
    insta::assert_json_snapshot!(
        "github_markdown_render_raw",
        tool("github-api.github.com.json", "markdown/render-raw")
    );
}

#[test]
fn stripe_hard_operations() {
    // A form-urlencoded body with anyOf fields and an expandable (cyclic) output.
    insta::assert_json_snapshot!(
        "stripe_post_customers_customer_sources",
        tool("stripe-spec3.json", "PostCustomersCustomerSources")
    );
    insta::assert_json_snapshot!(
        "stripe_get_balance",
        tool("stripe-spec3.json", "GetBalance")
    );
}
