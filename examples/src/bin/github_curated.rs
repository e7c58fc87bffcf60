//! Three tools generated from the GitHub document, reshaped for one
//! repository without touching the document: `owner` and `repo` are hidden
//! behind fixed values, the tools and an argument are renamed, and the issue
//! list keeps three fields of each issue. A `#[tool]` function sits next to
//! them.
//!
//! `gunzip -c testdata/openapi/github-api.github.com.json.gz > github.json`, then
//! `cargo run -p examples --bin github_curated -- --openapi github.json --owner rust-lang --repo rust`
//! serves over stdio; `GITHUB_TOKEN`, when set, is sent as a bearer token.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Parser;
use mcp_core::transform::{ArgTransform, from_tool};
use mcp_core::{ToolDef, tool};
use mcp_openapi::{ClientConfig, OpenApi, RouteKind, RouteMap};
use mcp_server::Server;

/// Serve three GitHub tools curated for one repository.
#[derive(Parser)]
struct Args {
    /// The GitHub OpenAPI document.
    #[arg(long)]
    openapi: PathBuf,
    /// Where the API lives (default: the document's first server).
    #[arg(long)]
    base_url: Option<String>,
    /// The repository's owner.
    #[arg(long, default_value = "acme")]
    owner: String,
    /// The repository.
    #[arg(long, default_value = "widgets")]
    repo: String,
}

/// What this server is about.
#[tool(annotations(read, idempotent, closed_world))]
async fn about() -> String {
    "Issues and labels of one GitHub repository.".to_owned()
}

/// The generated tools of the three operations, by operation id.
fn generated(args: &Args) -> anyhow::Result<Vec<ToolDef>> {
    let api = OpenApi::from_path(&args.openapi)?;
    let wanted = RouteMap::new(RouteKind::Tool).operation_ids([
        "issues/list-for-repo",
        "issues/get",
        "issues/list-labels-for-repo",
    ]);
    let generated = api
        .generator()
        .route_maps([wanted, RouteMap::new(RouteKind::Exclude)])
        // Whole output schemas: `keep_fields` below trims them to what is kept.
        .output_budget(None)
        .generate()?;
    let mut config = ClientConfig::builder();
    if let Some(base_url) = &args.base_url {
        config = config.base_url(base_url.clone());
    }
    if let Ok(token) = std::env::var("GITHUB_TOKEN") {
        config = config.header("Authorization", format!("Bearer {token}"));
    }
    Ok(generated.tool_defs(&Arc::new(config.build()?))?)
}

/// Each generated tool, narrowed to the repository `args` names.
fn curated(args: &Args) -> anyhow::Result<Vec<ToolDef>> {
    let full_name = format!("{}/{}", args.owner, args.repo);
    let mut curated = Vec::new();
    for def in generated(args)? {
        let narrowed = from_tool(def.clone())
            .arg("owner", ArgTransform::new().hide().value(&args.owner))
            .arg("repo", ArgTransform::new().hide().value(&args.repo));
        let narrowed = match def.name() {
            "issues_list-for-repo" => narrowed
                .name("list_issues")
                .description(format!("Lists the issues of {full_name}, newest first."))
                .arg(
                    "state",
                    ArgTransform::new()
                        .rename("status")
                        .enum_values(["open", "closed"])
                        .default_value("open"),
                )
                .keep_fields(["number", "title", "state"]),
            "issues_get" => narrowed
                .name("get_issue")
                .description(format!("One issue of {full_name}, by number."))
                .arg("issue_number", ArgTransform::new().rename("number")),
            "issues_list-labels-for-repo" => narrowed
                .name("list_labels")
                .description(format!("The labels of {full_name}.")),
            other => anyhow::bail!("the route map let through `{other}`"),
        };
        curated.push(narrowed.build()?);
    }
    Ok(curated)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let server = Server::builder()
        .name("github-curated")
        .tool(about_tool()?)
        .tools(curated(&args)?)
        .build()?;
    server.serve_stdio().await?;
    Ok(())
}
