//! `mcp-server demo`: hand-written tools beside the Petstore API.

use std::time::Duration;

use mcp_core::resource::{ResourceDef, resource};
use mcp_core::{ToolCallContext, ToolDef, tool};
use mcp_openapi::OpenApi;
use mcp_server::Server;
use schemars::JsonSchema;
use serde::Serialize;

use super::args::{DemoArgs, SpecArgs, Transport};
use super::error::CliError;
use super::overlay_args::OverlayArgs;
use super::pets_resource::PetsFeed;
use super::serve::{announce, http_config};
use super::{openapi, petstore_api, shared_state};

/// What `countdown` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct Liftoff {
    /// How many steps were counted.
    steps: u32,
}

/// Adds two integers.
#[tool(title = "Add", annotations(read, idempotent, closed_world))]
async fn add(a: i64, b: i64) -> Result<i64, String> {
    a.checked_add(b)
        .ok_or_else(|| "the sum overflows a 64-bit integer".to_owned())
}

/// Counts down from `from` (at most 100) to zero, reporting progress at every step;
/// may run as a task.
#[tool(
    title = "Countdown",
    annotations(read, closed_world),
    execution = "optional"
)]
async fn countdown(from: u32, cx: &ToolCallContext) -> Result<Liftoff, String> {
    if from > 100 {
        return Err(format!("`from` is {from}, at most 100 is allowed"));
    }
    for done in 1..=from {
        tokio::time::sleep(Duration::from_millis(10)).await;
        let message = format!("{} to go", from - done);
        let _ = cx
            .progress(f64::from(done), Some(f64::from(from)), Some(message))
            .await;
    }
    Ok(Liftoff { steps: from })
}

/// The demo's hand-written tools (two `#[tool]` functions).
pub(crate) fn hand_written() -> Result<Vec<ToolDef>, CliError> {
    Ok(vec![add_tool()?.into(), countdown_tool()?])
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
    let (api, api_note) = match args.api {
        Some(api) => (api.clone(), format!("Petstore API: {api}")),
        None => {
            let api = petstore_api::start().await?;
            tracing::info!(%api, "embedded Petstore API ({} bytes of OpenAPI) is up", petstore_api::PETSTORE_YAML.len());
            (api.clone(), format!("Petstore API (embedded): {api}"))
        }
    };
    let document =
        OpenApi::from_slice(petstore_api::PETSTORE_YAML.as_bytes()).map_err(|error| {
            CliError::Spec {
                path: "the embedded Petstore document".to_owned(),
                error,
            }
        })?;
    let specs = SpecArgs {
        openapi: Vec::new(),
        overlays: OverlayArgs::default(),
        base_url: Some(api.clone()),
        headers: Vec::new(),
        route_map: None,
        schema_profile: mcp_openapi::schema::SchemaProfile::Standard,
        output_schema_budget: None,
        code_mode: false,
        max_response_bytes: mcp_openapi::call::DEFAULT_MAX_RESPONSE_BYTES,
        result_fields: false,
        transform: None,
    };
    let petstore = openapi::load(document, "the embedded Petstore document", None, &specs)?;
    let pets = PetsFeed::default();
    let mut builder = Server::builder();
    if let Some(store) = shared_state::connect(args.state.as_deref(), args.transport).await? {
        builder = builder
            .store(store)
            .task_heartbeat(args.serving.task_heartbeat());
    }
    let server = builder
        .name("mcp-server-demo")
        .version(env!("CARGO_PKG_VERSION"))
        .instructions(
            "A demo: the Petstore API's operations as tools (generated from its OpenAPI document), \
             plus `add` (adds integers) and `countdown` (reports progress, may run as a task). \
             Subscribe to `demo://petstore/pets` to hear when `createPets` adds a pet.",
        )
        .source(petstore)
        .tools(hand_written()?)
        .resource(openapi_document()?)
        .resource(pets.resource()?)
        .tool_middleware(pets.middleware())
        .page_size(args.serving.page_size)
        .build()?;
    pets.attach(&server);
    let mut notes = vec![api_note];
    notes.extend(
        server
            .resources()
            .iter()
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
                .bind_http(args.serving.bind, http_config(&args.serving)?)
                .await?;
            let mut banner = vec![
                "MCP endpoint (Streamable HTTP):".to_owned(),
                http.url().to_string(),
            ];
            banner.extend(notes);
            let running = http.run();
            announce(&banner);
            running.await?;
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
