//! Component schemas parsed only when the document reaches them.
//!
//! Loading JSON keeps `components.schemas` as text (see the `skip_unread`
//! module), then parses the schemas that some `$ref` of the rest of the
//! document reaches, directly or through other reached schemas. The others
//! are never built: GitHub's document has 969 schemas and its operations
//! reach 27% of their bytes (the rest describe webhook payloads). A
//! reference this cannot follow by name (to `#/components` as a whole, or
//! through another file, which may point back) makes every schema parsed.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use crate::document::pointer::{percent_decode, unescape_into};
use crate::document::skip_unread::RawSchemas;
use crate::error::SpecError;

/// A parsed document root, with what loading must know about its schemas.
#[derive(Debug)]
pub(crate) struct ParsedDocument {
    pub(crate) value: Value,
    /// Names of all `components.schemas`, in order, when only the reached
    /// ones were parsed (the others are absent from `value`).
    pub(crate) schema_names: Option<Vec<String>>,
    /// When every `$ref` of `value` was read: the names of the
    /// `components.schemas` some `$ref` points inside of (the others are
    /// only ever referred to whole).
    pub(crate) referred_into: Option<HashSet<String>>,
    /// Whether some `$ref` points into `paths` (meaningful with
    /// `referred_into`).
    pub(crate) paths_referred: bool,
}

impl ParsedDocument {
    /// A document parsed whole.
    pub(crate) fn whole(value: Value) -> Self {
        Self {
            value,
            schema_names: None,
            referred_into: None,
            paths_referred: true,
        }
    }
}

/// Parses the schemas of `raw` that `root` reaches and puts them in place.
pub(crate) fn materialize(
    mut root: Value,
    raw: Option<RawSchemas>,
) -> Result<ParsedDocument, SpecError> {
    let Some(raw) = raw else {
        return Ok(ParsedDocument::whole(root));
    };
    // A later duplicate name wins, as in a parsed object.
    let index: HashMap<&str, usize> = raw
        .iter()
        .enumerate()
        .map(|(i, (name, _))| (name.as_str(), i))
        .collect();
    let mut parsed: Vec<Option<Value>> = vec![None; raw.len()];
    let mut seen = SeenRefs::new(&index, raw.len());
    seen.collect(&root);
    let parse = |i: usize| -> Result<Value, SpecError> {
        let (name, text) = &raw[i];
        serde_json::from_str(text.get()).map_err(|error| SpecError::Syntax {
            format: "JSON",
            message: format!("#/components/schemas/{name}: {error}"),
        })
    };
    while !seen.all
        && let Some(i) = seen.reached.pop()
    {
        let schema = parse(i)?;
        seen.collect(&schema);
        parsed[i] = Some(schema);
    }
    if seen.all {
        for (i, slot) in parsed.iter_mut().enumerate() {
            if slot.is_none() {
                *slot = Some(parse(i)?);
            }
        }
    }
    let mut schemas = Map::with_capacity(parsed.iter().filter(|p| p.is_some()).count());
    for (i, (name, _)) in raw.iter().enumerate() {
        if index.get(name.as_str()) == Some(&i)
            && let Some(schema) = parsed[i].take()
        {
            schemas.insert(name.clone(), schema);
        }
    }
    if let Some(Value::Object(components)) = root.get_mut("components") {
        components.insert("schemas".to_owned(), Value::Object(schemas));
    }
    let referred_into = (!seen.all).then_some(seen.referred_into);
    let paths_referred = seen.paths_referred;
    Ok(ParsedDocument {
        value: root,
        schema_names: Some(raw.into_iter().map(|(name, _)| name).collect()),
        referred_into,
        paths_referred,
    })
}

/// The component schemas `$ref`s name, or that all of them may be needed.
#[derive(Debug)]
struct SeenRefs<'i> {
    /// The index of each schema name.
    index: &'i HashMap<&'i str, usize>,
    /// Whether a `$ref` named the schema of each index.
    named: Vec<bool>,
    /// Schemas named and not yet looked at, by index.
    reached: Vec<usize>,
    /// Names of schemas some `$ref` points inside of.
    referred_into: HashSet<String>,
    /// A name with its `~` escapes undone.
    unescaped: String,
    /// Whether some `$ref` points into (or at) `paths`.
    paths_referred: bool,
    all: bool,
}

impl<'i> SeenRefs<'i> {
    fn new(index: &'i HashMap<&'i str, usize>, count: usize) -> Self {
        Self {
            index,
            named: vec![false; count],
            reached: Vec::new(),
            referred_into: HashSet::new(),
            unescaped: String::new(),
            paths_referred: false,
            all: false,
        }
    }

