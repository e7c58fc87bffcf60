//! OpenAPI 3.x paths to [`HttpRoute`]s: path-level parameters merged,
//! `style` / `explode` defaults filled, schemas normalized.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::error::{Warning, child};
use crate::ir::*;
use crate::load::fields::{
    RouteParts, describe, encoding, merge_parameter, missing, parse_style, pick, route, server,
    strings,
};
use crate::load::refs::Target;
use crate::schema::convert::{Converter, Loc};
use crate::{SpecError, SpecVersion};

/// Method keys of a path item, in the order routes are emitted.
pub(crate) const METHODS: &[(&str, HttpMethod)] = &[
    ("get", HttpMethod::Get),
    ("put", HttpMethod::Put),
    ("post", HttpMethod::Post),
    ("delete", HttpMethod::Delete),
    ("options", HttpMethod::Options),
    ("head", HttpMethod::Head),
    ("patch", HttpMethod::Patch),
    ("trace", HttpMethod::Trace),
    ("query", HttpMethod::Query),
];

/// State shared while building the routes of one document.
#[derive(Debug)]
pub(crate) struct RouteCx<'a> {
    pub(crate) conv: Converter<'a>,
    pub(crate) root: Arc<Value>,
    pub(crate) version: SpecVersion,
    pub(crate) strict: bool,
    pub(crate) warnings: Vec<Warning>,
    /// Shared parameters and responses (`$ref` targets without reference
    /// metadata), converted once: large documents reuse them hundreds of times.
    pub(crate) cache: RefCache,
}

/// Converted `$ref` targets, by (document, pointer).
#[derive(Debug, Default)]
pub(crate) struct RefCache {
    parameters: HashMap<(usize, String), ParameterInfo>,
    responses: HashMap<(usize, String), (Option<String>, Vec<MediaTypeInfo>)>,
}

/// The cache key of a target reached through a `$ref` without siblings.
fn shared_key(target: &Target, doc: usize, pointer: &str) -> Option<(usize, String)> {
    let via_ref = target.doc != doc || target.pointer != pointer;
    (via_ref && target.meta.is_empty()).then(|| (target.doc, target.pointer.clone()))
}

/// The pointers of the parameters declared on a path item, then on its
/// operation (`sources`), each with the node it is declared on.
pub(crate) fn parameter_pointers<'t>(
    sources: [&'t Target; 2],
    pointer: &str,
) -> Result<Vec<(&'t Target, String)>, SpecError> {
    let mut pointers = Vec::new();
    for source in sources {
        let Some(list) = source.value().get("parameters") else {
            continue;
        };
        let Some(list) = list.as_array() else {
            return Err(SpecError::invalid(
                format!("{pointer}/parameters"),
                "must be an array",
            ));
        };
        pointers.extend(
            (0..list.len()).map(|index| (source, format!("{}/parameters/{index}", source.pointer))),
        );
    }
    Ok(pointers)
}

/// A path item (after following its `$ref`) and what its operations inherit.
pub(crate) struct PathItem<'p> {
    pub(crate) path: &'p str,
    pub(crate) pointer: String,
    pub(crate) target: Target,
}

