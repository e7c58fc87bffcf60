//! The Overlay Specification versions this crate applies: 1.0.x and 1.1.x.

use mcp_core::schema::json_kind;
use serde_json::Value;

use super::fault::Fault;

/// The version an overlay declares in its `overlay` field; the patch
/// number is ignored, as the specification asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum OverlayVersion {
    /// Overlay 1.0.x: `update` and `remove`; targets select objects or arrays.
    V1_0,
    /// Overlay 1.1.x: adds `copy`, and `update` of primitive values.
    V1_1,
}

impl OverlayVersion {
    /// Reads the `overlay` field of an overlay's root.
    pub(crate) fn read(value: &Value) -> Result<Self, Fault> {
        let Value::String(text) = value else {
            return Err(Fault::new(
                "/overlay",
                format!(
                    "the version is {}, not a string such as \"1.1.0\"",
                    json_kind(value)
                ),
            ));
        };
        let parts: Vec<&str> = text.trim().split('.').collect();
        let patch_is_number =
            |patch: &str| !patch.is_empty() && patch.bytes().all(|b| b.is_ascii_digit());
        match parts.as_slice() {
            ["1", "0", patch] if patch_is_number(patch) => Ok(Self::V1_0),
            ["1", "1", patch] if patch_is_number(patch) => Ok(Self::V1_1),
            _ => Err(Fault::new(
                "/overlay",
                format!("unsupported overlay version `{text}` (supported: 1.0.x, 1.1.x)"),
            )),
        }
    }
}

impl std::fmt::Display for OverlayVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::V1_0 => "1.0",
            Self::V1_1 => "1.1",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn patch_numbers_are_ignored_other_versions_refused() {
        assert_eq!(
            OverlayVersion::read(&json!("1.0.0")),
            Ok(OverlayVersion::V1_0)
        );
        assert_eq!(
            OverlayVersion::read(&json!("1.0.3")),
            Ok(OverlayVersion::V1_0)
        );
        assert_eq!(
            OverlayVersion::read(&json!("1.1.0")),
            Ok(OverlayVersion::V1_1)
        );
        for refused in ["1.2.0", "2.0.0", "1.1", "1.0.x", "1.1.0-rc1", ""] {
            let fault = OverlayVersion::read(&json!(refused)).unwrap_err();
            assert_eq!(fault.pointer, "/overlay");
            assert!(
                fault.message.contains("unsupported overlay version"),
                "{fault:?}"
            );
        }
        let fault = OverlayVersion::read(&json!(1.1)).unwrap_err();
        assert_eq!(
            fault.message,
            "the version is a number, not a string such as \"1.1.0\""
        );
    }
}
