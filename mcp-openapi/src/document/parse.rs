//! Bytes to a JSON value: JSON or YAML, detected by content.

use std::path::Path;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::SpecError;

/// Parses a document: JSON when the first significant byte is `{` or `[`,
/// YAML otherwise (YAML is also tried when such JSON fails to parse).
pub fn parse_slice(bytes: &[u8]) -> Result<Value, SpecError> {
    parse_as(bytes)
}

/// The bytes without a byte-order mark, and whether they look like JSON
/// (the first significant byte is `{` or `[`).
pub(crate) fn sniff(bytes: &[u8]) -> (&[u8], bool) {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let first = bytes.iter().copied().find(|b| !b.is_ascii_whitespace());
    (bytes, matches!(first, Some(b'{' | b'[')))
}

/// Parses `T` from JSON or YAML, by content (see [`parse_slice`]).
pub(crate) fn parse_as<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, SpecError> {
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
pub(crate) fn parse_str(text: &str) -> Result<Value, SpecError> {
    parse_slice(text.as_bytes())
}

/// Reads and parses a file (JSON or YAML, by content).
pub(crate) fn parse_path(path: &Path) -> Result<Value, SpecError> {
    parse_slice(&read(path)?)
}

/// Reads a file.
pub(crate) fn read(path: &Path) -> Result<Vec<u8>, SpecError> {
    std::fs::read(path).map_err(|error| SpecError::Io {
        path: path.to_owned(),
        error,
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
    fn garbage_is_an_error_not_a_panic() {
        assert!(parse_str("{\"a\": ").is_err());
        assert!(parse_str(": : :\n  - [").is_err());
    }
}
