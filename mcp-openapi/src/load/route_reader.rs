//! The state shared while reading the routes of one document, and what
//! OpenAPI 3.x and Swagger 2.0 operations read the same way: inherited
//! parameters, security requirements, skipped operations.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::document::refs::ResolvedNode;
use crate::document::version::SpecVersion;
use crate::error::{SpecError, Warning};
use crate::ir::{MediaTypeInfo, ParameterInfo, SecurityRequirement};
use crate::load::fields::strings;
use crate::load::inline_schemas::InlineSchemas;
use crate::schema::convert::{Converter, Loc};

/// Reads the routes of one document: the state its operations share.
#[derive(Debug)]
pub(crate) struct RouteReader<'a> {
    pub(crate) converter: Converter<'a>,
    pub(crate) root: Arc<Value>,
    pub(crate) version: SpecVersion,
    pub(crate) strict: bool,
    pub(crate) warnings: Vec<Warning>,
    /// Shared parameters and responses (`$ref` targets without reference
    /// metadata), converted once: large documents reuse them hundreds of times.
    pub(crate) cache: RefCache,
    /// Inline media-type schemas moved out of the root document, converted
    /// where they are read.
    pub(crate) inline: InlineSchemas,
}

/// Converted `$ref` targets, by (document, pointer).
#[derive(Debug, Default)]
pub(crate) struct RefCache {
    pub(crate) parameters: ByNode<ParameterInfo>,
    pub(crate) responses: ByNode<(Option<String>, Vec<MediaTypeInfo>)>,
}

/// Values by the node they were read from: document, then JSON pointer
/// (looked up without building a key).
#[derive(Debug)]
pub(crate) struct ByNode<V>(HashMap<usize, HashMap<String, V>>);

impl<V> Default for ByNode<V> {
    fn default() -> Self {
        Self(HashMap::new())
    }
}

impl<V> ByNode<V> {
    /// The value read from `pointer` of document `doc`.
    pub(crate) fn get(&self, doc: usize, pointer: &str) -> Option<&V> {
        self.0.get(&doc)?.get(pointer)
    }

    /// Records the value read from `pointer` of document `doc`.
    pub(crate) fn insert(&mut self, doc: usize, pointer: String, value: V) {
        self.0.entry(doc).or_default().insert(pointer, value);
    }
}

/// Where a node is written: its document, the location errors name, and
/// its JSON pointer (built only when a `$ref` there is followed).
pub(crate) struct Place<'a, P> {
    pub(crate) doc: usize,
    pub(crate) loc: Loc<'a>,
    pub(crate) pointer: P,
}

/// The pointers of the parameters declared on a path item, then on its
/// operation (`sources`), each with the node it is declared on.
pub(crate) fn parameter_pointers<'t>(
    sources: [&'t ResolvedNode; 2],
    pointer: &str,
) -> Result<Vec<(&'t ResolvedNode, String)>, SpecError> {
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
    pub(crate) node: ResolvedNode,
}

impl RouteReader<'_> {
    /// Records a skipped operation, or fails in strict mode.
    pub(crate) fn skip(&mut self, pointer: &str, error: SpecError) -> Result<(), SpecError> {
        if self.strict {
            return Err(SpecError::Strict(Box::new(error)));
        }
        self.warnings
            .push(Warning::new(pointer, format!("skipped: {error}")));
        Ok(())
    }

    /// The security requirements of an operation, else of the document.
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
}
