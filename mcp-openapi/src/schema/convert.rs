//! Document schemas to generated JSON Schema 2020-12: every `$ref` becomes
//! `#/$defs/<Name>`, and each referenced schema is converted once per
//! document, lazily (only what routes reach).

use std::collections::HashMap;

use mcp_core::schema::portable;
use serde_json::{Map, Value};

use crate::document::pointer::{escape_segment, lookup};
use crate::document::reference_metadata::ReferenceMetadata;
use crate::document::refs::Documents;
use crate::error::SpecError;
use crate::schema::normalize::normalize_keywords;
use crate::schema::registry::DefRegistry;

mod source;

pub(crate) use source::Source;

/// A location in a document, rendered only when an error needs it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Loc<'a> {
    /// A pointer written out (`#/paths/~1pets/get`).
    Root(&'a str),
    /// A key under a parent location.
    Key(&'a Loc<'a>, &'a str),
    /// An index under a parent location.
    Index(&'a Loc<'a>, usize),
}

impl Loc<'_> {
    /// The JSON pointer (`#/...`).
    pub(crate) fn render(&self) -> String {
        match self {
            Loc::Root(pointer) => (*pointer).to_owned(),
            Loc::Key(parent, key) => format!("{}/{}", parent.render(), escape_segment(key)),
            Loc::Index(parent, index) => format!("{}/{index}", parent.render()),
        }
    }
}

/// Converts schemas of one load.
#[derive(Debug)]
pub(crate) struct Converter<'a> {
    pub(crate) docs: &'a mut Documents,
    pub(crate) registry: &'a mut DefRegistry,
    pub(crate) legacy: bool,
    /// The converted `$ref` of each reference string converted before, one
    /// map per document it is written in (documents repeat references to
    /// the same schemas thousands of times).
    converted_refs: Vec<HashMap<String, String>>,
}

/// Keywords `normalize_keywords` rewrites; objects without any skip it.
const NORMALIZED: &[&str] = &[
    "xml",
    "externalDocs",
    "example",
    "nullable",
    "x-nullable",
    "exclusiveMinimum",
    "exclusiveMaximum",
];
const MAP_KEYWORDS: &[&str] = &[
    "properties",
    "patternProperties",
    "dependentSchemas",
    "$defs",
    "definitions",
];
const LIST_KEYWORDS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];
const ONE_KEYWORDS: &[&str] = &[
    "additionalProperties",
    "items",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
    "contentSchema",
];

impl<'a> Converter<'a> {
    pub(crate) fn new(
        docs: &'a mut Documents,
        registry: &'a mut DefRegistry,
        legacy: bool,
    ) -> Self {
        Self {
            docs,
            registry,
            legacy,
            converted_refs: Vec::new(),
        }
    }

    /// Converts one schema found in document `doc` at `loc`: copies the
    /// parts of a borrowed schema, moves those of an owned one.
    pub(crate) fn convert<S: Source>(
        &mut self,
        doc: usize,
        value: S,
        loc: Loc<'_>,
    ) -> Result<Value, SpecError> {
        match value.value() {
            Value::Bool(_) => Ok(value.into_value()),
            Value::Object(_) => self.object(doc, value, loc).map(Value::Object),
            other => Err(SpecError::invalid(
                loc.render(),
                format!(
                    "a schema must be an object or a boolean, found {}",
                    mcp_core::schema::json_kind(other)
                ),
            )),
        }
    }

