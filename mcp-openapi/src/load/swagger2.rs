//! Swagger 2.0 operations to the same [`HttpRoute`] IR as OpenAPI 3.x:
//! `body` / `formData` parameters, `consumes` / `produces`,
//! `host` / `basePath` / `schemes`.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::document::pointer::child;
use crate::error::SpecError;
use crate::ir::{
    HttpMethod, HttpRoute, MediaTypeInfo, ParameterInfo, ParameterLocation, ParameterStyle,
    RequestBodyInfo, ResponseInfo, ServerInfo,
};
use crate::load::fields::{RouteParts, describe, merge_parameter, missing, route, strings};
use crate::load::route_reader::{PathItem, RouteReader, parameter_pointers};
use crate::schema::convert::Loc;

/// Keywords of a non-body Swagger parameter that are JSON Schema keywords.
const SCHEMA_KEYS: &[&str] = &[
    "type",
    "format",
    "items",
    "enum",
    "default",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "multipleOf",
    "x-nullable",
    "example",
];

/// Form fields and the body parameter collected from an operation.
#[derive(Default)]
struct Bodies {
    body: Option<(bool, Option<String>, Value)>,
    form: Map<String, Value>,
    form_required: Vec<Value>,
    has_file: bool,
}

impl RouteReader<'_> {
    /// The route of the Swagger 2.0 operation `key` of a path item.
    pub(crate) fn swagger2_operation(
        &mut self,
        item: &PathItem<'_>,
        key: &str,
        method: HttpMethod,
        pointer: &str,
    ) -> Result<HttpRoute, SpecError> {
        let op_ptr = format!("{}/{key}", item.node.pointer);
        let op = self
            .converter
            .docs
            .deref(item.node.doc, &item.node.root, &op_ptr)?;
        let Some(object) = op.value().as_object() else {
            return Err(SpecError::invalid(
                pointer,
                "an operation must be an object",
            ));
        };
        let mut parameters = Vec::new();
        let mut bodies = Bodies::default();
        for (source, param_ptr) in parameter_pointers([&item.node, &op], pointer)? {
            if let Some(info) =
                self.swagger_parameter(source.doc, &source.root, &param_ptr, &mut bodies)?
            {
                merge_parameter(&mut parameters, info);
            }
        }
        let root = self.root.clone();
        let consumes = media_types(object.get("consumes").or_else(|| root.get("consumes")));
        let produces = media_types(object.get("produces").or_else(|| root.get("produces")));
        let request_body = request_body(bodies, &consumes);
        let mut responses = Vec::new();
        if let Some(Value::Object(map)) = object.get("responses") {
            for status in map.keys() {
                let response_ptr = child(&format!("{}/responses", op.pointer), status);
                let node = self.converter.docs.deref(op.doc, &op.root, &response_ptr)?;
                let at = format!("#{}", node.pointer);
                let own = node.value().get("description").and_then(Value::as_str);
                let schema = match node.value().get("schema") {
                    Some(schema) => Some(self.converter.convert(
                        node.doc,
                        schema,
                        Loc::Key(&Loc::Root(&at), "schema"),
                    )?),
                    None => None,
                };
                let content = match schema.map(Arc::new) {
                    Some(schema) => produces
                        .iter()
                        .map(|media| MediaTypeInfo {
                            media_type: media.clone(),
                            schema: Some(schema.clone()),
                            encoding: BTreeMap::new(),
                        })
                        .collect(),
                    None => Vec::new(),
                };
                responses.push(ResponseInfo {
                    status: status.clone(),
                    description: node.meta.merge_with_description(own, false),
                    content,
                });
            }
        }
        Ok(route(
            object,
            RouteParts {
                method,
                path: item.path.to_owned(),
                pointer: pointer.to_owned(),
                parameters,
                request_body,
                responses,
                security: self.security(object),
                servers: swagger_servers(&root),
            },
        ))
    }

    fn swagger_parameter(
        &mut self,
        doc: usize,
        root: &std::sync::Arc<Value>,
        pointer: &str,
        bodies: &mut Bodies,
    ) -> Result<Option<ParameterInfo>, SpecError> {
        let node = self.converter.docs.deref(doc, root, pointer)?;
        let at = format!("#{}", node.pointer);
        let Some(object) = node.value().as_object() else {
            return Err(SpecError::invalid(at, "a parameter must be an object"));
        };
        let name = object
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| missing(&at, "name"))?;
        let location = object
            .get("in")
            .and_then(Value::as_str)
            .ok_or_else(|| missing(&at, "in"))?;
        let own = object.get("description").and_then(Value::as_str);
        let description = describe(&node.meta, name, own);
        let required = object
            .get("required")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        if location == "body" {
            let schema = object.get("schema").ok_or_else(|| missing(&at, "schema"))?;
            let schema =
                self.converter
                    .convert(node.doc, schema, Loc::Key(&Loc::Root(&at), "schema"))?;
            bodies.body = Some((required, description, schema));
            return Ok(None);
        }
        let raw: Map<String, Value> = SCHEMA_KEYS
            .iter()
            .filter_map(|k| object.get(*k).map(|v| ((*k).to_owned(), v.clone())))
            .collect();
        let multi = object
            .get("collectionFormat")
            .and_then(Value::as_str)
            .unwrap_or("csv");
        let schema = self
            .converter
            .convert(node.doc, Value::Object(raw), Loc::Root(&at))?;
        if location == "formData" {
            bodies.has_file |= object.get("type").and_then(Value::as_str) == Some("file");
            let mut schema = schema;
            if let (Some(text), Value::Object(map)) = (description, &mut schema) {
                map.insert("description".to_owned(), text.into());
            }
            bodies.form.insert(name.to_owned(), schema);
            if required {
                bodies.form_required.push(name.into());
            }
            return Ok(None);
        }
        let location = match location {
            "path" => ParameterLocation::Path,
            "query" => ParameterLocation::Query,
            "header" => ParameterLocation::Header,
            other => {
                return Err(SpecError::invalid(
                    at,
                    format!("unknown parameter location `{other}`"),
                ));
            }
        };
        let (style, explode) = match (multi, location) {
            ("multi", _) => (ParameterStyle::Form, true),
            ("ssv", ParameterLocation::Query) => (ParameterStyle::SpaceDelimited, false),
            ("pipes", ParameterLocation::Query) => (ParameterStyle::PipeDelimited, false),
            (_, ParameterLocation::Query) => (ParameterStyle::Form, false),
            (_, other) => (other.default_style(), false),
        };
        Ok(Some(ParameterInfo {
            name: name.to_owned(),
            location,
            required: required || location == ParameterLocation::Path,
            style,
            explode,
            allow_reserved: false,
            schema,
            description,
            deprecated: false,
            content_type: None,
        }))
    }
}

