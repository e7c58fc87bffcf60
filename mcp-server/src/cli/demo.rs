//! `mcp-server demo`: hand-written tools beside the Petstore API.

use std::time::Duration;

use mcp_core::{Hint, ResourceDef, ToolCallContext, ToolDef, resource, tool};
use mcp_openapi::OpenApi;
use mcp_server::Server;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::args::SpecArgs;
use super::args::{DemoArgs, Transport};
use super::run::http_config;
use super::{CliError, openapi, petstore_api};

/// The arguments of `add`.
#[derive(Debug, Deserialize, JsonSchema)]
struct AddArgs {
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
}

/// The arguments of `countdown`.
#[derive(Debug, Deserialize, JsonSchema)]
struct CountdownArgs {
    /// Where to start (at most 100).
    from: u32,
}

/// What `countdown` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct Liftoff {
    /// How many steps were counted.
    steps: u32,
}

/// The demo's hand-written tools.
pub(crate) fn hand_written() -> Result<Vec<ToolDef>, CliError> {
    let add = tool("add")
        .title("Add")
        .description("Adds two integers.")
        .annotations([Hint::Read, Hint::Idempotent, Hint::ClosedWorld])
        .input::<AddArgs>()
        .output::<i64>()
        .run(|args: AddArgs| async move {
            args.a
                .checked_add(args.b)
                .ok_or_else(|| "the sum overflows a 64-bit integer".to_owned())
        })?;
    let countdown = tool("countdown")
        .title("Countdown")
        .description("Counts down from `from` to zero, reporting progress at every step.")
        .annotations([Hint::Read, Hint::ClosedWorld])
        .input::<CountdownArgs>()
        .output::<Liftoff>()
        .run(|args: CountdownArgs, cx: ToolCallContext| async move {
            if args.from > 100 {
                return Err(format!("`from` is {}, at most 100 is allowed", args.from));
            }
            for done in 1..=args.from {
                tokio::time::sleep(Duration::from_millis(10)).await;
                let message = format!("{} to go", args.from - done);
                let _ = cx
                    .progress(f64::from(done), Some(f64::from(args.from)), Some(message))
                    .await;
            }
            Ok(Liftoff { steps: args.from })
        })?;
    Ok(vec![add, countdown])
}

/// The embedded OpenAPI document, as a resource.
fn openapi_document() -> Result<ResourceDef, CliError> {
    Ok(resource("demo://petstore/openapi.yaml", "petstore-openapi")
        .title("Petstore OpenAPI document")
        .description("The OpenAPI document the demo's Petstore API implements.")
        .mime_type("application/yaml")
        .read(|| async { petstore_api::PETSTORE_YAML })?)
}

/// Runs the demo until SIGINT or SIGTERM.
pub(crate) async fn run(args: DemoArgs) -> Result<(), CliError> {
    let api = petstore_api::start().await?;
    tracing::info!(%api, "embedded Petstore API ({} bytes of OpenAPI) is up", petstore_api::PETSTORE_YAML.len());
    let document =
        OpenApi::from_slice(petstore_api::PETSTORE_YAML.as_bytes()).map_err(|source| {
            CliError::Spec {
                path: "the embedded Petstore document".to_owned(),
                source,
            }
        })?;
    let specs = SpecArgs {
        openapi: Vec::new(),
        base_url: Some(api.clone()),
        headers: Vec::new(),
        route_map: None,
    };
    let petstore = openapi::load(&document, "the embedded Petstore document", None, &specs)?;
    let server = Server::builder()
        .name("mcp-server-demo")
        .version(env!("CARGO_PKG_VERSION"))
        .instructions(
            "A demo: the Petstore API's operations as tools (generated from its OpenAPI document), \
             plus `add` (adds integers) and `countdown` (reports progress).",
        )
        .source(petstore.tools)
        .resources(petstore.resources)
        .tools(hand_written()?)
        .resource(openapi_document()?)
        .page_size(args.serving.page_size)
        .build()?;
    let mut notes = vec![format!("Petstore API (embedded): {api}")];
    notes.extend(
        server
            .resources()
            .map(|def| format!("Resource: {}", def.uri())),
    );
    notes.push("Tools:".to_owned());
    notes.extend(server.tools().iter().map(|tool| {
        format!(
            "  {:<12} {}",
            tool.name,
            tool.description.as_deref().unwrap_or_default()
        )
    }));
    match args.transport {
        Transport::Http => {
            let http = server
                .bind_http(args.serving.bind, http_config(&args.serving))
                .await?;
            println!("MCP endpoint (Streamable HTTP):");
            println!("{}", http.url());
            for note in &notes {
                println!("{note}");
            }
            http.run().await?;
        }
        Transport::Stdio => {
            for note in &notes {
                eprintln!("{note}");
            }
            server.serve_stdio().await?;
        }
    }
    Ok(())
}
