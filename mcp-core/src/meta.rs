//! Metadata: [`Meta`], the `_meta` object (the specification's extension
//! point on every value and message) with its key rule, and [`Metadata`],
//! the bundle of display metadata (`title`, `icons` and a `_meta`) that
//! tools, prompts and resources can share through their builders.

mod bundle;

pub use bundle::Metadata;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::ToolError;
use crate::json::JsonObject;

/// The `_meta` key recording that a tool's structured output is wrapped as
/// `{"result": ...}` because its schema is not an object.
pub const WRAPPED_OUTPUT_META_KEY: &str = "rs.mcp-toolkit/output-wrapped";

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
/// use mcp_core::meta::validate_meta_key;
///
/// assert!(validate_meta_key("com.example.acme/audit-tier").is_ok());
/// assert!(validate_meta_key("progress").is_ok());
/// assert_eq!(
///     validate_meta_key("dev.mcp/x").unwrap_err().to_string(),
///     "`_meta` key `dev.mcp/x` uses the reserved prefix `dev.mcp/` (labels `modelcontextprotocol` and `mcp` belong to the MCP specification)"
/// );
/// ```
pub fn validate_meta_key(key: &str) -> Result<(), ToolError> {
    let Some(problem) = meta_key_problem(key) else {
        return Ok(());
    };
    let part = key.get(problem.start..problem.end).unwrap_or(key);
    let invalid = |reason: String| ToolError::InvalidMetaKey {
        key: key.to_owned(),
        reason,
    };
    Err(match problem.kind {
        MetaKeyProblemKind::ReservedPrefix => ToolError::ReservedMetaKey {
            key: key.to_owned(),
            prefix: format!("{part}/"),
        },
        MetaKeyProblemKind::EmptyLabel => invalid(format!("prefix label `{part}` is empty")),
        MetaKeyProblemKind::LabelStart => {
            invalid(format!("prefix label `{part}` must start with a letter"))
        }
        MetaKeyProblemKind::LabelEnd => invalid(format!(
            "prefix label `{part}` must end with a letter or digit"
        )),
        MetaKeyProblemKind::LabelCharacters => invalid(format!(
            "prefix label `{part}` may only contain letters, digits and hyphens"
        )),
        MetaKeyProblemKind::NameEnds => invalid(format!(
            "name `{part}` must begin and end with a letter or digit"
        )),
        MetaKeyProblemKind::NameCharacters => invalid(format!(
            "name `{part}` may only contain letters, digits, `-`, `_` and `.`"
        )),
    })
}

/// What is wrong with an `_meta` key, and where: the byte range
/// `start..end` of the offending label, name or (for a reserved prefix) the
/// whole prefix without its slash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct MetaKeyProblem {
    /// The rule broken.
    pub kind: MetaKeyProblemKind,
    /// Where the offending part starts (bytes).
    pub start: usize,
    /// Where it ends (bytes, exclusive).
    pub end: usize,
}

/// The rules of an `_meta` key; see [`validate_meta_key`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MetaKeyProblemKind {
    /// The prefix has a `modelcontextprotocol` or `mcp` label.
    ReservedPrefix,
    /// A prefix label is empty.
    EmptyLabel,
    /// A prefix label does not start with a letter.
    LabelStart,
    /// A prefix label does not end with a letter or digit.
    LabelEnd,
    /// A prefix label has a character other than letters, digits and `-`.
    LabelCharacters,
    /// The name does not begin and end with a letter or digit.
    NameEnds,
    /// The name has a character other than letters, digits, `-`, `_`, `.`.
    NameCharacters,
}

/// The `_meta` key rule as a `const fn` (the one place it is written): the
/// first problem of `key`, or `None` when the key is valid. The `#[tool]`
/// macro evaluates it at compile time.
///
/// ```
/// use mcp_core::{meta::{meta_key_problem, MetaKeyProblemKind}};
///
/// const RESERVED: bool = matches!(
///     meta_key_problem("io.modelcontextprotocol/x"),
///     Some(p) if matches!(p.kind, MetaKeyProblemKind::ReservedPrefix)
/// );
/// assert!(RESERVED);
/// assert!(meta_key_problem("com.example/x").is_none());
/// ```
pub const fn meta_key_problem(key: &str) -> Option<MetaKeyProblem> {
    let bytes = key.as_bytes();
    let mut slash = None;
    let mut i = bytes.len();
    while i > 0 {
        i -= 1;
        if bytes[i] == b'/' {
            slash = Some(i);
            break;
        }
    }
    let name_start = match slash {
        Some(slash) => {
            if let Some(problem) = prefix_problem(bytes, slash) {
                return Some(problem);
            }
            slash + 1
        }
        None => 0,
    };
    name_problem(bytes, name_start)
}

const fn problem(kind: MetaKeyProblemKind, start: usize, end: usize) -> Option<MetaKeyProblem> {
    Some(MetaKeyProblem { kind, start, end })
}

/// Checks every label of `bytes[..end]`, then the reserved labels.
const fn prefix_problem(bytes: &[u8], end: usize) -> Option<MetaKeyProblem> {
    let mut start = 0;
    let mut i = 0;
    while i <= end {
        if i == end || bytes[i] == b'.' {
            if let Some(problem) = label_problem(bytes, start, i) {
                return Some(problem);
            }
            start = i + 1;
        }
        i += 1;
    }
    start = 0;
    i = 0;
    while i <= end {
        if i == end || bytes[i] == b'.' {
            if is_reserved_label(bytes, start, i) {
                return problem(MetaKeyProblemKind::ReservedPrefix, 0, end);
            }
            start = i + 1;
        }
        i += 1;
    }
    None
}

const fn label_problem(bytes: &[u8], start: usize, end: usize) -> Option<MetaKeyProblem> {
    if start == end {
        return problem(MetaKeyProblemKind::EmptyLabel, start, end);
    }
    if !bytes[start].is_ascii_alphabetic() {
        return problem(MetaKeyProblemKind::LabelStart, start, end);
    }
    if !bytes[end - 1].is_ascii_alphanumeric() {
        return problem(MetaKeyProblemKind::LabelEnd, start, end);
    }
    let mut i = start;
    while i < end {
        if !(bytes[i].is_ascii_alphanumeric() || bytes[i] == b'-') {
            return problem(MetaKeyProblemKind::LabelCharacters, start, end);
        }
        i += 1;
    }
    None
}

const fn is_reserved_label(bytes: &[u8], start: usize, end: usize) -> bool {
    eq_ignore_case(bytes, start, end, b"modelcontextprotocol")
        || eq_ignore_case(bytes, start, end, b"mcp")
}

const fn eq_ignore_case(bytes: &[u8], start: usize, end: usize, word: &[u8]) -> bool {
    if end - start != word.len() {
        return false;
    }
    let mut i = 0;
    while i < word.len() {
        if bytes[start + i].to_ascii_lowercase() != word[i] {
            return false;
        }
        i += 1;
    }
    true
}

const fn name_problem(bytes: &[u8], start: usize) -> Option<MetaKeyProblem> {
    let end = bytes.len();
    if start == end {
        return None;
    }
    if !bytes[start].is_ascii_alphanumeric() || !bytes[end - 1].is_ascii_alphanumeric() {
        return problem(MetaKeyProblemKind::NameEnds, start, end);
    }
    let mut i = start;
    while i < end {
        let b = bytes[i];
        if !(b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.') {
            return problem(MetaKeyProblemKind::NameCharacters, start, end);
        }
        i += 1;
    }
    None
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
