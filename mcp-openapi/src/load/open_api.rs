//! The entry type: a loaded document, its routes and what was skipped.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::document::lazy_schemas::ParsedDocument;
use crate::document::overlay::{OverlaySource, apply_overlays};
use crate::document::parse::{parse_path, parse_slice};
use crate::document::refs::{Documents, RemoteRefs};
use crate::document::version::SpecVersion;
use crate::document::{parse_document, parse_document_path};
use crate::error::{SpecError, Warning};
use crate::ir::HttpRoute;
use crate::load::inline_schemas::InlineSchemas;
use crate::load::route_reader::{RefCache, RouteReader};
use crate::load::tags::Tag;
use crate::schema::convert::Converter;
use crate::schema::registry::DefRegistry;

/// How to load a document.
///
/// ```
/// use mcp_openapi::LoadOptions;
///
/// let options = LoadOptions::new()
///     .strict(true)
///     .overlay("vendor-fixes.overlay.yaml")
///     .overlay("our-names.overlay.yaml");
/// assert_eq!(options.overlays.len(), 2);
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct LoadOptions {
    /// Fail on the first malformed operation instead of skipping it with a
    /// warning, and on an overlay action whose target selects nothing.
    pub strict: bool,
    /// What to do with `http(s)` `$ref`s (refused by default).
    pub remote_refs: RemoteRefs,
    /// The overlays applied, in order, to the whole document before it loads.
    pub overlays: Vec<OverlaySource>,
}

impl LoadOptions {
    /// Default options: lenient, remote references refused.
    pub fn new() -> Self {
        Self::default()
    }

    /// Turns strict mode on or off.
    pub fn strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// Sets the remote `$ref` policy.
    pub fn remote_refs(mut self, remote_refs: RemoteRefs) -> Self {
        self.remote_refs = remote_refs;
        self
    }

    /// Adds an overlay, applied after those added before: a file path (read
    /// when the document loads) or an already parsed
    /// [`Overlay`](crate::document::Overlay).
    pub fn overlay(mut self, overlay: impl Into<OverlaySource>) -> Self {
        self.overlays.push(overlay.into());
        self
    }
}

/// A loaded OpenAPI (or Swagger 2.0) document: its routes, the schemas they
/// refer to, and warnings about what was skipped.
///
/// ```
/// use mcp_openapi::OpenApi;
///
/// let api: OpenApi = r#"
/// openapi: 3.1.0
/// info: {title: t, version: "1"}
/// paths:
///   /pets/{id}:
///     get:
///       operationId: getPet
///       parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
///       responses: {"200": {description: ok}}
/// "#.parse().unwrap();
/// assert_eq!(api.routes().len(), 1);
/// assert_eq!(api.routes()[0].operation_id.as_deref(), Some("getPet"));
/// ```
#[derive(Debug)]
pub struct OpenApi {
    version: SpecVersion,
    document: Arc<Value>,
    routes: Vec<Arc<HttpRoute>>,
    warnings: Vec<Warning>,
    pub(crate) registry: DefRegistry,
}

impl OpenApi {
    /// Loads a file (JSON or YAML by content); relative file `$ref`s resolve
    /// against its directory.
    pub fn from_path(path: impl AsRef<Path>) -> Result<Self, SpecError> {
        Self::from_path_with(path, &LoadOptions::default())
    }

    /// Loads a file with options.
    pub fn from_path_with(
        path: impl AsRef<Path>,
        options: &LoadOptions,
    ) -> Result<Self, SpecError> {
        let path = path.as_ref();
        let location = Some(path.to_owned());
        if options.overlays.is_empty() {
            Self::load_parsed(parse_document_path(path)?, location, options, Vec::new())
        } else {
            Self::load(parse_path(path)?, location, options)
        }
    }

    /// Loads a document held in bytes (JSON or YAML by content).
    pub fn from_slice(bytes: &[u8]) -> Result<Self, SpecError> {
        Self::from_slice_with(bytes, &LoadOptions::default())
    }

    /// Loads a document held in bytes with options.
    pub fn from_slice_with(bytes: &[u8], options: &LoadOptions) -> Result<Self, SpecError> {
        if options.overlays.is_empty() {
            Self::load_parsed(parse_document(bytes)?, None, options, Vec::new())
        } else {
            Self::load(parse_slice(bytes)?, None, options)
        }
    }

    /// Loads an already parsed document.
    pub fn from_value(value: Value) -> Result<Self, SpecError> {
        Self::load(value, None, &LoadOptions::default())
    }

    /// Loads a parsed document with options; `location` (its file) is where
    /// relative file `$ref`s resolve from. The options' overlays apply to
    /// `value` first.
    pub fn load(
        mut value: Value,
        location: Option<PathBuf>,
        options: &LoadOptions,
    ) -> Result<Self, SpecError> {
        let warnings = apply_overlays(&options.overlays, &mut value, options.strict)?;
        Self::load_parsed(ParsedDocument::whole(value), location, options, warnings)
    }