    /// Records every `$ref` string in `value` (data such as examples
    /// included: parsing a schema too many costs little, one too few breaks).
    fn collect(&mut self, value: &Value) {
        match value {
            Value::Object(object) => {
                for (key, child) in object {
                    match (key.as_str(), child) {
                        ("$ref", Value::String(reference)) => self.record(reference),
                        _ => self.collect(child),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|item| self.collect(item)),
            _ => {}
        }
    }

    fn record(&mut self, reference: &str) {
        if self.all {
            return;
        }
        let Some(("", fragment)) = reference.split_once('#') else {
            // Another document (which may point back here), or a reference
            // without a fragment: every schema may be needed.
            self.all = true;
            return;
        };
        let fragment = percent_decode(fragment);
        if fragment.starts_with("/paths") {
            self.paths_referred = true;
        }
        let Some(rest) = fragment.as_ref().strip_prefix("/components/schemas/") else {
            // The root, `/components` or `/components/schemas` itself.
            if "/components/schemas/".starts_with(fragment.as_ref()) {
                self.all = true;
            }
            return;
        };
        let inside = rest.split_once('/');
        let token = inside.map_or(rest, |(token, _)| token);
        let name = if token.contains('~') {
            self.unescaped.clear();
            unescape_into(&mut self.unescaped, token);
            self.unescaped.as_str()
        } else {
            token
        };
        if inside.is_some() && !self.referred_into.contains(name) {
            self.referred_into.insert(name.to_owned());
        }
        if let Some(&i) = self.index.get(name)
            && let Some(named) = self.named.get_mut(i)
            && !*named
        {
            *named = true;
            self.reached.push(i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::skip_unread::JsonRootWithRawSchemas;
    use serde_json::json;

    fn lazy(document: &Value) -> ParsedDocument {
        let parsed: JsonRootWithRawSchemas = serde_json::from_str(&document.to_string()).unwrap();
        materialize(parsed.value, parsed.raw_schemas).unwrap()
    }

    fn schemas(parsed: &ParsedDocument) -> Vec<&String> {
        parsed.value["components"]["schemas"]
            .as_object()
            .unwrap()
            .keys()
            .collect()
    }

    #[test]
    fn only_reached_schemas_are_parsed_in_document_order() {
        let document = json!({
            "paths": {"/a": {"get": {"responses": {"200": {"description": "ok",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/C"}}}}}}}},
            "components": {
                "parameters": {"p": {"name": "p", "in": "query",
                    "schema": {"$ref": "#/components/schemas/a~1b/properties/x"}}},
                "schemas": {
                    "Unused": {"$ref": "#/components/schemas/AlsoUnused"},
                    "AlsoUnused": {"type": "string"},
                    "a/b": {"properties": {"x": {"type": "integer"}}},
                    "Enc%": {"type": "null"},
                    "B": {"items": {"$ref": "#/components/schemas/Enc%25"}},
                    "C": {"properties": {"b": {"$ref": "#/components/schemas/B"}}},
                },
            },
        });
        let parsed = lazy(&document);
        assert_eq!(schemas(&parsed), ["a/b", "Enc%", "B", "C"]);
        assert_eq!(
            parsed.value["components"]["schemas"]["C"],
            document["components"]["schemas"]["C"]
        );
        let names = parsed.schema_names.as_deref().unwrap();
        assert_eq!(names, ["Unused", "AlsoUnused", "a/b", "Enc%", "B", "C"]);
        let referred_into = parsed.referred_into.unwrap();
        assert_eq!(referred_into, HashSet::from(["a/b".to_owned()]));
    }

    #[test]
    fn references_it_cannot_follow_by_name_parse_everything() {
        for reference in [
            "#/components",
            "#",
            "common.json#/Pet",
            "#/components/schemas",
        ] {
            let document = json!({
                "paths": {"/a": {"x-ref": {"$ref": reference}}},
                "components": {"schemas": {"A": {}, "B": {}}},
            });
            let parsed = lazy(&document);
            assert_eq!(schemas(&parsed), ["A", "B"], "{reference}");
            assert!(parsed.referred_into.is_none(), "{reference}");
        }
    }

    #[test]
    fn a_malformed_schema_is_a_syntax_error_naming_it() {
        // Raw text is valid JSON by construction; a number out of range is not a Value.
        let parsed: JsonRootWithRawSchemas = serde_json::from_str(
            r##"{"paths": {"$ref": "#/components/schemas/N"}, "components": {"schemas": {"N": {"default": 1e999}}}}"##,
        )
        .unwrap();
        let error = materialize(parsed.value, parsed.raw_schemas).unwrap_err();
        assert!(
            error.to_string().contains("#/components/schemas/N"),
            "{error}"
        );
    }
}
