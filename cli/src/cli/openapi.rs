//! Tools and resources from `--openapi` documents, through `mcp-openapi`.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use mcp_core::ToolDef;
use mcp_core::resource::ResourceDef;
use mcp_openapi::{
    ClientConfig, LoadOptions, OpenApi, Tag, call::SecuritySchemes, route_map::route_maps_from_path,
};
use mcp_server::ToolSource;

use super::args::{SpecArgs, spec_ref};
use super::error::CliError;
use super::transform;

/// One document's tools (already prefixed) and resources, before they
/// become a [`ToolSource`].
struct Generated {
    /// The document, for messages; also the source's name, the same on
    /// every reload.
    label: String,
    tools: Vec<ToolDef>,
    resources: Vec<ResourceDef>,
    /// The document's tags, which describe their toolsets.
    tags: Vec<Tag>,
}

impl Generated {
    fn into_source(self) -> ToolSource {
        ToolSource::new(self.label, self.tools)
            .resources(self.resources)
            .describe_tags(&self.tags)
    }
}

/// The tool set the flags describe: one source per `--openapi` document, in
/// flag order. Each document is reshaped by its `--overlay`s, generated and
/// prefixed; then the `--transform` file applies to all tools at once.
///
/// This is the one function from flags to tools: `serve` builds its server
/// from it, `tools` prints it, and each reload (`serve --watch`, SIGHUP)
/// runs it again and swaps the result in.
pub(crate) fn tool_sources(specs: &SpecArgs) -> Result<Vec<ToolSource>, CliError> {
    let transforms = specs
        .transform
        .as_deref()
        .map(|path| transform::read(path).map(|file| (path, file)))
        .transpose()?;
    let mut documents = specs
        .openapi
        .iter()
        .enumerate()
        .map(|(index, raw)| load_file(raw, specs.overlays.of_document(index), specs))
        .collect::<Result<Vec<_>, _>>()?;
    let Some((path, file)) = transforms else {
        return Ok(documents.into_iter().map(Generated::into_source).collect());
    };
    let tools = documents
        .iter_mut()
        .map(|document| std::mem::take(&mut document.tools))
        .collect();
    let tools = transform::apply(path, &file, tools)?;
    for (document, tools) in documents.iter_mut().zip(tools) {
        document.tools = tools;
    }
    Ok(documents.into_iter().map(Generated::into_source).collect())
}

fn spec_error(path: &str) -> impl FnOnce(mcp_openapi::SpecError) -> CliError + '_ {
    move |error| CliError::Spec {
        path: path.to_owned(),
        error,
    }
}

/// Loads one `--openapi [NAME=]SPEC` document with its overlays.
/// Logs, at `info`, how long loading and generating took, how many tools
/// came of it and the memory the process holds then.
fn load_file(raw: &str, overlays: &[PathBuf], specs: &SpecArgs) -> Result<Generated, CliError> {
    let spec = spec_ref(raw);
    let started = Instant::now();
    let api = open(spec.path, overlays)?;
    let loaded = started.elapsed();
    let label = format!("OpenAPI document `{}`", spec.path);
    let generated = generate(api, &label, spec.name, specs)?;
    tracing::info!(
        document = spec.path,
        tools = generated.tools.len(),
        load_ms = loaded.as_millis() as u64,
        generate_ms = (started.elapsed() - loaded).as_millis() as u64,
        resident_mib = resident_mib(),
        "loaded and generated"
    );
    Ok(generated)
}

/// The memory the process holds, in MiB (Linux; `None` elsewhere).
pub(crate) fn resident_mib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// Loads the document at `path`, reshaped by `overlays` in order.
fn open(path: &str, overlays: &[PathBuf]) -> Result<OpenApi, CliError> {
    let options = overlays
        .iter()
        .fold(LoadOptions::new(), |options, overlay| {
            options.overlay(overlay.as_path())
        });
    OpenApi::from_path_with(Path::new(path), &options).map_err(spec_error(path))
}

/// The tools and resources of `api` as a source called `label`, calling its
/// API as `specs` says (`--transform` is not applied: it is for the
/// documents of the command line).
pub(crate) fn load(
    api: OpenApi,
    label: &str,
    name: Option<&str>,
    specs: &SpecArgs,
) -> Result<ToolSource, CliError> {
    generate(api, label, name, specs).map(Generated::into_source)
}

/// The tools (named `NAME_...` when `name` is given) and resources of `api`.
/// The document is let go as soon as the tools are generated, before they
/// get their handlers, so a large document and its tools are not all held
/// at once.
fn generate(
    api: OpenApi,
    label: &str,
    name: Option<&str>,
    specs: &SpecArgs,
) -> Result<Generated, CliError> {
    let mut generator = api
        .generator()
        .profile(specs.schema_profile)
        .output_budget(specs.output_budget())
        .result_fields(specs.result_fields);
    if let Some(route_map) = &specs.route_map {
        let path = route_map.to_string_lossy().into_owned();
        generator =
            generator.route_maps(route_maps_from_path(route_map).map_err(spec_error(&path))?);
    }
    let generated = generator.generate().map_err(spec_error(label))?;
    for warning in &generated.warnings {
        tracing::warn!(document = label, "{warning}");
    }
    let mut config = ClientConfig::builder()
        .security_schemes(
            SecuritySchemes::from_components(&api.security_schemes()).map_err(CliError::Client)?,
        )
        .max_response_bytes(specs.max_response_bytes);
    if let Some(base_url) = &specs.base_url {
        config = config.base_url(base_url.clone());
    }
    for (header, value) in &specs.headers {
        config = config.header(header.clone(), value.clone());
    }
    let config = Arc::new(config.build().map_err(CliError::Client)?);
    let tags = api.tags();
    drop(api);

    let resources = generated
        .resource_defs(&config)
        .map_err(spec_error(label))?;
    let mut tools = generated
        .into_tool_defs(&config)
        .map_err(spec_error(label))?;
    if let Some(name) = name {
        tools = prefixed(tools, &format!("{name}_"), label)?;
    }
    Ok(Generated {
        label: label.to_owned(),
        tools,
        resources,
        tags,
    })
}

/// Renames every tool to `prefix` + its name.
fn prefixed(tools: Vec<ToolDef>, prefix: &str, label: &str) -> Result<Vec<ToolDef>, CliError> {
    tools
        .into_iter()
        .map(|def| {
            let tool = def.name().to_owned();
            def.rename(format!("{prefix}{tool}"))
                .map_err(|error| CliError::Prefix {
                    document: label.to_owned(),
                    prefix: prefix.to_owned(),
                    tool,
                    reason: error.to_string(),
                })
        })
        .collect()
}

/// The routes of the document at `path` reshaped by `overlays`, one JSON line each.
pub(crate) fn routes(path: &str, overlays: &[PathBuf]) -> Result<Vec<String>, CliError> {
    let api = open(path, overlays)?;
    for warning in api.warnings() {
        tracing::warn!(document = path, "{warning}");
    }
    api.routes()
        .iter()
        .map(|route| {
            serde_json::to_string(&**route).map_err(|error| CliError::Output(error.into()))
        })
        .collect()
}
