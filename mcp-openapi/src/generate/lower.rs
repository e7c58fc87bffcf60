//! One route to the schemas of one tool: input schema (parameters and
//! flattened body), output schema (first 2xx JSON response), and the
//! [`RequestBinding`] that maps input properties back to the request; with
//! result fields on, the `fields` argument ([`fields`]).

mod fields;

use std::collections::{BTreeSet, HashMap};

use mcp_core::ToolSchema;
use mcp_core::schema::portable;
use serde_json::{Map, Value, json};

use crate::error::SpecError;
use crate::ir::{ArgumentBinding, HttpRoute, MediaTypeInfo, RequestBinding, RequestPart};
use crate::media_type::{essence, is_json_media_type};
use crate::schema::convert::as_object_schema;
use crate::schema::defs::{DefCopier, Finished, Mode};
use crate::schema::profile::SchemaProfile;
use crate::schema::registry::DefRegistry;

/// The parts of a tool computed from a route's schemas.
#[derive(Debug)]
pub(crate) struct Lowered {
    /// The finished input schema (in the portable spelling).
    pub(crate) input_schema: ToolSchema,
    /// The finished output schema, shared by every route answering with the same schema.
    pub(crate) output_schema: Option<ToolSchema>,
    /// Where each input property goes in the request.
    pub(crate) binding: RequestBinding,
}

/// Source output schemas at most this long (as JSON text) are looked up in
/// the shared outputs: `{"$ref": ..}` and `{"type": "array", "items": ..}`
/// roots, which is what most responses of large APIs are.
const SHARED_SOURCE_MAX: usize = 2048;

/// The JSON text of a source output schema when it is short enough to be
/// shared; writing stops as soon as it is not (large inline schemas are
/// not written out whole just to learn that).
fn shared_key(schema: &Value) -> Option<String> {
    /// A buffer that refuses to grow past [`SHARED_SOURCE_MAX`].
    struct Bounded(Vec<u8>);

    impl std::io::Write for Bounded {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            if self.0.len() + bytes.len() > SHARED_SOURCE_MAX {
                return Err(std::io::ErrorKind::FileTooLarge.into());
            }
            self.0.extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    let mut text = Bounded(Vec::new());
    serde_json::to_writer(&mut text, schema).ok()?;
    String::from_utf8(text.0).ok()
}

/// What lowering keeps across the routes of one generation run.
#[derive(Debug)]
pub(crate) struct Lowering<'a> {
    copier: DefCopier<'a>,
    /// Finished output schemas (and whether they wrap) by the JSON text of
    /// their source schema: routes that answer with the same schema share
    /// one `Arc` instead of a deep copy each (GitHub's 1,223 tools have 58%
    /// of their output schema bytes in duplicates).
    outputs: HashMap<String, Output>,
    /// Whether tools offer `fields`, and the loosened output schemas.
    projections: Option<fields::Projections>,
}

impl<'a> Lowering<'a> {
    pub(crate) fn new(
        registry: &'a DefRegistry,
        profile: SchemaProfile,
        cycle_depth: usize,
    ) -> Self {
        Self {
            copier: DefCopier::new(registry, profile, cycle_depth),
            outputs: HashMap::new(),
            projections: None,
        }
    }

    /// Whether tools whose output is JSON objects offer the `fields`
    /// argument (see [`fields`]).
    pub(crate) fn result_fields(mut self, on: bool) -> Self {
        self.projections = on.then(fields::Projections::default);
        self
    }
}

/// Lowers one route.
pub(crate) fn lower(route: &HttpRoute, cx: &mut Lowering<'_>) -> Result<Lowered, SpecError> {
    let ((mut input_root, input_defs), mut binding_args, body_media_type) =
        input(route, &mut cx.copier)?;
    let (mut output_schema, output_wrapped) = match output(route, cx)? {
        Some((schema, wrapped)) => (Some(schema), wrapped),
        None => (None, false),
    };
    if let Some(projections) = &mut cx.projections {
        projections.offer(
            &mut input_root,
            &mut binding_args,
            &mut output_schema,
            output_wrapped,
        );
    }
    let input_schema = (input_root, input_defs);
    Ok(Lowered {
        input_schema: tool_schema(input_schema),
        output_schema,
        binding: RequestBinding {
            arguments: binding_args,
            body_media_type,
            output_wrapped,
        },
    })
}

