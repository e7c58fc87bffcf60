//! Local `$ref`s: where one leads inside its document, and the name it
//! gives what it points to.

use std::borrow::Cow;

use percent_encoding::percent_decode_str;
use serde_json::Value;

/// What `reference` points to inside `root`, when it is a reference into
/// the same document (`#`, or `#` and a JSON Pointer such as
/// `#/$defs/Pet` or `#/components/schemas/Pet`) that leads somewhere.
/// The pointer is percent-decoded first, as a URI fragment is.
///
/// ```
/// use mcp_core::schema::walk::resolve;
/// use serde_json::json;
///
/// let root = json!({"$defs": {"a/b": {"type": "string"}, "c d": true}});
/// assert_eq!(resolve(&root, "#/$defs/a~1b"), Some(&json!({"type": "string"})));
/// assert_eq!(resolve(&root, "#/$defs/c%20d"), Some(&json!(true)));
/// assert_eq!(resolve(&root, "#"), Some(&root));
/// assert_eq!(resolve(&root, "other.json#/x"), None);
/// ```
pub fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let fragment = reference.strip_prefix('#')?;
    let pointer: Cow<'_, str> = percent_decode_str(fragment).decode_utf8().ok()?;
    if pointer.is_empty() {
        return Some(root);
    }
    root.pointer(&pointer)
}

/// The name a local reference gives what it points to: its last pointer
/// token, decoded (`#/$defs/simple-user` names `simple-user`), if any.
///
/// ```
/// use mcp_core::schema::walk::reference_name;
///
/// assert_eq!(reference_name("#/$defs/simple-user").as_deref(), Some("simple-user"));
/// assert_eq!(reference_name("#/$defs/a~1b").as_deref(), Some("a/b"));
/// assert_eq!(reference_name("#"), None);
/// ```
pub fn reference_name(reference: &str) -> Option<String> {
    let (_, last) = reference.rsplit_once('/')?;
    if last.is_empty() {
        return None;
    }
    let decoded = percent_decode_str(last).decode_utf8_lossy();
    Some(decoded.replace("~1", "/").replace("~0", "~"))
}