    /// Loads `parsed`; `warnings` (from its overlays) come first.
    fn load_parsed(
        parsed: ParsedDocument,
        location: Option<PathBuf>,
        options: &LoadOptions,
        warnings: Vec<Warning>,
    ) -> Result<Self, SpecError> {
        let version = SpecVersion::detect(&parsed.value)?;
        let mut value = parsed.value;
        // Every `$ref` was read and none points into `paths`: the inline
        // schemas of operations are read once, where they are written.
        let inline = match parsed.referred_into {
            Some(_) if !parsed.paths_referred && version != SpecVersion::Swagger2 => {
                InlineSchemas::take_from(&mut value)
            }
            _ => InlineSchemas::default(),
        };
        let mut docs = Documents::new(value, location, options.remote_refs.clone());
        if let Some(referred_into) = parsed.referred_into {
            docs.allow_taking(referred_into);
        }
        let mut registry = DefRegistry::default();
        registry.reserve_components(docs.root(), parsed.schema_names.as_deref());
        let converter = Converter::new(&mut docs, &mut registry, version.is_legacy_schema());
        let root = converter.docs.root().clone();
        let mut reader = RouteReader {
            converter,
            root,
            version,
            strict: options.strict,
            warnings,
            cache: RefCache::default(),
            inline,
        };
        let routes = reader.read_routes()?;
        let RouteReader {
            mut converter,
            warnings,
            root,
            ..
        } = reader;
        // Without the reader's hold on the root, converting definitions
        // may move component schemas out of it.
        drop(root);
        converter.finish();
        Ok(Self {
            version,
            document: docs.root().clone(),
            routes: routes.into_iter().map(Arc::new).collect(),
            warnings,
            registry,
        })
    }

    /// The document's flavour.
    pub fn version(&self) -> SpecVersion {
        self.version
    }

    /// The document as loaded. Loaded from bytes or a file without
    /// overlays, it lacks the parts generation never reads, skipped while
    /// parsing: named examples (`components.examples`), webhooks
    /// (`webhooks`, `x-webhooks`) and, in JSON documents, the
    /// `components.schemas` that no `$ref` reaches. In OpenAPI 3 JSON
    /// documents whose `$ref`s all stay in the document, the schemas that
    /// loading converted are moved out too: the `components.schemas` that
    /// became definitions (see [`definition`](Self::definition); those
    /// some `$ref` points inside of stay) and, unless some `$ref` points
    /// into `paths`, the `schema` of each media type written inline in an
    /// operation's request body or responses (see [`routes`](Self::routes)).
    /// The rest (`info`, `servers`, the rest of `paths`, `security`,
    /// `components.securitySchemes`, ...) is as written.
    /// [`parse_slice`](crate::document::parse_slice) gives the whole document.
    /// With overlays, it is the whole document as the overlays left it.
    pub fn document(&self) -> &Value {
        &self.document
    }

    /// `info.title`, when present.
    pub fn title(&self) -> Option<&str> {
        self.document.pointer("/info/title").and_then(Value::as_str)
    }

    /// The top-level `tags`, in document order: the groups operations name
    /// in their own `tags`, with what each is (see [`Tag`]).
    pub fn tags(&self) -> Vec<Tag> {
        super::tags::read(&self.document)
    }

    /// Every operation that loaded, in document order.
    pub fn routes(&self) -> &[Arc<HttpRoute>] {
        &self.routes
    }

    /// What was skipped or approximated while loading, after the overlay
    /// actions whose target selected nothing.
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// A converted schema that route schemas refer to as `#/$defs/{name}`,
    /// in the portable spelling tool schemas use (a `null` type is an
    /// `anyOf` branch, never in a type array).
    pub fn definition(&self, name: &str) -> Option<&Value> {
        self.registry.get(name)
    }

    /// The security schemes, in OpenAPI 3 shape (Swagger 2.0
    /// `securityDefinitions` converted: `basic` becomes `http` + `basic`).
    pub fn security_schemes(&self) -> Map<String, Value> {
        if let Some(Value::Object(schemes)) = self.document.pointer("/components/securitySchemes") {
            return schemes.clone();
        }
        let Some(Value::Object(schemes)) = self.document.get("securityDefinitions") else {
            return Map::new();
        };
        schemes
            .iter()
            .map(|(name, scheme)| {
                let mut scheme = scheme.clone();
                if let Value::Object(object) = &mut scheme
                    && object.get("type").and_then(Value::as_str) == Some("basic")
                {
                    object.insert("type".to_owned(), "http".into());
                    object.insert("scheme".to_owned(), "basic".into());
                }
                (name.clone(), scheme)
            })
            .collect()
    }
}

impl FromStr for OpenApi {
    type Err = SpecError;

    /// Loads a document held in a string (JSON or YAML by content).
    fn from_str(text: &str) -> Result<Self, SpecError> {
        Self::from_slice(text.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn converted_component_schemas_leave_the_document_unless_referred_into() {
        let document = json!({
            "openapi": "3.1.0",
            "info": {"title": "t", "version": "1"},
            "paths": {"/a": {"post": {
                "requestBody": {"content": {"application/json": {"schema": {
                    "properties": {
                        "whole": {"$ref": "#/components/schemas/Whole"},
                        "part": {"$ref": "#/components/schemas/Inside/properties/x"},
                    },
                }}}},
                "responses": {"200": {"description": "ok"}},
            }}},
            "components": {"schemas": {
                "Whole": {"type": "object", "properties": {"again": {"$ref": "#/components/schemas/Whole"}}},
                "Inside": {"properties": {"x": {"type": "integer"}}},
                "Unused": {"type": "string"},
            }},
        });
        let bytes = serde_json::to_vec(&document).unwrap();
        let lazy = OpenApi::from_slice(&bytes).unwrap();
        let whole = OpenApi::from_value(document).unwrap();
        assert_eq!(
            lazy.document()["components"]["schemas"],
            json!({"Inside": {"properties": {"x": {"type": "integer"}}}})
        );
        assert_eq!(lazy.definition("Whole"), whole.definition("Whole"));
        assert_eq!(
            lazy.definition("Whole").unwrap()["properties"]["again"],
            json!({"$ref": "#/$defs/Whole"})
        );
        assert_eq!(lazy.definition("x"), whole.definition("x"));
        assert_eq!(
            lazy.routes()[0].request_body,
            whole.routes()[0].request_body
        );
    }
}