fn media_types(value: Option<&Value>) -> Vec<String> {
    let list = strings(value);
    if list.is_empty() {
        vec!["application/json".to_owned()]
    } else {
        list
    }
}

fn request_body(bodies: Bodies, consumes: &[String]) -> Option<RequestBodyInfo> {
    if let Some((required, description, schema)) = bodies.body {
        let schema = Arc::new(schema);
        let content = consumes
            .iter()
            .filter(|m| !is_form(m))
            .map(|media| MediaTypeInfo {
                media_type: media.clone(),
                schema: Some(schema.clone()),
                encoding: BTreeMap::new(),
            })
            .collect::<Vec<_>>();
        let content = if content.is_empty() {
            vec![MediaTypeInfo {
                media_type: "application/json".to_owned(),
                schema: Some(schema),
                encoding: BTreeMap::new(),
            }]
        } else {
            content
        };
        return Some(RequestBodyInfo {
            required,
            description,
            content,
        });
    }
    if bodies.form.is_empty() {
        return None;
    }
    let multipart = bodies.has_file
        || consumes
            .iter()
            .any(|m| m.starts_with("multipart/form-data"));
    let media = if multipart {
        "multipart/form-data"
    } else {
        "application/x-www-form-urlencoded"
    };
    let required = !bodies.form_required.is_empty();
    let mut schema = Map::new();
    schema.insert("type".to_owned(), "object".into());
    schema.insert("properties".to_owned(), Value::Object(bodies.form));
    if required {
        schema.insert("required".to_owned(), Value::Array(bodies.form_required));
    }
    Some(RequestBodyInfo {
        required,
        description: None,
        content: vec![MediaTypeInfo {
            media_type: media.to_owned(),
            schema: Some(Arc::new(Value::Object(schema))),
            encoding: BTreeMap::new(),
        }],
    })
}

fn is_form(media: &str) -> bool {
    media.starts_with("multipart/form-data")
        || media.starts_with("application/x-www-form-urlencoded")
}

fn swagger_servers(root: &Value) -> Vec<ServerInfo> {
    let base_path = root.get("basePath").and_then(Value::as_str).unwrap_or("");
    let server = |url: String| ServerInfo {
        url,
        description: None,
        variables: BTreeMap::new(),
    };
    let Some(host) = root.get("host").and_then(Value::as_str) else {
        let path = if base_path.is_empty() { "/" } else { base_path };
        return vec![server(path.to_owned())];
    };
    let mut schemes = strings(root.get("schemes"));
    if schemes.is_empty() {
        schemes.push("https".to_owned());
    }
    schemes
        .iter()
        .map(|scheme| server(format!("{scheme}://{host}{base_path}")))
        .collect()
}