    /// Converts a schema object (`source` is one).
    fn object<S: Source>(
        &mut self,
        doc: usize,
        source: S,
        loc: Loc<'_>,
    ) -> Result<Map<String, Value>, SpecError> {
        let Some(object) = source.value().as_object() else {
            return Ok(Map::new());
        };
        let mut out = Map::with_capacity(object.len());
        if let Some(reference) = object.get("$ref") {
            let Some(reference) = reference.as_str() else {
                return Err(SpecError::invalid(
                    Loc::Key(&loc, "$ref").render(),
                    "$ref must be a string",
                ));
            };
            let converted = match self.converted_ref(doc, reference) {
                Some(converted) => converted.clone(),
                None => self.convert_ref(doc, reference, loc)?,
            };
            out.insert("$ref".to_owned(), Value::String(converted));
            if let Some(description) = ReferenceMetadata::from_ref_object(object).best_description()
            {
                out.insert("description".to_owned(), description.into());
            }
            if self.legacy {
                // OpenAPI 3.0 ignores `$ref` siblings (description kept above).
                return Ok(out);
            }
        }
        let has_ref = !out.is_empty();
        let mut normalize = false;
        let Ok(entries) = source.into_entries() else {
            return Ok(out);
        };
        for (key, value) in entries {
            let key_str = key.as_ref();
            if has_ref && (out.contains_key(key_str) || key_str == "summary") {
                continue;
            }
            // Extension keywords (`x-expansionResources`, ...) are tooling
            // metadata, not validation: left out (`x-nullable` is normalized).
            if key_str.starts_with("x-") && key_str != "x-nullable" {
                continue;
            }
            normalize |=
                NORMALIZED.contains(&key_str) || (key_str == "type" && value.value() == "file");
            let here = Loc::Key(&loc, key_str);
            let converted = if MAP_KEYWORDS.contains(&key_str) {
                let len = value.value().as_object().map_or(0, Map::len);
                match value.into_entries() {
                    Ok(map) => {
                        let mut converted = Map::with_capacity(len);
                        for (name, schema) in map {
                            let sub = self.convert(doc, schema, Loc::Key(&here, name.as_ref()))?;
                            converted.insert(name.into(), as_object_schema(sub));
                        }
                        Value::Object(converted)
                    }
                    Err(other) => other.into_value(),
                }
            } else if LIST_KEYWORDS.contains(&key_str) {
                match self.list(doc, value, here)? {
                    Ok(converted) => Value::Array(converted),
                    Err(other) => other.into_value(),
                }
            } else if ONE_KEYWORDS.contains(&key_str) {
                if key_str == "items" {
                    // Draft-4 tuple `items` becomes `prefixItems`.
                    match self.list(doc, value, here)? {
                        Ok(converted) => {
                            out.insert("prefixItems".to_owned(), Value::Array(converted));
                            continue;
                        }
                        Err(other) => self.convert(doc, other, here)?,
                    }
                } else {
                    self.convert(doc, value, here)?
                }
            } else {
                value.into_value()
            };
            out.insert(key.into(), converted);
        }
        if normalize {
            normalize_keywords(&mut out, self.legacy);
        }
        Ok(out)
    }

    /// The converted `$ref` of `reference` written in document `doc`, when
    /// converted before.
    fn converted_ref(&self, doc: usize, reference: &str) -> Option<&String> {
        self.converted_refs.get(doc)?.get(reference)
    }

    /// Resolves `reference` (written in document `doc` at `loc`) to its
    /// definition name, queued for conversion the first time: the
    /// converted `$ref`, remembered.
    fn convert_ref(
        &mut self,
        doc: usize,
        reference: &str,
        loc: Loc<'_>,
    ) -> Result<String, SpecError> {
        let target = match self.docs.resolve(doc, reference, "") {
            Ok(target) => target,
            Err(error) => {
                return Err(at_pointer(
                    error,
                    format!("{}{}", self.docs.doc_name(doc), loc.render()),
                ));
            }
        };
        let name = self.registry.name_for(target.doc, &target.pointer);
        let converted = format!("#/$defs/{name}");
        if self.converted_refs.len() <= doc {
            self.converted_refs.resize_with(doc + 1, HashMap::new);
        }
        self.converted_refs[doc].insert(reference.to_owned(), converted.clone());
        Ok(converted)
    }

    /// Converts each schema of an array (else gives the value back).
    fn list<S: Source>(
        &mut self,
        doc: usize,
        value: S,
        here: Loc<'_>,
    ) -> Result<Result<Vec<Value>, S>, SpecError> {
        let len = value.value().as_array().map_or(0, Vec::len);
        let items = match value.into_items() {
            Ok(items) => items,
            Err(other) => return Ok(Err(other)),
        };
        let mut converted = Vec::with_capacity(len);
        for (index, schema) in items.enumerate() {
            converted.push(self.convert(doc, schema, Loc::Index(&here, index))?);
        }
        Ok(Ok(converted))
    }

