//! JSON pointers: looking a node up, escaping and unescaping segments, and
//! the percent-decoding of pointers written in URI fragments.

use std::borrow::Cow;

use serde_json::Value;

/// Looks a JSON pointer up (already percent-decoded).
pub(crate) fn lookup<'v>(root: &'v Value, pointer: &str) -> Option<&'v Value> {
    if pointer.is_empty() {
        return Some(root);
    }
    let mut current = root;
    // One buffer for the tokens that need unescaping (`~1` is in every path).
    let mut unescaped = String::new();
    for token in pointer.strip_prefix('/')?.split('/') {
        let token = if token.contains('~') {
            unescaped.clear();
            unescape_into(&mut unescaped, token);
            unescaped.as_str()
        } else {
            token
        };
        current = match current {
            Value::Object(map) => map.get(token)?,
            Value::Array(items) => items.get(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(current)
}

/// Appends a pointer token with `~1` and `~0` unescaped, in one pass.
pub(crate) fn unescape_into(out: &mut String, token: &str) {
    let mut chars = token.chars();
    while let Some(c) = chars.next() {
        if c != '~' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('1') => out.push('/'),
            Some('0') => out.push('~'),
            Some(other) => {
                out.push('~');
                out.push(other);
            }
            None => out.push('~'),
        }
    }
}

/// Escapes one JSON pointer segment (`~` to `~0`, `/` to `~1`).
pub(crate) fn escape_segment(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// Appends one segment to a pointer.
pub(crate) fn child(pointer: &str, segment: &str) -> String {
    let mut out = String::with_capacity(pointer.len() + segment.len() + 1);
    out.push_str(pointer);
    out.push('/');
    out.push_str(&escape_segment(segment));
    out
}

/// Decodes `%XX` escapes (pointers in URI fragments may be percent-encoded),
/// borrowing `text` when it has none.
pub(crate) fn percent_decode(text: &str) -> Cow<'_, str> {
    percent_encoding::percent_decode_str(text).decode_utf8_lossy()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn percent_decoding() {
        assert_eq!(
            percent_decode("/paths/~1v2~1apps~1%7Bid%7D"),
            "/paths/~1v2~1apps~1{id}"
        );
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%4"), "%4");
    }

    #[test]
    fn escaped_segments_are_looked_up() {
        let root = json!({"paths": {"/a~b": {"get": [1, 2]}}});
        let pointer = child(&child("/paths", "/a~b"), "get");
        assert_eq!(pointer, "/paths/~1a~0b/get");
        assert_eq!(lookup(&root, &format!("{pointer}/1")), Some(&json!(2)));
        assert_eq!(lookup(&root, "/paths/nope"), None);
    }
}
