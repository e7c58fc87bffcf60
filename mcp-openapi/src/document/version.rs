//! The flavour of a document: Swagger 2.0 or OpenAPI 3.0, 3.1, 3.2.

use mcp_core::schema::json_kind;
use serde_json::Value;

use crate::error::SpecError;

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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
}
