//! Bytes to a JSON value: JSON or YAML, detected by content.

use std::path::Path;

use mcp_core::schema::json_kind;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::SpecError;
use crate::load::lazy_schemas::{ParsedDocument, materialize};
use crate::load::skip_unread::{LazyJsonDocument, LeanDocument};

/// The flavour of a document.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[non_exhaustive]
pub enum SpecVersion {
    /// Swagger 2.0 (converted into the same IR).
    Swagger2,
    /// OpenAPI 3.0.x (schemas normalized to JSON Schema 2020-12).
    V3_0,
    /// OpenAPI 3.1.x.
    V3_1,
    /// OpenAPI 3.2.x.
    V3_2,
}

impl SpecVersion {
    /// Reads `swagger: "2.0"` or `openapi: "3.x.y"` from a document root.
    pub fn detect(root: &Value) -> Result<Self, SpecError> {
        let Some(object) = root.as_object() else {
            return Err(SpecError::NotOpenApi(format!(
                "the root is {}, not an object",
                json_kind(root)
            )));
        };
        if let Some(version) = object.get("openapi") {
            let text = version_text(version);
            return match text.split('.').take(2).collect::<Vec<_>>().as_slice() {
                ["3", "0"] => Ok(Self::V3_0),
                ["3", "1"] => Ok(Self::V3_1),
                ["3", "2"] => Ok(Self::V3_2),
                _ => Err(SpecError::UnsupportedVersion(text)),
            };
        }
        if let Some(version) = object.get("swagger") {
            let text = version_text(version);
            return if text == "2.0" || text == "2" {
                Ok(Self::Swagger2)
            } else {
                Err(SpecError::UnsupportedVersion(text))
            };
        }
        Err(SpecError::NotOpenApi(
            "neither \"openapi\" nor \"swagger\" is set at the root".to_owned(),
        ))
    }

    /// Whether schemas need the 3.0 to 2020-12 normalization (`nullable`,
    /// boolean `exclusiveMinimum`, `example`).
    pub const fn is_legacy_schema(self) -> bool {
        matches!(self, Self::Swagger2 | Self::V3_0)
    }
}

fn version_text(version: &Value) -> String {
    match version {
        Value::String(text) => text.trim().to_owned(),
        other => other.to_string(),
    }
}

/// Parses a document: JSON when the first significant byte is `{` or `[`,
/// YAML otherwise (YAML is also tried when such JSON fails to parse).
pub fn parse_slice(bytes: &[u8]) -> Result<Value, SpecError> {
    parse_as(bytes)
}

/// Parses a document root for loading: the same value as [`parse_slice`]
/// without the parts generation never reads (see the `lean` module) and,
/// for JSON, without the component schemas no `$ref` reaches (see the
/// `lazy_schemas` module).
pub(crate) fn parse_document(bytes: &[u8]) -> Result<ParsedDocument, SpecError> {
    let (bytes, json) = sniff(bytes);
    if json && let Ok(lazy) = serde_json::from_slice::<LazyJsonDocument>(bytes) {
        return materialize(lazy.value, lazy.raw_schemas);
    }
    // YAML, or JSON that did not parse: the same fallback and errors as
    // `parse_slice`.
    parse_as::<LeanDocument>(bytes).map(|lean| ParsedDocument::whole(lean.0))
}

/// The bytes without a byte-order mark, and whether they look like JSON
/// (the first significant byte is `{` or `[`).
fn sniff(bytes: &[u8]) -> (&[u8], bool) {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let first = bytes.iter().copied().find(|b| !b.is_ascii_whitespace());
    (bytes, matches!(first, Some(b'{' | b'[')))
}

fn parse_as<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, SpecError> {
    let (bytes, json) = sniff(bytes);
    if json {
        return match serde_json::from_slice(bytes) {
            Ok(value) => Ok(value),
            Err(json_error) => parse_yaml(bytes).map_err(|_| SpecError::Syntax {
                format: "JSON",
                message: json_error.to_string(),
            }),
        };
    }
    parse_yaml(bytes)
}

/// Parses a document held in a string (JSON or YAML).
pub fn parse_str(text: &str) -> Result<Value, SpecError> {
    parse_slice(text.as_bytes())
}

/// Reads and parses a file (JSON or YAML, by content).
pub fn parse_path(path: &Path) -> Result<Value, SpecError> {
    parse_slice(&read(path)?)
}

/// Reads and parses a document file for loading (see [`parse_document`]).
pub(crate) fn parse_document_path(path: &Path) -> Result<ParsedDocument, SpecError> {
    parse_document(&read(path)?)
}

fn read(path: &Path) -> Result<Vec<u8>, SpecError> {
    std::fs::read(path).map_err(|source| SpecError::Io {
        path: path.to_owned(),
        source,
    })
}

fn parse_yaml<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, SpecError> {
    let mut options = serde_saphyr::options::Options::default();
    // Real documents are large (OpenAI's is 3 MB of YAML): scale the node and
    // event budgets with the input, keep the other protections.
    if let Some(budget) = options.budget.as_mut() {
        budget.max_nodes = budget.max_nodes.max(bytes.len());
        budget.max_events = budget.max_events.max(bytes.len().saturating_mul(2));
    }
    let value: T = serde_saphyr::from_slice_with_options(bytes, options).map_err(|error| {
        SpecError::Syntax {
            format: "YAML",
            message: error.to_string(),
        }
    })?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_and_yaml_are_detected_by_content() {
        assert_eq!(
            parse_str(" {\"openapi\": \"3.1.0\"}").unwrap(),
            json!({"openapi": "3.1.0"})
        );
        assert_eq!(
            parse_str("openapi: 3.0.3\ninfo: {title: t}\n").unwrap(),
            json!({"openapi": "3.0.3", "info": {"title": "t"}})
        );
    }

    #[test]
    fn yaml_integer_keys_become_strings() {
        let value = parse_str("responses:\n  200:\n    description: ok\n").unwrap();
        assert_eq!(value, json!({"responses": {"200": {"description": "ok"}}}));
    }

    #[test]
    fn versions() {
        assert_eq!(
            SpecVersion::detect(&json!({"openapi": "3.0.3"})).unwrap(),
            SpecVersion::V3_0
        );
        assert_eq!(
            SpecVersion::detect(&json!({"openapi": "3.1.0"})).unwrap(),
            SpecVersion::V3_1
        );
        assert_eq!(
            SpecVersion::detect(&json!({"openapi": "3.2.0"})).unwrap(),
            SpecVersion::V3_2
        );
        assert_eq!(
            SpecVersion::detect(&json!({"swagger": "2.0"})).unwrap(),
            SpecVersion::Swagger2
        );
        assert!(SpecVersion::detect(&json!({"openapi": "4.0"})).is_err());
        assert!(SpecVersion::detect(&json!([1])).is_err());
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(parse_str("{\"a\": ").is_err());
        assert!(parse_str(": : :\n  - [").is_err());
    }
}
