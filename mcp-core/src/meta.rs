//! `_meta`: the specification's extension point, and its key rule.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{JsonObject, ToolError};

/// An `_meta` object: extension fields keyed `[prefix/]name`.
///
/// Values read from the wire are kept as they are; keys added through
/// [`Meta::insert`] (and every builder method that takes a key) are checked
/// with [`validate_meta_key`].
///
/// ```
/// use mcp_core::Meta;
/// use serde_json::json;
///
/// let mut meta = Meta::new();
/// meta.insert("com.example.acme/audit-tier", json!("high")).unwrap();
/// assert!(meta.insert("io.modelcontextprotocol/anything", json!(1)).is_err());
/// assert_eq!(serde_json::to_value(&meta).unwrap(), json!({"com.example.acme/audit-tier": "high"}));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Meta(JsonObject);

impl Meta {
    /// An empty `_meta`.
    pub fn new() -> Self {
        Self::default()
    }

    /// Checks the key and inserts the value, returning the value it replaces.
    pub fn insert(
        &mut self,
        key: impl Into<String>,
        value: Value,
    ) -> Result<Option<Value>, ToolError> {
        let key = key.into();
        validate_meta_key(&key)?;
        Ok(self.0.insert(key, value))
    }

    /// Checks every key of `object` and makes it the `_meta`.
    pub fn from_object(object: JsonObject) -> Result<Self, ToolError> {
        object.keys().try_for_each(|key| validate_meta_key(key))?;
        Ok(Self(object))
    }

    /// Wraps an object received from a peer without checking its keys.
    pub fn from_wire(object: JsonObject) -> Self {
        Self(object)
    }

    /// The value under `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.get(key)
    }

    /// Whether there is no entry.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The entries in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.0.iter()
    }

    /// The entries as a JSON object.
    pub fn as_object(&self) -> &JsonObject {
        &self.0
    }

    /// The entries as an owned JSON object.
    pub fn into_object(self) -> JsonObject {
        self.0
    }

    /// Adds every entry of `other` (checked already), replacing equal keys.
    pub(crate) fn extend(&mut self, other: Meta) {
        self.0.extend(other.0);
    }
}

/// Checks an `_meta` key against the MCP rule.
///
/// A key is `[prefix/]name`:
/// - the prefix is dot-separated labels, each starting with a letter, ending
///   with a letter or digit, with letters, digits and hyphens inside;
/// - a prefix with `modelcontextprotocol` or `mcp` as one of its labels is
///   reserved for the specification (`io.modelcontextprotocol/`, `dev.mcp/`,
///   and the forms `mcp.dev/` or `tools.mcp.com/` the specification lists);
/// - the name, unless empty, begins and ends with a letter or digit and has
///   letters, digits, `-`, `_` and `.` inside.
///
/// ```
/// use mcp_core::validate_meta_key;
///
/// assert!(validate_meta_key("com.example.acme/audit-tier").is_ok());
/// assert!(validate_meta_key("progress").is_ok());
/// assert_eq!(
///     validate_meta_key("dev.mcp/x").unwrap_err().to_string(),
///     "`_meta` key `dev.mcp/x` uses the reserved prefix `dev.mcp/` (labels `modelcontextprotocol` and `mcp` belong to the MCP specification)"
/// );
/// ```
pub fn validate_meta_key(key: &str) -> Result<(), ToolError> {
    let invalid = |reason: String| ToolError::InvalidMetaKey {
        key: key.to_owned(),
        reason,
    };
    let (prefix, name) = match key.rsplit_once('/') {
        Some((prefix, name)) => (Some(prefix), name),
        None => (None, key),
    };
    if let Some(prefix) = prefix {
        for label in prefix.split('.') {
            check_label(label)
                .map_err(|reason| invalid(format!("prefix label `{label}` {reason}")))?;
        }
        if prefix.split('.').any(|label| {
            label.eq_ignore_ascii_case("modelcontextprotocol") || label.eq_ignore_ascii_case("mcp")
        }) {
            return Err(ToolError::ReservedMetaKey {
                key: key.to_owned(),
                prefix: format!("{prefix}/"),
            });
        }
    }
    check_name(name).map_err(|reason| invalid(format!("name `{name}` {reason}")))
}

fn check_label(label: &str) -> Result<(), &'static str> {
    let bytes = label.as_bytes();
    match (bytes.first(), bytes.last()) {
        (None, _) | (_, None) => Err("is empty"),
        (Some(first), _) if !first.is_ascii_alphabetic() => Err("must start with a letter"),
        (_, Some(last)) if !last.is_ascii_alphanumeric() => Err("must end with a letter or digit"),
        _ if !bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'-') =>
        {
            Err("may only contain letters, digits and hyphens")
        }
        _ => Ok(()),
    }
}

fn check_name(name: &str) -> Result<(), &'static str> {
    let bytes = name.as_bytes();
    match (bytes.first(), bytes.last()) {
        (None, _) | (_, None) => Ok(()),
        (Some(first), Some(last))
            if !first.is_ascii_alphanumeric() || !last.is_ascii_alphanumeric() =>
        {
            Err("must begin and end with a letter or digit")
        }
        _ if !bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.')) =>
        {
            Err("may only contain letters, digits, `-`, `_` and `.`")
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_spec_shaped_keys() {
        for key in [
            "a",
            "com.example/x",
            "com.example.acme/audit-tier",
            "x1/a.b_c-d",
            "com.example/",
            "mcpx.dev/y",
        ] {
            assert!(validate_meta_key(key).is_ok(), "{key}");
        }
    }

    #[test]
    fn refuses_reserved_prefixes() {
        for key in [
            "io.modelcontextprotocol/x",
            "dev.mcp/x",
            "mcp.dev/x",
            "tools.mcp.com/x",
            "api.MCP/x",
        ] {
            match validate_meta_key(key) {
                Err(ToolError::ReservedMetaKey { key: k, .. }) => assert_eq!(k, key),
                other => panic!("{key}: {other:?}"),
            }
        }
    }

    #[test]
    fn refuses_malformed_keys_naming_the_part() {
        let cases = [
            (
                "1com.example/x",
                "prefix label `1com` must start with a letter",
            ),
            (
                "com-/x",
                "prefix label `com-` must end with a letter or digit",
            ),
            ("com..example/x", "prefix label `` is empty"),
            ("co_m/x", "prefix label `co_m` may only contain"),
            ("com.example/-x", "name `-x` must begin and end"),
            ("com.example/a b", "name `a b` may only contain"),
        ];
        for (key, expected) in cases {
            let message = validate_meta_key(key).unwrap_err().to_string();
            assert!(message.contains(expected), "{key}: {message}");
            assert!(message.contains(key), "{key}: {message}");
        }
    }
}
