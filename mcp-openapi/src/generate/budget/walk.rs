//! The subschemas of a schema and whether each may be loosened without
//! making the whole schema wrong.
//!
//! Loosening a subschema (accepting more instances) loosens the whole schema
//! only where the whole is monotone in it: under `properties`, `items`,
//! `anyOf`, `allOf` and their kin. Under `not`, `if`, a `contains` bounded
//! by `maxContains`, a `oneOf` (two branches might then both match) or the
//! in-place applicators beside `unevaluatedProperties`/`unevaluatedItems`
//! (they change what counts as evaluated), a looser subschema can reject an
//! instance the original accepted: such subschemas are fixed. A `oneOf`
//! counts as loosenable when no `anyOf` stands beside it, because trimming
//! first turns it into an `anyOf` (see `loosen::relax`).

use std::borrow::Cow;

use mcp_core::schema::walk::Keyword;
use serde_json::{Map, Value};

/// Keywords applying in place, whose evaluated properties and items the
/// `unevaluated*` keywords beside them read.
const IN_PLACE: &[&str] = &[
    "allOf",
    "anyOf",
    "oneOf",
    "then",
    "else",
    "dependentSchemas",
];

/// Whether `schema` reads the annotations of its in-place applicators.
fn reads_evaluation(schema: &Map<String, Value>) -> bool {
    ["unevaluatedProperties", "unevaluatedItems"]
        .iter()
        .any(|key| {
            schema
                .get(*key)
                .is_some_and(|value| value != &Value::Bool(true))
        })
}

/// Whether the subschemas under `keyword` of `schema` may be loosened.
pub(super) fn loosenable(schema: &Map<String, Value>, keyword: &str) -> bool {
    match keyword {
        "not" | "if" => false,
        "contains" => !schema.contains_key("maxContains"),
        "oneOf" => !schema.contains_key("anyOf") && !reads_evaluation(schema),
        _ if IN_PLACE.contains(&keyword) => !reads_evaluation(schema),
        _ => true,
    }
}

/// What of a schema decides whether the subschemas under its keywords may
/// be loosened (as [`loosenable`] says), read once for all of them.
#[derive(Clone, Copy)]
struct Siblings {
    reads_evaluation: bool,
    max_contains: bool,
    any_of: bool,
}

impl Siblings {
    /// What `schema` says, read in one pass over its keys; `None` when it
    /// has no subschemas.
    fn of(schema: &Map<String, Value>) -> Option<Self> {
        let mut out = Self {
            reads_evaluation: false,
            max_contains: false,
            any_of: false,
        };
        let mut applies = false;
        for (keyword, value) in schema {
            match keyword.as_str() {
                "unevaluatedProperties" | "unevaluatedItems" => {
                    out.reads_evaluation |= value != &Value::Bool(true);
                    applies = true;
                }
                "maxContains" => out.max_contains = true,
                "anyOf" => {
                    out.any_of = true;
                    applies = true;
                }
                keyword => applies = applies || Keyword::from_name(keyword).is_some(),
            }
        }
        applies.then_some(out)
    }

    fn loosenable(self, keyword: &str) -> bool {
        match keyword {
            "not" | "if" => false,
            "contains" => !self.max_contains,
            "oneOf" => !self.any_of && !self.reads_evaluation,
            _ if IN_PLACE.contains(&keyword) => !self.reads_evaluation,
            _ => true,
        }
    }
}

/// Whether the `$ref` of `schema` may point at a looser schema.
pub(super) fn ref_loosenable(schema: &Map<String, Value>) -> bool {
    !reads_evaluation(schema)
}

/// Calls `f` with each direct subschema of `schema` (objects only: boolean
/// schemas have nothing to loosen) and whether it may be loosened.
pub(super) fn subschemas<'s>(
    schema: &'s Map<String, Value>,
    mut f: impl FnMut(&'s Map<String, Value>, bool),
) {
    for (name, value) in schema {
        let Some(keyword) = Keyword::from_name(name) else {
            continue;
        };
        let ok = loosenable(schema, name);
        match value {
            Value::Object(named) if keyword.is_map() => named
                .values()
                .filter_map(Value::as_object)
                .for_each(|sub| f(sub, ok)),
            Value::Object(sub) => f(sub, ok),
            Value::Array(items) if !keyword.is_map() => items
                .iter()
                .filter_map(Value::as_object)
                .for_each(|sub| f(sub, ok)),
            _ => {}
        }
    }
}