/// The preferred media type of a body: JSON, then form, then multipart, then the first.
fn preferred(content: &[MediaTypeInfo]) -> Option<&MediaTypeInfo> {
    let rank = |m: &MediaTypeInfo| {
        let media = essence(&m.media_type);
        if media == "application/json" {
            0
        } else if media.ends_with("+json") || media.contains("/json") {
            1
        } else if media == "application/x-www-form-urlencoded" {
            2
        } else if media == "multipart/form-data" {
            3
        } else {
            4
        }
    };
    content
        .iter()
        .enumerate()
        .min_by_key(|(index, m)| (rank(m), *index))
        .map(|(_, m)| m)
}

fn is_json(media: &str) -> bool {
    let media = essence(media);
    media == "application/json"
        || media.ends_with("+json")
        || media == "*/*"
        || media == "application/*"
}

/// A finished output schema and whether it wraps the result as `{"result": ...}`.
type Output = (ToolSchema, bool);

type Input = (Finished, Vec<ArgumentBinding>, Option<String>);

/// The input property that lets the caller choose the body's media type.
const CONTENT_TYPE_PROPERTY: &str = "body_content_type";

/// The media types a caller may choose for a body: those the operation
/// offers with the same schema as the preferred one, among the encodings that
/// take the same arguments (JSON, form-urlencoded, multipart). Others (XML,
/// text, binary) need a differently shaped input and are not offered.
fn content_type_choices<'a>(
    content: &'a [MediaTypeInfo],
    preferred: &MediaTypeInfo,
) -> Vec<&'a str> {
    content
        .iter()
        // The preferred media type itself is not compared (a deep walk of
        // what may be a large inline schema).
        .filter(|m| std::ptr::eq(*m, preferred) || m.schema == preferred.schema)
        .filter(|m| !m.media_type.contains('*'))
        .map(|m| m.media_type.as_str())
        .filter(|media| {
            let essence = essence(media);
            is_json_media_type(&essence)
                || essence == "application/x-www-form-urlencoded"
                || essence == "multipart/form-data"
        })
        .collect()
}

