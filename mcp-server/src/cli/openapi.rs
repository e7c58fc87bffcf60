//! Tools and resources from `--openapi` documents, through `mcp-openapi`.

use std::path::Path;
use std::sync::Arc;

use mcp_core::{
    CallToolRequest, JsonObject, ResourceBuilder, ResourceDef, ResourceRequest, Tool,
    ToolCallContext, ToolHandler, resource, resource_template,
};
use mcp_openapi::{ClientConfig, HttpToolHandler, OpenApi, SecuritySchemes, route_maps_from_path};
use mcp_server::ToolSource;
use serde_json::Value;

use super::CliError;
use super::args::SpecArgs;

/// One `--openapi [NAME=]SPEC` argument.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct SpecRef<'a> {
    /// The tool-name prefix (`NAME_`), when given.
    pub(crate) name: Option<&'a str>,
    /// The document's path.
    pub(crate) path: &'a str,
}

/// Splits `NAME=SPEC`; a `=` inside a path (no valid name before it) is part
/// of the path.
pub(crate) fn spec_ref(raw: &str) -> SpecRef<'_> {
    match raw.split_once('=') {
        Some((name, path))
            if !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') =>
        {
            SpecRef {
                name: Some(name),
                path,
            }
        }
        _ => SpecRef {
            name: None,
            path: raw,
        },
    }
}

/// What one document contributes to a server.
#[derive(Debug)]
pub(crate) struct Loaded {
    /// Its tools, prefixed when the argument named the document.
    pub(crate) tools: ToolSource,
    /// Its resources and resource templates (from route maps).
    pub(crate) resources: Vec<ResourceDef>,
}

/// Loads `--openapi` documents from `specs`.
pub(crate) fn load_all(specs: &SpecArgs) -> Result<Vec<Loaded>, CliError> {
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
fn load_file(raw: &str, specs: &SpecArgs) -> Result<Loaded, CliError> {
    let spec = spec_ref(raw);
    let api = OpenApi::from_path(Path::new(spec.path)).map_err(spec_error(spec.path))?;
    let label = format!("OpenAPI document `{}`", spec.path);
    load(&api, &label, spec.name, specs)
}

/// The tools and resources of `api`, calling its API as `specs` says.
pub(crate) fn load(
    api: &OpenApi,
    label: &str,
    name: Option<&str>,
    specs: &SpecArgs,
) -> Result<Loaded, CliError> {
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
    let mut resources = Vec::new();
    for generated in generated.resources {
        let reader = HttpReader::new(
            &generated.name,
            HttpToolHandler::new(generated.route, generated.binding, config.clone()),
        )?;
        let builder = resource(generated.uri, generated.name)
            .description(generated.description)
            .meta_object(generated.meta);
        resources.push(served(
            builder,
            generated.title,
            generated.mime_type,
            reader,
        )?);
    }
    for generated in generated.resource_templates {
        let reader = HttpReader::new(
            &generated.name,
            HttpToolHandler::new(generated.route, generated.binding, config.clone()),
        )?;
        let builder = resource_template(generated.uri_template, generated.name)
            .description(generated.description)
            .meta_object(generated.meta);
        resources.push(served(
            builder,
            generated.title,
            generated.mime_type,
            reader,
        )?);
    }
    let mut source = ToolSource::new(label, tools);
    if let Some(name) = name {
        source = source.prefix(format!("{name}_"));
    }
    Ok(Loaded {
        tools: source,
        resources,
    })
}

/// Reads a generated resource by calling its GET route with the template
/// variables as arguments.
/// A generated resource or template, read through its HTTP call.
fn served(
    mut builder: ResourceBuilder,
    title: Option<String>,
    mime_type: Option<String>,
    reader: HttpReader,
) -> Result<ResourceDef, CliError> {
    if let Some(title) = title {
        builder = builder.title(title);
    }
    if let Some(mime_type) = mime_type {
        builder = builder.mime_type(mime_type);
    }
    Ok(builder.read(move |request: ResourceRequest| reader.read(request))?)
}

struct HttpReader {
    handler: HttpToolHandler,
    tool: Arc<Tool>,
}

impl HttpReader {
    fn new(name: &str, handler: HttpToolHandler) -> Result<Self, CliError> {
        // Template variables arrive as strings: the route binding converts them.
        let tool =
            mcp_core::tool(name.replace(|c: char| !c.is_ascii_alphanumeric(), "_")).build()?;
        Ok(Self {
            handler,
            tool: Arc::new(tool),
        })
    }

    fn read(
        &self,
        request: ResourceRequest,
    ) -> impl Future<Output = Result<String, String>> + Send + use<> {
        let arguments: JsonObject = request
            .variables()
            .iter()
            .map(|(name, value)| (name.clone(), Value::String(value.clone())))
            .collect();
        let call = CallToolRequest::new(self.tool.name.clone(), Some(arguments));
        let result = ToolHandler::<()>::call(
            &self.handler,
            ToolCallContext::new(call, self.tool.clone(), Arc::new(())),
        );
        async move {
            let result = result.await;
            let text = match &result.structured_content {
                Some(value) if result.content.is_empty() => value.to_string(),
                _ => result.text_content(),
            };
            if result.is_error() {
                Err(text)
            } else {
                Ok(text)
            }
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_optional_prefixes() {
        assert_eq!(
            spec_ref("gh=api.json"),
            SpecRef {
                name: Some("gh"),
                path: "api.json"
            }
        );
        assert_eq!(
            spec_ref("api.json"),
            SpecRef {
                name: None,
                path: "api.json"
            }
        );
        assert_eq!(
            spec_ref("./a=b.json"),
            SpecRef {
                name: None,
                path: "./a=b.json"
            }
        );
    }
}
