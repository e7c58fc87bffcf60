//! Reading the small objects of an operation: servers, encodings, styles,
//! parameter merging and descriptions, strings and extensions.

use serde_json::{Map, Value};

use crate::document::reference_metadata::ReferenceMetadata;
use crate::error::SpecError;
use crate::ir::{
    EncodingInfo, HttpMethod, HttpRoute, ParameterInfo, ParameterStyle, RequestBodyInfo,
    ResponseInfo, SecurityRequirement, ServerInfo, ServerVariable,
};

pub(crate) fn pick(value: Option<&Value>) -> Option<&Vec<Value>> {
    value.and_then(Value::as_array).filter(|a| !a.is_empty())
}

pub(crate) fn server(object: &Map<String, Value>) -> Option<ServerInfo> {
    let variables = object
        .get("variables")
        .and_then(Value::as_object)
        .map(|vars| {
            vars.iter()
                .filter_map(|(name, var)| {
                    Some((
                        name.clone(),
                        ServerVariable {
                            default: scalar_text(var.get("default")?),
                            allowed: var
                                .get("enum")
                                .and_then(Value::as_array)
                                .map(|e| e.iter().map(scalar_text).collect())
                                .unwrap_or_default(),
                            description: var
                                .get("description")
                                .and_then(Value::as_str)
                                .map(str::to_owned),
                        },
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    Some(ServerInfo {
        url: object.get("url")?.as_str()?.to_owned(),
        description: text(object, "description"),
        variables,
    })
}

fn scalar_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

pub(crate) fn encoding(value: &Value) -> EncodingInfo {
    EncodingInfo {
        content_type: value
            .get("contentType")
            .and_then(Value::as_str)
            .map(str::to_owned),
        style: value
            .get("style")
            .and_then(Value::as_str)
            .and_then(parse_style),
        explode: value.get("explode").and_then(Value::as_bool),
        allow_reserved: value
            .get("allowReserved")
            .and_then(Value::as_bool)
            .unwrap_or(false),
    }
}

/// The operation wins over the path item on name + location.
pub(crate) fn merge_parameter(parameters: &mut Vec<ParameterInfo>, info: ParameterInfo) {
    match parameters
        .iter_mut()
        .find(|p| p.name == info.name && p.location == info.location)
    {
        Some(existing) => *existing = info,
        None => parameters.push(info),
    }
}

/// A parameter's description with reference metadata precedence applied.
pub(crate) fn describe(meta: &ReferenceMetadata, name: &str, own: Option<&str>) -> Option<String> {
    if meta.is_empty() {
        own.map(str::to_owned)
    } else {
        meta.enhance_parameter_description(name, own)
    }
}

pub(crate) fn parse_style(style: &str) -> Option<ParameterStyle> {
    Some(match style {
        "matrix" => ParameterStyle::Matrix,
        "label" => ParameterStyle::Label,
        "simple" => ParameterStyle::Simple,
        "form" => ParameterStyle::Form,
        "spaceDelimited" => ParameterStyle::SpaceDelimited,
        "pipeDelimited" => ParameterStyle::PipeDelimited,
        "deepObject" => ParameterStyle::DeepObject,
        _ => return None,
    })
}

pub(crate) fn missing(at: &str, field: &'static str) -> SpecError {
    SpecError::Missing {
        pointer: at.to_owned(),
        field,
    }
}

fn text(object: &Map<String, Value>, key: &str) -> Option<String> {
    object
        .get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
        .map(str::to_owned)
}

pub(crate) fn strings(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

fn extensions(object: &Map<String, Value>) -> Map<String, Value> {
    object
        .iter()
        .filter(|(k, _)| k.starts_with("x-"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// The parts of an operation's route that Swagger 2.0 and OpenAPI 3.x read
/// differently; [`route`] adds the fields both read the same way.
pub(crate) struct RouteParts {
    pub(crate) method: HttpMethod,
    pub(crate) path: String,
    pub(crate) pointer: String,
    pub(crate) parameters: Vec<ParameterInfo>,
    pub(crate) request_body: Option<RequestBodyInfo>,
    pub(crate) responses: Vec<ResponseInfo>,
    pub(crate) security: Vec<SecurityRequirement>,
    pub(crate) servers: Vec<ServerInfo>,
}

/// The route of the operation object `object`.
pub(crate) fn route(object: &Map<String, Value>, parts: RouteParts) -> HttpRoute {
    HttpRoute {
        method: parts.method,
        path: parts.path,
        pointer: parts.pointer,
        operation_id: text(object, "operationId"),
        summary: text(object, "summary"),
        description: text(object, "description"),
        tags: strings(object.get("tags")),
        deprecated: object
            .get("deprecated")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        parameters: parts.parameters,
        request_body: parts.request_body,
        responses: parts.responses,
        security: parts.security,
        servers: parts.servers,
        extensions: extensions(object),
    }
}