impl RouteCx<'_> {
    /// Every route of the document; malformed operations become warnings
    /// (or, in strict mode, the error).
    pub(crate) fn build(&mut self) -> Result<Vec<HttpRoute>, SpecError> {
        let root = self.root.clone();
        let Some(paths) = root.get("paths") else {
            return Ok(Vec::new());
        };
        let Some(paths) = paths.as_object() else {
            return Err(SpecError::invalid("#/paths", "must be an object"));
        };
        let mut routes = Vec::new();
        for path in paths.keys() {
            let pointer = child("#/paths", path);
            let item = match self.conv.docs.deref(0, &root, &pointer[1..]) {
                Ok(target) => PathItem {
                    path,
                    pointer,
                    target,
                },
                Err(error) => {
                    self.skip(&pointer, error)?;
                    continue;
                }
            };
            let item_value = item.target.value();
            if !item_value.is_object() {
                self.skip(
                    &item.pointer,
                    SpecError::invalid(&item.pointer, "a path item must be an object"),
                )?;
                continue;
            }
            for (key, method) in METHODS {
                if item_value.get(*key).is_none() {
                    continue;
                }
                if *method == HttpMethod::Query && self.version < SpecVersion::V3_2 {
                    continue;
                }
                let op_pointer = child(&item.pointer, key);
                let result = if self.version == SpecVersion::Swagger2 {
                    self.swagger_operation(&item, key, *method, &op_pointer)
                } else {
                    self.operation(&item, key, *method, &op_pointer)
                };
                match result {
                    Ok(route) => routes.push(route),
                    Err(error) => self.skip(&op_pointer, error)?,
                }
            }
            if let Some(Value::Object(more)) = item_value.get("additionalOperations") {
                for method in more.keys() {
                    let pointer = child(&child(&item.pointer, "additionalOperations"), method);
                    let error =
                        SpecError::invalid(&pointer, format!("method `{method}` is not supported"));
                    self.skip(&pointer, error)?;
                }
            }
        }
        Ok(routes)
    }

    /// Records a skipped operation, or fails in strict mode.
    pub(crate) fn skip(&mut self, pointer: &str, error: SpecError) -> Result<(), SpecError> {
        if self.strict {
            return Err(SpecError::Strict(Box::new(error)));
        }
        self.warnings
            .push(Warning::new(pointer, format!("skipped: {error}")));
        Ok(())
    }

    fn operation(
        &mut self,
        item: &PathItem<'_>,
        key: &str,
        method: HttpMethod,
        pointer: &str,
    ) -> Result<HttpRoute, SpecError> {
        let doc = item.target.doc;
        let op_ptr = format!("{}/{key}", item.target.pointer);
        let op = self.conv.docs.deref(doc, &item.target.root, &op_ptr)?;
        let Some(object) = op.value().as_object() else {
            return Err(SpecError::invalid(
                pointer,
                "an operation must be an object",
            ));
        };
        let mut parameters = Vec::new();
        for (source, param_ptr) in parameter_pointers([&item.target, &op], pointer)? {
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
                servers: self.servers(object, item.target.value()),
            },
        ))
    }

    fn parameter(
        &mut self,
        doc: usize,
        root: &Arc<Value>,
        pointer: &str,
    ) -> Result<ParameterInfo, SpecError> {
        let target = self.conv.docs.deref(doc, root, pointer)?;
        let key = shared_key(&target, doc, pointer);
        if let Some(hit) = key.as_ref().and_then(|k| self.cache.parameters.get(k)) {
            return Ok(hit.clone());
        }
        let info = self.parameter_at(target)?;
        if let Some(key) = key {
            self.cache.parameters.insert(key, info.clone());
        }
        Ok(info)
    }

    fn parameter_at(&mut self, target: Target) -> Result<ParameterInfo, SpecError> {
        let at = format!("{}#{}", self.conv.docs.doc_name(target.doc), target.pointer);
        let Some(object) = target.value().as_object() else {
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
                self.conv
                    .convert(target.doc, schema, Loc::Key(&Loc::Root(&at), "schema"))?
            }
            None => match object
                .get("content")
                .and_then(Value::as_object)
                .and_then(|c| c.iter().next())
            {
                Some((media, media_object)) => {
                    content_type = Some(media.clone());
                    match media_object.get("schema") {
                        Some(schema) => self.conv.convert(target.doc, schema, Loc::Root(&at))?,
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
        let description = describe(&target.meta, name, own);
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
        let target = self.conv.docs.deref(doc, root, pointer)?;
        let at = format!("{}#{}", self.conv.docs.doc_name(target.doc), target.pointer);
        let Some(object) = target.value().as_object() else {
            return Err(SpecError::invalid(at, "a request body must be an object"));
        };
        let own = object.get("description").and_then(Value::as_str);
        Ok(RequestBodyInfo {
            required: object
                .get("required")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            description: target.meta.merge_with_description(own, false),
            content: self.content(target.doc, object.get("content"), &at)?,
        })
    }

    fn responses(&mut self, op: &Target) -> Result<Vec<ResponseInfo>, SpecError> {
        let Some(Value::Object(responses)) = op.value().get("responses") else {
            return Ok(Vec::new());
        };
        let mut out = Vec::with_capacity(responses.len());
        for status in responses.keys() {
            let pointer = child(&format!("{}/responses", op.pointer), status);
            let target = self.conv.docs.deref(op.doc, &op.root, &pointer)?;
            let key = shared_key(&target, op.doc, &pointer);
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
            let at = format!("{}#{}", self.conv.docs.doc_name(target.doc), target.pointer);
            let Some(object) = target.value().as_object() else {
                return Err(SpecError::invalid(at, "a response must be an object"));
            };
            let own = object.get("description").and_then(Value::as_str);
            let description = target.meta.merge_with_description(own, false);
            let content = self.content(target.doc, object.get("content"), &at)?;
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
            let schema = match media_object.get("schema") {
                Some(schema) => Some(self.conv.convert(doc, schema, Loc::Key(&loc, "schema"))?),
                None => None,
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

    pub(crate) fn security(&self, op: &Map<String, Value>) -> Vec<SecurityRequirement> {
        let list = op.get("security").or_else(|| self.root.get("security"));
        let Some(Value::Array(list)) = list else {
            return Vec::new();
        };
        list.iter()
            .filter_map(Value::as_object)
            .map(|req| SecurityRequirement {
                schemes: req
                    .iter()
                    .map(|(name, scopes)| (name.clone(), strings(Some(scopes))))
                    .collect(),
            })
            .collect()
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
