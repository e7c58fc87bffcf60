//! Reading the small objects of an operation: servers, encodings, styles,
//! parameter merging and descriptions, strings and extensions.

use serde_json::{Map, Value};

use crate::ir::*;
use crate::{ReferenceMetadata, SpecError};

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

pub(crate) fn text(object: &Map<String, Value>, key: &str) -> Option<String> {
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

pub(crate) fn extensions(object: &Map<String, Value>) -> Map<String, Value> {
    object
        .iter()
        .filter(|(k, _)| k.starts_with("x-"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}