fn input(route: &HttpRoute, copier: &mut DefCopier<'_>) -> Result<Input, SpecError> {
    let mut properties = Map::new();
    let mut required = Vec::new();
    let mut arguments = Vec::new();
    // The body first, to know which names parameters collide with.
    let body = route
        .request_body
        .as_ref()
        .and_then(|body| preferred(&body.content).map(|m| (body, m)));
    let mut body_properties: Vec<(String, Value, bool)> = Vec::new();
    let mut whole_body = None;
    if let Some((body, media)) = body {
        let empty = Value::Object(Map::new());
        let schema = media.schema.as_deref().unwrap_or(&empty);
        match copier.object_properties(schema, Mode::Input) {
            Some((props, req)) => {
                for (name, prop) in props {
                    let is_required = req.contains(&name);
                    body_properties.push((name, prop, is_required));
                }
            }
            None => {
                let mut schema = copier.strip(schema, Mode::Input);
                if let (Some(text), Value::Object(map)) = (&body.description, &mut schema) {
                    map.entry("description")
                        .or_insert_with(|| text.clone().into());
                }
                whole_body = Some((schema, body.required));
            }
        }
    }
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for parameter in &route.parameters {
        *counts.entry(parameter.name.as_str()).or_default() += 1;
    }
    let body_names: BTreeSet<&str> = body_properties.iter().map(|(n, _, _)| n.as_str()).collect();
    for (index, parameter) in route.parameters.iter().enumerate() {
        let name = parameter.name.as_str();
        let collides = counts.get(name).copied().unwrap_or(0) > 1
            || body_names.contains(name)
            || (whole_body.is_some() && name == "body");
        let property = if collides {
            format!("{name}__{}", parameter.location.as_str())
        } else {
            name.to_owned()
        };
        let mut schema = as_object_schema(copier.strip(&parameter.schema, Mode::Input));
        if let Value::Object(map) = &mut schema {
            if let Some(text) = &parameter.description {
                map.insert("description".to_owned(), text.clone().into());
            }
            if parameter.deprecated {
                map.insert("deprecated".to_owned(), true.into());
            }
        }
        if parameter.required {
            required.push(Value::String(property.clone()));
        }
        properties.insert(property.clone(), schema);
        arguments.push(ArgumentBinding {
            property,
            target: RequestPart::Parameter(index),
        });
    }
    for (name, schema, is_required) in body_properties {
        if is_required {
            required.push(Value::String(name.clone()));
        }
        properties.insert(name.clone(), as_object_schema(schema));
        arguments.push(ArgumentBinding {
            property: name.clone(),
            target: RequestPart::BodyProperty(name),
        });
    }
    if let Some((schema, is_required)) = whole_body {
        if is_required {
            required.push("body".into());
        }
        properties.insert("body".to_owned(), as_object_schema(schema));
        arguments.push(ArgumentBinding {
            property: "body".to_owned(),
            target: RequestPart::Body,
        });
    }
    if let Some((body, media)) = body {
        let choices = content_type_choices(&body.content, media);
        if choices.len() > 1 {
            let property = if properties.contains_key(CONTENT_TYPE_PROPERTY) {
                format!("{CONTENT_TYPE_PROPERTY}__body")
            } else {
                CONTENT_TYPE_PROPERTY.to_owned()
            };
            properties.insert(
                property.clone(),
                json!({
                    "type": "string",
                    "enum": choices,
                    "default": media.media_type,
                    "description": "The media type to send the request body as.",
                }),
            );
            arguments.push(ArgumentBinding {
                property,
                target: RequestPart::BodyContentType,
            });
        }
    }
    let mut schema = Map::new();
    schema.insert("type".to_owned(), "object".into());
    schema.insert("properties".to_owned(), Value::Object(properties));
    if !required.is_empty() {
        schema.insert("required".to_owned(), Value::Array(required));
    }
    let schema = copier
        .finish(schema, Mode::Input)
        .map_err(|reason| SpecError::invalid(&route.pointer, reason))?;
    Ok((
        schema,
        arguments,
        body.map(|(_, media)| media.media_type.clone()),
    ))
}

fn output(route: &HttpRoute, cx: &mut Lowering<'_>) -> Result<Option<Output>, SpecError> {
    let chosen = route
        .responses
        .iter()
        .filter(|r| r.status.starts_with('2'))
        .find_map(|r| {
            r.content
                .iter()
                .find(|m| is_json(&m.media_type))
                .and_then(|m| m.schema.as_ref())
        });
    let Some(schema) = chosen else {
        return Ok(None);
    };
    let key = shared_key(schema);
    if let Some(shared) = key.as_ref().and_then(|key| cx.outputs.get(key)) {
        return Ok(Some(shared.clone()));
    }
    let copier = &mut cx.copier;
    let root = copier.root_copy(schema, Mode::Output);
    let (root, wrapped) = match root {
        Value::Object(mut object) if copier.is_object_schema(&object) => {
            object.insert("type".to_owned(), "object".into());
            (object, false)
        }
        other => {
            let mut properties = Map::new();
            properties.insert("result".to_owned(), as_object_schema(other));
            let mut wrapper = Map::new();
            wrapper.insert("type".to_owned(), "object".into());
            wrapper.insert("properties".to_owned(), Value::Object(properties));
            wrapper.insert("required".to_owned(), Value::Array(vec!["result".into()]));
            (wrapper, true)
        }
    };
    let schema = copier
        .finish(root, Mode::Output)
        .map_err(|reason| SpecError::invalid(&route.pointer, reason))?;
    let finished = (tool_schema(schema), wrapped);
    if let Some(key) = key {
        cx.outputs.insert(key, finished.clone());
    }
    Ok(Some(finished))
}

/// A finished root schema, and its definitions shared with the other tools'
/// schemas as its `$defs`, spelled the portable way of every kind of tool
/// (see `mcp_core::schema`): no `$schema` (2020-12 is the MCP default
/// dialect) and no type arrays with `null` (an `anyOf` instead; the
/// definitions are spelled so when they are prepared).
fn tool_schema((mut root, defs): Finished) -> ToolSchema {
    portable(&mut root);
    ToolSchema::with_shared_def_list(root, defs)
}
