//! Tools and resources from `--openapi` documents, through `mcp-openapi`.

use std::path::Path;
use std::sync::Arc;

use mcp_openapi::{ClientConfig, OpenApi, call::SecuritySchemes, route_map::route_maps_from_path};
use mcp_server::ToolSource;

use super::args::{SpecArgs, spec_ref};
use super::error::CliError;

/// The tool set the flags describe: one source per `--openapi` document,
/// with its tools and resources, in flag order.
///
/// This is the one function from flags to tools: `serve` builds its server
/// from it, `tools` prints it, and each reload (`serve --watch`, SIGHUP)
/// runs it again and swaps the result in.
pub(crate) fn tool_sources(specs: &SpecArgs) -> Result<Vec<ToolSource>, CliError> {
    specs
        .openapi
        .iter()
        .map(|raw| load_file(raw, specs))
        .collect()
}

fn spec_error(path: &str) -> impl FnOnce(mcp_openapi::SpecError) -> CliError + '_ {
    move |source| CliError::Spec {
        path: path.to_owned(),
        source,
    }
}

/// Loads one `--openapi [NAME=]SPEC` document.
fn load_file(raw: &str, specs: &SpecArgs) -> Result<ToolSource, CliError> {
    let spec = spec_ref(raw);
    let api = OpenApi::from_path(Path::new(spec.path)).map_err(spec_error(spec.path))?;
    let label = format!("OpenAPI document `{}`", spec.path);
    load(&api, &label, spec.name, specs)
}

/// The tools and resources of `api` as a source called `label`, calling its
/// API as `specs` says.
pub(crate) fn load(
    api: &OpenApi,
    label: &str,
    name: Option<&str>,
    specs: &SpecArgs,
) -> Result<ToolSource, CliError> {
    let mut generator = api.generator().profile(specs.schema_profile);
    if let Some(route_map) = &specs.route_map {
        let path = route_map.to_string_lossy().into_owned();
        generator =
            generator.route_maps(route_maps_from_path(route_map).map_err(spec_error(&path))?);
    }
    let generated = generator.generate().map_err(spec_error(label))?;
    for warning in &generated.warnings {
        tracing::warn!(document = label, "{warning}");
    }
    let mut config = ClientConfig::builder().security_schemes(
        SecuritySchemes::from_components(&api.security_schemes()).map_err(CliError::Client)?,
    );
    if let Some(base_url) = &specs.base_url {
        config = config.base_url(base_url.clone());
    }
    for (header, value) in &specs.headers {
        config = config.header(header.clone(), value.clone());
    }
    let config = Arc::new(config.build().map_err(CliError::Client)?);

    let tools = generated.tool_defs(&config).map_err(spec_error(label))?;
    let resources = generated
        .resource_defs(&config)
        .map_err(spec_error(label))?;
    let mut source = ToolSource::new(label, tools).resources(resources);
    if let Some(name) = name {
        source = source.prefix(format!("{name}_"));
    }
    Ok(source)
}

/// Prints the routes of the document at `path`, one JSON line each.
pub(crate) fn routes(path: &str) -> Result<Vec<String>, CliError> {
    let api = OpenApi::from_path(Path::new(path)).map_err(spec_error(path))?;
    api.routes()
        .iter()
        .map(|route| {
            serde_json::to_string(&**route).map_err(|error| CliError::Output(error.into()))
        })
        .collect()
}