/// Calls `f` with each direct subschema of `schema` that may be loosened,
/// mutably.
pub(super) fn loosenable_subschemas_mut(
    schema: &mut Map<String, Value>,
    mut f: impl FnMut(&mut Map<String, Value>),
) {
    let Some(siblings) = Siblings::of(schema) else {
        return;
    };
    for (keyword, value) in schema.iter_mut() {
        let keyword = keyword.as_str();
        let Some(named) = Keyword::from_name(keyword).map(Keyword::is_map) else {
            continue;
        };
        if !siblings.loosenable(keyword) {
            continue;
        }
        match value {
            Value::Object(sub) if named => sub
                .values_mut()
                .filter_map(Value::as_object_mut)
                .for_each(&mut f),
            Value::Object(sub) => f(sub),
            Value::Array(items) if !named => items
                .iter_mut()
                .filter_map(Value::as_object_mut)
                .for_each(&mut f),
            _ => {}
        }
    }
}

/// Where a `$ref` points.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Target<'a> {
    /// A whole definition under the root's `$defs`, by name.
    Def(Cow<'a, str>),
    /// Anything else (the root, a place inside a definition or a property,
    /// another document): trimming cannot tell what it would break.
    Other(&'a str),
}

/// Where the `$ref` of `schema` points, when it has one.
pub(super) fn target(schema: &Map<String, Value>) -> Option<Target<'_>> {
    let reference = schema.get("$ref")?;
    let Some(text) = reference.as_str() else {
        return Some(Target::Other(""));
    };
    match text.strip_prefix("#/$defs/") {
        Some(token) if !token.contains('/') => {
            let name = if token.contains('~') {
                Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
            } else {
                Cow::Borrowed(token)
            };
            Some(Target::Def(name))
        }
        _ => Some(Target::Other(text)),
    }
}

/// Calls `f` with every `$ref` target under `schema` (itself included) and
/// whether the schema making it may be loosened; `loosenable` says whether
/// `schema` itself may be. Only schema keywords are followed: a `$ref` key
/// inside an `example` or `enum` is data.
pub(super) fn refs<'s>(
    schema: &'s Map<String, Value>,
    loosenable: bool,
    f: &mut impl FnMut(Target<'s>, bool),
) {
    if schema.contains_key("$dynamicRef") || schema.contains_key("$recursiveRef") {
        f(Target::Other("$dynamicRef"), false);
    }
    if let Some(target) = target(schema) {
        f(target, loosenable && ref_loosenable(schema));
    }
    subschemas(schema, |sub, ok| refs(sub, loosenable && ok, f));
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn collected(schema: Value) -> Vec<(String, bool)> {
        let mut out = Vec::new();
        refs(schema.as_object().unwrap(), true, &mut |target, ok| {
            let name = match target {
                Target::Def(name) => name.into_owned(),
                Target::Other(text) => format!("other:{text}"),
            };
            out.push((name, ok));
        });
        out
    }

    #[test]
    fn refs_under_not_and_if_are_fixed_and_one_of_only_beside_any_of() {
        let schema = json!({
            "properties": {"a": {"$ref": "#/$defs/A"}, "b": {"not": {"$ref": "#/$defs/B"}}},
            "oneOf": [{"$ref": "#/$defs/C"}],
            "items": {"anyOf": [{"type": "null"}], "oneOf": [{"$ref": "#/$defs/F"}]},
            "if": {"$ref": "#/$defs/D"},
            "then": {"items": {"$ref": "#/$defs/E~1x"}},
            "example": {"$ref": "#/$defs/data"}
        });
        assert_eq!(
            collected(schema),
            vec![
                ("A".to_owned(), true),
                ("B".to_owned(), false),
                ("C".to_owned(), true),
                ("F".to_owned(), false),
                ("D".to_owned(), false),
                ("E/x".to_owned(), true),
            ]
        );
    }

    #[test]
    fn unevaluated_properties_fix_in_place_applicators() {
        let schema = json!({
            "unevaluatedProperties": false,
            "$ref": "#/$defs/A",
            "allOf": [{"$ref": "#/$defs/B"}],
            "properties": {"c": {"$ref": "#/$defs/C"}}
        });
        assert_eq!(
            collected(schema),
            vec![
                ("A".to_owned(), false),
                ("B".to_owned(), false),
                ("C".to_owned(), true),
            ]
        );
    }

    #[test]
    fn references_into_definitions_are_other() {
        let schema = json!({"items": {"$ref": "#/$defs/A/properties/b"}, "not": {"$ref": "#"}});
        assert_eq!(
            collected(schema),
            vec![
                ("other:#/$defs/A/properties/b".to_owned(), true),
                ("other:#".to_owned(), false),
            ]
        );
    }
}