    /// Converts every definition reached so far (and those they reach).
    /// The root component schemas that may be are moved out of the
    /// document and converted without a copy.
    pub(crate) fn finish(&mut self) {
        while let Some((doc, pointer, name)) = self.registry.next_pending() {
            let location = format!("{}#{pointer}", self.docs.doc_name(doc));
            let schema = match self.docs.take_component_schema(doc, &pointer) {
                Some(value) => self.convert(doc, value, Loc::Root(&location)),
                None => {
                    let root = self.docs.doc(doc);
                    let value = lookup(&root, &pointer).unwrap_or(&Value::Null);
                    self.convert(doc, value, Loc::Root(&location))
                }
            };
            let schema = schema
                .map(|schema| portable_schema(as_object_schema(schema)))
                .map_err(|e| e.to_string());
            self.registry.define(name, schema);
        }
        self.docs.drop_taken();
    }
}

/// Puts the pointer where a reference is written into a resolution error.
fn at_pointer(error: SpecError, at: String) -> SpecError {
    match error {
        SpecError::Ref {
            reference, reason, ..
        } => SpecError::Ref {
            pointer: at,
            reference,
            reason,
        },
        SpecError::RemoteRef { reference, .. } => SpecError::RemoteRef {
            pointer: at,
            reference,
        },
        other => other,
    }
}

/// A definition in the portable spelling of `null` (no type arrays), the
/// one tool schemas use: tools share it as it is.
fn portable_schema(mut schema: Value) -> Value {
    if let Value::Object(object) = &mut schema {
        portable(object);
    }
    schema
}

/// Spells boolean schemas as objects (`true` = `{}`, `false` = `{"not": {}}`):
/// MCP requires property schemas to be objects.
pub(crate) fn as_object_schema(value: Value) -> Value {
    match value {
        Value::Bool(true) => Value::Object(Map::new()),
        Value::Bool(false) => {
            let mut not = Map::new();
            not.insert("not".to_owned(), Value::Object(Map::new()));
            Value::Object(not)
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::refs::RemoteRefs;
    use serde_json::json;

    #[test]
    fn refs_become_defs_and_cycles_terminate() {
        let root = json!({
            "components": {"schemas": {
                "Node": {"type": "object", "properties": {"next": {"$ref": "#/components/schemas/Node"}, "n": {"type": "integer", "nullable": true}}},
            }},
            "body": {"$ref": "#/components/schemas/Node", "description": "a list"}
        });
        let mut docs = Documents::new(root.clone(), None, RemoteRefs::Refuse);
        let mut registry = DefRegistry::default();
        registry.reserve_components(&root, None);
        let mut converter = Converter::new(&mut docs, &mut registry, true);
        let out = converter
            .convert(0, &root["body"], Loc::Root("#/body"))
            .unwrap();
        converter.finish();
        assert_eq!(
            out,
            json!({"$ref": "#/$defs/Node", "description": "a list"})
        );
        let node = registry.get("Node").unwrap();
        assert_eq!(node["properties"]["next"], json!({"$ref": "#/$defs/Node"}));
        assert_eq!(
            node["properties"]["n"],
            json!({"anyOf": [{"type": "integer"}, {"type": "null"}]})
        );
    }

    #[test]
    fn bad_refs_name_their_pointer() {
        let root = json!({"s": {"properties": {"a": {"$ref": "#/missing"}}}});
        let mut docs = Documents::new(root.clone(), None, RemoteRefs::Refuse);
        let mut registry = DefRegistry::default();
        let mut converter = Converter::new(&mut docs, &mut registry, false);
        let error = converter
            .convert(0, &root["s"], Loc::Root("#/s"))
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "#/s/properties/a: cannot resolve $ref `#/missing`: no such node"
        );
    }
}
