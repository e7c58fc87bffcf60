//! OpenAPI 3.x operations to [`HttpRoute`]s: path-level parameters merged,
//! `style` / `explode` defaults filled, schemas normalized.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::error::SpecError;
use crate::ir::{
    HttpMethod, HttpRoute, MediaTypeInfo, ParameterInfo, ParameterLocation, ParameterStyle,
    RequestBodyInfo, ResponseInfo, ServerInfo,
};
use crate::load::fields::{
    RouteParts, describe, encoding, merge_parameter, missing, parse_style, pick, route, server,
};
use crate::load::pointer::child;
use crate::load::refs::ResolvedNode;
use crate::load::route_reader::{PathItem, RouteReader, parameter_pointers, shared_key};
use crate::schema::convert::Loc;

impl RouteReader<'_> {
    /// The route of the OpenAPI 3.x operation `key` of a path item.
    pub(crate) fn openapi3_operation(
        &mut self,
        item: &PathItem<'_>,
        key: &str,
        method: HttpMethod,
        pointer: &str,
    ) -> Result<HttpRoute, SpecError> {
        let doc = item.node.doc;
        let op_ptr = format!("{}/{key}", item.node.pointer);
        let op = self.converter.docs.deref(doc, &item.node.root, &op_ptr)?;
        let Some(object) = op.value().as_object() else {
            return Err(SpecError::invalid(
                pointer,
                "an operation must be an object",
            ));
        };
        let mut parameters = Vec::new();
        for (source, param_ptr) in parameter_pointers([&item.node, &op], pointer)? {
            let info = self.parameter(source.doc, &source.root, &param_ptr)?;
            merge_parameter(&mut parameters, info);
        }
        let request_body = match object.get("requestBody") {
            Some(_) => {
                Some(self.request_body(op.doc, &op.root, &format!("{}/requestBody", op.pointer))?)
            }
            None => None,
        };
        let responses = self.responses(&op)?;
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
                servers: self.servers(object, item.node.value()),
            },
        ))
    }

    fn parameter(
        &mut self,
        doc: usize,
        root: &Arc<Value>,
        pointer: &str,
    ) -> Result<ParameterInfo, SpecError> {
        let node = self.converter.docs.deref(doc, root, pointer)?;
        let key = shared_key(&node, doc, pointer);
        if let Some(hit) = key.as_ref().and_then(|k| self.cache.parameters.get(k)) {
            return Ok(hit.clone());
        }
        let info = self.parameter_at(node)?;
        if let Some(key) = key {
            self.cache.parameters.insert(key, info.clone());
        }
        Ok(info)
    }

    fn parameter_at(&mut self, node: ResolvedNode) -> Result<ParameterInfo, SpecError> {
        let at = format!(
            "{}#{}",
            self.converter.docs.doc_name(node.doc),
            node.pointer
        );
        let Some(object) = node.value().as_object() else {
            return Err(SpecError::invalid(at, "a parameter must be an object"));
        };
        let name = object
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| missing(&at, "name"))?;
        let location = match object
            .get("in")
            .and_then(Value::as_str)
            .ok_or_else(|| missing(&at, "in"))?
        {
            "path" => ParameterLocation::Path,
            "query" => ParameterLocation::Query,
            "header" => ParameterLocation::Header,
            "cookie" => ParameterLocation::Cookie,
            other => {
                return Err(SpecError::invalid(
                    at,
                    format!("unknown parameter location `{other}`"),
                ));
            }
        };
        let style = match object.get("style").and_then(Value::as_str) {
            Some(style) => parse_style(style)
                .ok_or_else(|| SpecError::invalid(&at, format!("unknown style `{style}`")))?,
            None => location.default_style(),
        };
        let explode = object
            .get("explode")
            .and_then(Value::as_bool)
            .unwrap_or(style == ParameterStyle::Form);
        let mut content_type = None;
        let mut schema = match object.get("schema") {
            Some(schema) => {
                self.converter
                    .convert(node.doc, schema, Loc::Key(&Loc::Root(&at), "schema"))?
            }
            None => match object
                .get("content")
                .and_then(Value::as_object)
                .and_then(|c| c.iter().next())
            {
                Some((media, media_object)) => {
                    content_type = Some(media.clone());
                    match media_object.get("schema") {
                        Some(schema) => self.converter.convert(node.doc, schema, Loc::Root(&at))?,
                        None => Value::Object(Map::new()),
                    }
                }
                None => Value::Object(Map::new()),
            },
        };
        if let (Some(example), Value::Object(schema)) = (object.get("example"), &mut schema) {
            schema
                .entry("examples")
                .or_insert_with(|| Value::Array(vec![example.clone()]));
        }
        let own = object.get("description").and_then(Value::as_str);
        let description = describe(&node.meta, name, own);
        Ok(ParameterInfo {
            name: name.to_owned(),
            location,
            required: location == ParameterLocation::Path
                || object
                    .get("required")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
            style,
            explode,
            allow_reserved: object
                .get("allowReserved")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            schema,
            description,
            deprecated: object
                .get("deprecated")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            content_type,
        })
    }

    fn request_body(
        &mut self,
        doc: usize,
        root: &Arc<Value>,
        pointer: &str,
    ) -> Result<RequestBodyInfo, SpecError> {
        let node = self.converter.docs.deref(doc, root, pointer)?;
        let at = format!(
            "{}#{}",
            self.converter.docs.doc_name(node.doc),
            node.pointer
        );
        let Some(object) = node.value().as_object() else {
            return Err(SpecError::invalid(at, "a request body must be an object"));
        };
        let own = object.get("description").and_then(Value::as_str);
        Ok(RequestBodyInfo {
            required: object
                .get("required")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            description: node.meta.merge_with_description(own, false),
            content: self.content(node.doc, object.get("content"), &at)?,
        })
    }

    fn responses(&mut self, op: &ResolvedNode) -> Result<Vec<ResponseInfo>, SpecError> {
        let Some(Value::Object(responses)) = op.value().get("responses") else {
            return Ok(Vec::new());
        };
        let mut out = Vec::with_capacity(responses.len());
        for status in responses.keys() {
            let pointer = child(&format!("{}/responses", op.pointer), status);
            let node = self.converter.docs.deref(op.doc, &op.root, &pointer)?;
            let key = shared_key(&node, op.doc, &pointer);
            if let Some((description, content)) =
                key.as_ref().and_then(|k| self.cache.responses.get(k))
            {
                out.push(ResponseInfo {
                    status: status.clone(),
                    description: description.clone(),
                    content: content.clone(),
                });
                continue;
            }
            let at = format!(
                "{}#{}",
                self.converter.docs.doc_name(node.doc),
                node.pointer
            );
            let Some(object) = node.value().as_object() else {
                return Err(SpecError::invalid(at, "a response must be an object"));
            };
            let own = object.get("description").and_then(Value::as_str);
            let description = node.meta.merge_with_description(own, false);
            let content = self.content(node.doc, object.get("content"), &at)?;
            if let Some(key) = key {
                self.cache
                    .responses
                    .insert(key, (description.clone(), content.clone()));
            }
            out.push(ResponseInfo {
                status: status.clone(),
                description,
                content,
            });
        }
        Ok(out)
    }

    fn content(
        &mut self,
        doc: usize,
        content: Option<&Value>,
        at: &str,
    ) -> Result<Vec<MediaTypeInfo>, SpecError> {
        let Some(Value::Object(content)) = content else {
            return Ok(Vec::new());
        };
        let content_loc = Loc::Key(&Loc::Root(at), "content");
        let mut out = Vec::with_capacity(content.len());
        for (media, media_object) in content {
            let loc = Loc::Key(&content_loc, media);
            let schema = match (self.inline.take(media_object), media_object.get("schema")) {
                (Some(schema), _) => Some(self.converter.convert(
                    doc,
                    schema,
                    Loc::Key(&loc, "schema"),
                )?),
                (None, Some(schema)) => Some(self.converter.convert(
                    doc,
                    schema,
                    Loc::Key(&loc, "schema"),
                )?),
                (None, None) => None,
            };
            let encoding = media_object
                .get("encoding")
                .and_then(Value::as_object)
                .map(|map| map.iter().map(|(k, v)| (k.clone(), encoding(v))).collect())
                .unwrap_or_default();
            out.push(MediaTypeInfo {
                media_type: media.clone(),
                schema,
                encoding,
            });
        }
        Ok(out)
    }

    fn servers(&self, op: &Map<String, Value>, item: &Value) -> Vec<ServerInfo> {
        let list = pick(op.get("servers"))
            .or_else(|| pick(item.get("servers")))
            .or_else(|| pick(self.root.get("servers")));
        let Some(list) = list else {
            return vec![ServerInfo {
                url: "/".to_owned(),
                description: None,
                variables: BTreeMap::new(),
            }];
        };
        list.iter()
            .filter_map(Value::as_object)
            .filter_map(server)
            .collect()
    }
}
