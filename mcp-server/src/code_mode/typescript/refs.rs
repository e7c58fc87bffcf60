//! `$ref`s inside one schema document: resolving a reference (`#`,
//! `#/$defs/...`, `#/definitions/...`, any JSON Pointer into the document),
//! and which referenced schemas deserve a name of their own: those on a
//! cycle, and composite ones reached more than once.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

/// The most schemas read inside one another; deeper ones are not read.
const MAX_NESTING: usize = 64;

/// Keywords whose value is one schema.
const ONE_SCHEMA: [&str; 4] = ["items", "additionalProperties", "additionalItems", "not"];
/// Keywords whose value is a list of schemas.
const SCHEMA_LISTS: [&str; 5] = ["anyOf", "oneOf", "allOf", "prefixItems", "items"];
/// Keywords whose value maps names to schemas.
const SCHEMA_MAPS: [&str; 2] = ["properties", "patternProperties"];

/// The schema `reference` points to inside `root`, if it is a reference
/// into the same document (`#` or `#/...`) that leads somewhere.
pub(crate) fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let pointer = reference.strip_prefix('#')?;
    if pointer.is_empty() {
        return Some(root);
    }
    let mut target = root;
    for token in pointer.strip_prefix('/')?.split('/') {
        let token = unescape(token);
        target = match target {
            Value::Object(map) => map.get(token.as_str())?,
            Value::Array(items) => items.get(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(target)
}

/// A reference token of a JSON Pointer as written in a URI fragment:
/// percent-decoded, then `~1` as `/` and `~0` as `~`.
fn unescape(token: &str) -> String {
    let decoded = percent_decode(token);
    decoded.replace("~1", "/").replace("~0", "~")
}

fn percent_decode(token: &str) -> String {
    if !token.contains('%') {
        return token.to_owned();
    }
    let bytes = token.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut position = 0;
    while position < bytes.len() {
        let hex = bytes
            .get(position + 1..position + 3)
            .and_then(|pair| std::str::from_utf8(pair).ok())
            .and_then(|pair| u8::from_str_radix(pair, 16).ok());
        match (bytes[position], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                position += 3;
            }
            (byte, _) => {
                out.push(byte);
                position += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The last token of a reference, as the name of what it points to
/// (`#/$defs/simple-user` is `simple-user`; the root itself is `Root`).
pub(crate) fn ref_name(reference: &str) -> String {
    match reference.rsplit_once('/') {
        Some((_, last)) if !last.is_empty() => unescape(last),
        _ => "Root".to_owned(),
    }
}

/// Which references of a document, reached from some entry schemas, are
/// to be written as named types.
#[derive(Debug, Default)]
pub(crate) struct Uses {
    /// How many places refer to each reference (each reached schema read
    /// once).
    counts: HashMap<String, usize>,
    /// References that lead back to themselves.
    cyclic: HashSet<String>,
    /// References whose target is more than a scalar or a short enum.
    composite: HashSet<String>,
    /// How many schemas are being read inside one another.
    nesting: usize,
}

impl Uses {
    /// The uses of references in `root` reached from `entries`.
    pub(crate) fn of<'a>(root: &'a Value, entries: impl IntoIterator<Item = &'a Value>) -> Self {
        let mut uses = Self::default();
        let mut open = Vec::new();
        for entry in entries {
            uses.visit(root, entry, &mut open);
        }
        uses
    }

    /// Whether `reference` is written as a named type: it is on a cycle,
    /// or composite and referred to from more than one place.
    pub(crate) fn named(&self, reference: &str) -> bool {
        self.cyclic.contains(reference)
            || (self.composite.contains(reference)
                && self.counts.get(reference).is_some_and(|&count| count > 1))
    }

    fn visit<'a>(&mut self, root: &'a Value, schema: &'a Value, open: &mut Vec<&'a str>) {
        self.nesting += 1;
        if self.nesting <= MAX_NESTING
            && let Value::Object(schema) = schema
        {
            self.visit_keywords(root, schema, open);
        }
        self.nesting -= 1;
    }

    fn visit_keywords<'a>(
        &mut self,
        root: &'a Value,
        schema: &'a serde_json::Map<String, Value>,
        open: &mut Vec<&'a str>,
    ) {
        if let Some(Value::String(reference)) = schema.get("$ref") {
            let count = self.counts.entry(reference.clone()).or_default();
            *count += 1;
            if open.contains(&reference.as_str()) {
                self.cyclic.insert(reference.clone());
            } else if *count == 1
                && let Some(target) = resolve(root, reference)
            {
                if is_composite(target) {
                    self.composite.insert(reference.clone());
                }
                open.push(reference);
                self.visit(root, target, open);
                open.pop();
            }
        }
        for keyword in ONE_SCHEMA {
            if let Some(sub) = schema.get(keyword).filter(|sub| sub.is_object()) {
                self.visit(root, sub, open);
            }
        }
        for keyword in SCHEMA_LISTS {
            if let Some(Value::Array(subs)) = schema.get(keyword) {
                for sub in subs {
                    self.visit(root, sub, open);
                }
            }
        }
        for keyword in SCHEMA_MAPS {
            if let Some(Value::Object(subs)) = schema.get(keyword) {
                for sub in subs.values() {
                    self.visit(root, sub, open);
                }
            }
        }
    }
}

/// Whether a schema is worth a name when used twice: anything but a scalar
/// type or an enum of at most three values.
fn is_composite(schema: &Value) -> bool {
    let Value::Object(schema) = schema else {
        return false;
    };
    if let Some(Value::Array(values)) = schema.get("enum") {
        return values.len() > 3;
    }
    [
        "properties",
        "items",
        "prefixItems",
        "anyOf",
        "oneOf",
        "allOf",
        "additionalProperties",
        "$ref",
    ]
    .iter()
    .any(|keyword| schema.contains_key(*keyword))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pointers_resolve_with_escapes() {
        let root = json!({
            "$defs": {"a/b": {"type": "string"}, "c~d": {"type": "number"}, "e f": {"type": "boolean"}},
            "definitions": {"Old": {"type": "null"}},
            "properties": {"list": {"prefixItems": [{"const": 1}]}}
        });
        assert_eq!(
            resolve(&root, "#/$defs/a~1b"),
            Some(&json!({"type": "string"}))
        );
        assert_eq!(
            resolve(&root, "#/$defs/c~0d"),
            Some(&json!({"type": "number"}))
        );
        assert_eq!(
            resolve(&root, "#/$defs/e%20f"),
            Some(&json!({"type": "boolean"}))
        );
        assert_eq!(
            resolve(&root, "#/definitions/Old"),
            Some(&json!({"type": "null"}))
        );
        assert_eq!(
            resolve(&root, "#/properties/list/prefixItems/0"),
            Some(&json!({"const": 1}))
        );
        assert_eq!(resolve(&root, "#"), Some(&root));
        assert_eq!(resolve(&root, "#/$defs/missing"), None);
        assert_eq!(resolve(&root, "other.json#/$defs/a"), None);
        assert_eq!(resolve(&root, "#/properties/list/prefixItems/x"), None);
        assert_eq!(ref_name("#/$defs/a~1b"), "a/b");
        assert_eq!(ref_name("#"), "Root");
    }

    #[test]
    fn cycles_and_shared_composites_are_named() {
        let root = json!({
            "type": "object",
            "properties": {
                "owner": {"$ref": "#/$defs/user"},
                "author": {"$ref": "#/$defs/user"},
                "state": {"$ref": "#/$defs/state"},
                "again": {"$ref": "#/$defs/state"},
                "tree": {"$ref": "#/$defs/node"},
                "once": {"$ref": "#/$defs/once"}
            },
            "$defs": {
                "user": {"type": "object", "properties": {"login": {"type": "string"}}},
                "state": {"type": "string", "enum": ["open", "closed"]},
                "node": {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}},
                "once": {"type": "object", "properties": {"user": {"$ref": "#/$defs/user"}}}
            }
        });
        let uses = Uses::of(&root, [&root]);
        assert!(uses.named("#/$defs/user"));
        assert!(!uses.named("#/$defs/state"));
        assert!(uses.named("#/$defs/node"));
        assert!(!uses.named("#/$defs/once"));
    }
}
