//! GET routes mapped to resources and resource templates (RFC 6570 URI templates).

use std::sync::Arc;

use iri_string::template::UriTemplateStr;
use serde_json::{Map, Value};

use crate::generate::generator::Customization;
use crate::{
    ArgumentBinding, ArgumentTarget, HttpRoute, ParameterLocation, RequestBinding, SpecError,
};

/// The URI scheme of generated resources.
pub const RESOURCE_SCHEME: &str = "resource";

/// A GET route without path parameters, listed by `resources/list`.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct GeneratedResource {
    /// `resource://{name}`.
    pub uri: String,
    /// The resource name.
    pub name: String,
    /// The display title.
    pub title: Option<String>,
    /// The description.
    pub description: String,
    /// The media type of the first 2xx response, when declared.
    pub mime_type: Option<String>,
    /// `_meta` entries.
    pub meta: Map<String, Value>,
    /// The route read.
    pub route: Arc<HttpRoute>,
    /// No arguments: an empty binding.
    pub binding: RequestBinding,
}

/// A GET route whose path (and query) parameters fill an RFC 6570 URI template.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct GeneratedResourceTemplate {
    /// `resource://{name}/{a}/{b}{?q,r}`: path parameters, then query parameters.
    pub uri_template: String,
    /// The template name.
    pub name: String,
    /// The display title.
    pub title: Option<String>,
    /// The description.
    pub description: String,
    /// The media type of the first 2xx response, when declared.
    pub mime_type: Option<String>,
    /// `_meta` entries.
    pub meta: Map<String, Value>,
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

pub(crate) fn resource(
    route: &Arc<HttpRoute>,
    custom: Customization,
) -> Result<GeneratedResource, SpecError> {
    Ok(GeneratedResource {
        uri: format!("{RESOURCE_SCHEME}://{}", custom.name),
        name: custom.name,
        title: custom.title,
        description: custom.description,
        mime_type: mime_type(route),
        meta: custom.meta,
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
            target: ArgumentTarget::Parameter(index),
        });
    }
    if !query.is_empty() {
        uri.push_str(&format!("{{?{}}}", query.join(",")));
    }
    UriTemplateStr::new(&uri)
        .map_err(|e| SpecError::invalid(&route.pointer, format!("uri template `{uri}`: {e}")))?;
    Ok(GeneratedResourceTemplate {
        uri_template: uri,
        name: custom.name,
        title: custom.title,
        description: custom.description,
        mime_type: mime_type(route),
        meta: custom.meta,
        route: route.clone(),
        binding,
    })
}
