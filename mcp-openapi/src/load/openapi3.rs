//! OpenAPI 3.x operations to [`HttpRoute`]s: path-level parameters merged,
//! `style` / `explode` defaults filled, schemas normalized.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::document::pointer::child;
use crate::document::reference_metadata::ReferenceMetadata;
use crate::error::SpecError;
use crate::ir::{
    HttpMethod, HttpRoute, MediaTypeInfo, ParameterInfo, ParameterLocation, ParameterStyle,
    RequestBodyInfo, ResponseInfo, ServerInfo,
};
use crate::load::fields::{
    RouteParts, describe, encoding, merge_parameter, missing, parse_style, pick, route, server,
};
use crate::load::route_reader::{ByNode, PathItem, Place, RefCache, RouteReader};
use crate::schema::convert::Loc;

/// Reference metadata of a node read in place (no `$ref` beside it).
static NO_META: ReferenceMetadata = ReferenceMetadata {
    summary: None,
    description: None,
};

impl RouteReader<'_> {
    /// The route of the OpenAPI 3.x operation `key` of a path item.
    pub(crate) fn openapi3_operation(
        &mut self,
        item: &PathItem<'_>,
        key: &str,
        method: HttpMethod,
        pointer: &str,
    ) -> Result<HttpRoute, SpecError> {
        let item_node = &item.node;
        let item_value = item_node.value();
        let written = item_value.get(key).unwrap_or(&Value::Null);
        let followed = self.converter.docs.follow(item_node.doc, written, || {
            format!("{}/{key}", item_node.pointer)
        })?;
        let (op_doc, op_value, op_ptr) = match &followed {
            Some(node) => (node.doc, node.value(), Cow::Borrowed(node.pointer.as_str())),
            None => (
                item_node.doc,
                written,
                Cow::Owned(format!("{}/{key}", item_node.pointer)),
            ),
        };
        let Some(object) = op_value.as_object() else {
            return Err(SpecError::invalid(
                pointer,
                "an operation must be an object",
            ));
        };
        let sources = [
            (item_node.doc, item_value, item_node.pointer.as_str()),
            (op_doc, op_value, &*op_ptr),
        ];
        let mut lists = Vec::with_capacity(2);
        for (doc, value, ptr) in sources {
            let Some(list) = value.get("parameters") else {
                continue;
            };
            let Some(list) = list.as_array() else {
                return Err(SpecError::invalid(
                    format!("{pointer}/parameters"),
                    "must be an array",
                ));
            };
            lists.push((doc, list, ptr));
        }
        let mut parameters = Vec::new();
        for (doc, list, ptr) in lists {
            let at = format!("{}#{ptr}", self.converter.docs.doc_name(doc));
            let list_loc = Loc::Key(&Loc::Root(&at), "parameters");
            for (index, written) in list.iter().enumerate() {
                let place = Place {
                    doc,
                    loc: Loc::Index(&list_loc, index),
                    pointer: || format!("{ptr}/parameters/{index}"),
                };
                let info = self.parameter(written, place)?;
                merge_parameter(&mut parameters, info);
            }
        }
        let op_at = format!("{}#{op_ptr}", self.converter.docs.doc_name(op_doc));
        let op_loc = Loc::Root(&op_at);
        let request_body = match object.get("requestBody") {
            Some(written) => {
                let place = Place {
                    doc: op_doc,
                    loc: Loc::Key(&op_loc, "requestBody"),
                    pointer: || format!("{op_ptr}/requestBody"),
                };
                Some(self.request_body(written, place)?)
            }
            None => None,
        };
        let responses = match object.get("responses") {
            Some(Value::Object(responses)) => {
                let responses_loc = Loc::Key(&op_loc, "responses");
                let mut out = Vec::with_capacity(responses.len());
                for (status, written) in responses {
                    let place = Place {
                        doc: op_doc,
                        loc: Loc::Key(&responses_loc, status),
                        pointer: || child(&format!("{op_ptr}/responses"), status),
                    };
                    out.push(self.response(status, written, place)?);
                }
                out
            }
            _ => Vec::new(),
        };
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
                servers: self.servers(object, item_value),
            },
        ))
    }

    fn parameter(
        &mut self,
        written: &Value,
        place: Place<'_, impl FnOnce() -> String>,
    ) -> Result<ParameterInfo, SpecError> {
        self.read_node(
            written,
            place,
            Some(|cache| &mut cache.parameters),
            Self::parameter_at,
        )
    }

    /// Reads the node `written` at `place` with `read`: where it is written,
    /// or where its `$ref` points. A target that the reference adds no
    /// summary or description to is read once per document and shared
    /// through `cache`, when there is one.
    fn read_node<T: Clone>(
        &mut self,
        written: &Value,
        place: Place<'_, impl FnOnce() -> String>,
        cache: Option<fn(&mut RefCache) -> &mut ByNode<T>>,
        read: impl FnOnce(&mut Self, usize, &Value, &ReferenceMetadata, Loc<'_>) -> Result<T, SpecError>,
    ) -> Result<T, SpecError> {
        let Some(node) = self
            .converter
            .docs
            .follow(place.doc, written, place.pointer)?
        else {
            return read(self, place.doc, written, &NO_META, place.loc);
        };
        let cache = cache.filter(|_| node.meta.is_empty());
        if let Some(cache) = cache
            && let Some(hit) = cache(&mut self.cache).get(node.doc, &node.pointer)
        {
            return Ok(hit.clone());
        }
        let at = format!(
            "{}#{}",
            self.converter.docs.doc_name(node.doc),
            node.pointer
        );
        let value = read(self, node.doc, node.value(), &node.meta, Loc::Root(&at))?;
        if let Some(cache) = cache {
            cache(&mut self.cache).insert(node.doc, node.pointer.clone(), value.clone());
        }
        Ok(value)
    }

    fn parameter_at(
        &mut self,
        doc: usize,
        value: &Value,
        meta: &ReferenceMetadata,
        loc: Loc<'_>,
    ) -> Result<ParameterInfo, SpecError> {
        let Some(object) = value.as_object() else {
            return Err(SpecError::invalid(
                loc.render(),
                "a parameter must be an object",
            ));
        };
        let name = object
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| missing(&loc.render(), "name"))?;
        let location = match object
            .get("in")
            .and_then(Value::as_str)
            .ok_or_else(|| missing(&loc.render(), "in"))?
        {
            "path" => ParameterLocation::Path,
            "query" => ParameterLocation::Query,
            "header" => ParameterLocation::Header,
            "cookie" => ParameterLocation::Cookie,
            other => {
                return Err(SpecError::invalid(
                    loc.render(),
                    format!("unknown parameter location `{other}`"),
                ));
            }
        };
        let style = match object.get("style").and_then(Value::as_str) {
            Some(style) => parse_style(style).ok_or_else(|| {
                SpecError::invalid(loc.render(), format!("unknown style `{style}`"))
            })?,
            None => location.default_style(),
        };
        let explode = object
            .get("explode")
            .and_then(Value::as_bool)
            .unwrap_or(style == ParameterStyle::Form);
        let mut content_type = None;
        let mut schema = match object.get("schema") {
            Some(schema) => self
                .converter
                .convert(doc, schema, Loc::Key(&loc, "schema"))?,
            None => match object
                .get("content")
                .and_then(Value::as_object)
                .and_then(|c| c.iter().next())
            {
                Some((media, media_object)) => {
                    content_type = Some(media.clone());
                    match media_object.get("schema") {
                        Some(schema) => self.converter.convert(doc, schema, loc)?,
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
        let description = describe(meta, name, own);
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
        written: &Value,
        place: Place<'_, impl FnOnce() -> String>,
    ) -> Result<RequestBodyInfo, SpecError> {
        self.read_node(written, place, None, Self::request_body_at)
    }

    fn request_body_at(
        &mut self,
        doc: usize,
        value: &Value,
        meta: &ReferenceMetadata,
        loc: Loc<'_>,
    ) -> Result<RequestBodyInfo, SpecError> {
        let Some(object) = value.as_object() else {
            return Err(SpecError::invalid(
                loc.render(),
                "a request body must be an object",
            ));
        };
        let own = object.get("description").and_then(Value::as_str);
        Ok(RequestBodyInfo {
            required: object
                .get("required")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            description: meta.merge_with_description(own, false),
            content: self.content(doc, object.get("content"), loc)?,
        })
    }

    fn response(
        &mut self,
        status: &str,
        written: &Value,
        place: Place<'_, impl FnOnce() -> String>,
    ) -> Result<ResponseInfo, SpecError> {
        let (description, content) = self.read_node(
            written,
            place,
            Some(|cache| &mut cache.responses),
            Self::response_at,
        )?;
        Ok(ResponseInfo {
            status: status.to_owned(),
            description,
            content,
        })
    }

    fn response_at(
        &mut self,
        doc: usize,
        value: &Value,
        meta: &ReferenceMetadata,
        loc: Loc<'_>,
    ) -> Result<(Option<String>, Vec<MediaTypeInfo>), SpecError> {
        let Some(object) = value.as_object() else {
            return Err(SpecError::invalid(
                loc.render(),
                "a response must be an object",
            ));
        };
        let own = object.get("description").and_then(Value::as_str);
        let description = meta.merge_with_description(own, false);
        let content = self.content(doc, object.get("content"), loc)?;
        Ok((description, content))
    }

    fn content(
        &mut self,
        doc: usize,
        content: Option<&Value>,
        loc: Loc<'_>,
    ) -> Result<Vec<MediaTypeInfo>, SpecError> {
        let Some(Value::Object(content)) = content else {
            return Ok(Vec::new());
        };
        let content_loc = Loc::Key(&loc, "content");
        let mut out = Vec::with_capacity(content.len());
        for (media, media_object) in content {
            let loc = Loc::Key(&content_loc, media);
            let schema = match (self.inline.take(media_object), media_object.get("schema")) {
                (Some(schema), _) => Some(Arc::new(self.converter.convert(
                    doc,
                    schema,
                    Loc::Key(&loc, "schema"),
                )?)),
                (None, Some(schema)) => Some(Arc::new(self.converter.convert(
                    doc,
                    schema,
                    Loc::Key(&loc, "schema"),
                )?)),
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
