//! GET routes mapped to resources and resource templates (RFC 6570 URI templates).

use std::sync::Arc;

use iri_string::template::UriTemplateStr;
use mcp_core::{
    Meta,
    resource::{Resource, ResourceTemplate},
};

use crate::error::SpecError;
use crate::generate::customization::Customization;
use crate::ir::{ArgumentBinding, HttpRoute, ParameterLocation, RequestBinding, RequestPart};

/// The URI scheme of generated resources.
const RESOURCE_SCHEME: &str = "resource";

/// A GET route without path parameters, listed by `resources/list`.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct GeneratedResource {
    /// The resource as `resources/list` shows it: `resource://{name}`, the
    /// media type of the first 2xx response (when declared), the metadata.
    pub resource: Resource,
    /// The route read.
    pub route: Arc<HttpRoute>,
    /// No arguments: an empty binding.
    pub binding: RequestBinding,
}

/// A GET route whose path (and query) parameters fill an RFC 6570 URI template.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct GeneratedResourceTemplate {
    /// The template as `resources/templates/list` shows it:
    /// `resource://{name}/{a}/{b}{?q,r}` (path parameters, then query
    /// parameters), the media type of the first 2xx response (when
    /// declared), the metadata.
    pub template: ResourceTemplate,
    /// The route read.
    pub route: Arc<HttpRoute>,
    /// Template variables (as properties) to route parameters.
    pub binding: RequestBinding,
}

fn mime_type(route: &HttpRoute) -> Option<String> {
    route
        .responses
        .iter()
        .filter(|r| r.status.starts_with('2'))
        .find_map(|r| r.content.first())
        .map(|m| m.media_type.clone())
}

fn empty_binding() -> RequestBinding {
    RequestBinding {
        arguments: Vec::new(),
        body_media_type: None,
        output_wrapped: false,
    }
}

/// The resource of a GET route without path parameters.
pub(crate) fn resource(
    route: &Arc<HttpRoute>,
    custom: Customization,
) -> Result<GeneratedResource, SpecError> {
    let uri = format!("{RESOURCE_SCHEME}://{}", custom.name);
    let mut resource = Resource::new(uri, custom.name);
    resource.title = custom.title;
    resource.description = Some(custom.description);
    resource.mime_type = mime_type(route);
    // `_meta` keys are checked when the resource is served.
    resource.meta = Meta::from_wire(custom.meta);
    Ok(GeneratedResource {
        resource,
        route: route.clone(),
        binding: empty_binding(),
    })
}

/// An RFC 6570 variable name for a parameter name (`varchar` = ALPHA / DIGIT / `_`, `.` inside).
fn varname(name: &str) -> String {
    let out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let out = out.trim_matches('.').to_owned();
    if out.is_empty() { "_".to_owned() } else { out }
}

/// The resource template of a GET route: path parameters, then query
/// parameters, become its variables.
pub(crate) fn template(
    route: &Arc<HttpRoute>,
    custom: Customization,
) -> Result<GeneratedResourceTemplate, SpecError> {
    let mut uri = format!("{RESOURCE_SCHEME}://{}", custom.name);
    let mut binding = empty_binding();
    let mut query = Vec::new();
    for (index, parameter) in route.parameters.iter().enumerate() {
        let var = varname(&parameter.name);
        match parameter.location {
            ParameterLocation::Path => uri.push_str(&format!("/{{{var}}}")),
            ParameterLocation::Query => query.push(var.clone()),
            ParameterLocation::Header | ParameterLocation::Cookie => continue,
        }
        binding.arguments.push(ArgumentBinding {
            property: var,
            target: RequestPart::Parameter(index),
        });
    }
    if !query.is_empty() {
        uri.push_str(&format!("{{?{}}}", query.join(",")));
    }
    UriTemplateStr::new(&uri)
        .map_err(|e| SpecError::invalid(&route.pointer, format!("uri template `{uri}`: {e}")))?;
    let mut template = ResourceTemplate::new(uri, custom.name);
    template.title = custom.title;
    template.description = Some(custom.description);
    template.mime_type = mime_type(route);
    // `_meta` keys are checked when the template is served.
    template.meta = Meta::from_wire(custom.meta);
    Ok(GeneratedResourceTemplate {
        template,
        route: route.clone(),
        binding,
    })
}
