//! The top-level argument names an input schema knows, and the closest of
//! them to a misspelled one.

use serde_json::Value;

use crate::json::JsonObject;

/// Keywords with which a schema decides itself which properties it allows.
const SELF_DECIDING: [&str; 4] = [
    "additionalProperties",
    "patternProperties",
    "unevaluatedProperties",
    "$ref",
];

/// The root combinators whose branches' properties are known too.
const BRANCHES: [&str; 3] = ["allOf", "anyOf", "oneOf"];

/// The argument names `schema` knows, or `None` when it accepts others or
/// decides itself (see the [module docs](crate::arguments)).
pub(super) fn known_names(schema: &JsonObject) -> Option<Vec<String>> {
    let mut names = Vec::new();
    let mut named = collect(schema, &mut names)?;
    for keyword in BRANCHES {
        let Some(branches) = schema.get(keyword) else {
            continue;
        };
        for branch in branches.as_array()? {
            match branch {
                Value::Object(branch) => {
                    if BRANCHES.iter().any(|k| branch.contains_key(*k)) {
                        return None;
                    }
                    named |= collect(branch, &mut names)?;
                }
                Value::Bool(_) => {}
                _ => return None,
            }
        }
    }
    named.then_some(names)
}

/// Adds the names of `schema`'s `properties` to `names`: whether it has
/// `properties`, or `None` when it decides itself.
fn collect(schema: &JsonObject, names: &mut Vec<String>) -> Option<bool> {
    if SELF_DECIDING.iter().any(|k| schema.contains_key(*k)) {
        return None;
    }
    match schema.get("properties") {
        Some(Value::Object(properties)) => {
            for name in properties.keys() {
                if !names.contains(name) {
                    names.push(name.clone());
                }
            }
            Some(true)
        }
        Some(_) => None,
        None => Some(false),
    }
}

/// The message for the unknown argument `name`, suggesting the closest of
/// `known` when it is a likely typo.
pub(super) fn unknown_argument(name: &str, known: &[String]) -> String {
    let length = name.chars().count();
    let limit = (length / 3).max(1).min(length.saturating_sub(1));
    let closest = known
        .iter()
        .map(|candidate| (osa_distance(name, candidate), candidate))
        .filter(|(distance, _)| *distance <= limit)
        .min_by_key(|(distance, _)| *distance);
    match closest {
        Some((_, candidate)) => format!("unknown argument `{name}`; did you mean `{candidate}`?"),
        None if known.is_empty() => format!("unknown argument `{name}`; the tool takes none"),
        None => {
            let list: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
            format!(
                "unknown argument `{name}`; the tool takes {}",
                list.join(", ")
            )
        }
    }
}

/// The optimal string alignment distance between `a` and `b`, in chars:
/// insertions, deletions, substitutions and transpositions of adjacent
/// chars, no substring edited twice.
fn osa_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Rows i - 2, i - 1 and i of the distance matrix.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current: Vec<usize> = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        current[0] = i;
        for j in 1..=b.len() {
            let substitution = usize::from(a[i - 1] != b[j - 1]);
            let mut distance = (previous[j] + 1)
                .min(current[j - 1] + 1)
                .min(previous[j - 1] + substitution);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                distance = distance.min(before[j - 2] + 1);
            }
            current[j] = distance;
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;

    fn names(schema: Value) -> Option<Vec<String>> {
        known_names(schema.as_object().unwrap())
    }

    #[test]
    fn properties_and_root_branches_are_known() {
        assert_eq!(
            names(
                json!({"properties": {"a": {}}, "oneOf": [{"properties": {"b": {}}}, {"required": ["a"]}]})
            ),
            Some(vec!["a".to_owned(), "b".to_owned()])
        );
        assert_eq!(
            names(json!({"type": "object", "properties": {}})),
            Some(vec![])
        );
    }

    #[test]
    fn open_or_self_deciding_schemas_know_nothing() {
        assert_eq!(names(json!({"type": "object"})), None);
        assert_eq!(
            names(json!({"properties": {"a": {}}, "additionalProperties": false})),
            None
        );
        assert_eq!(
            names(json!({"properties": {"a": {}}, "allOf": [{"$ref": "#/$defs/X"}]})),
            None
        );
    }

    #[test]
    fn suggestions_name_the_closest_or_list_the_known() {
        let known = vec!["limit".to_owned(), "query".to_owned()];
        assert_eq!(
            unknown_argument("limt", &known),
            "unknown argument `limt`; did you mean `limit`?"
        );
        assert_eq!(
            unknown_argument("colour", &known),
            "unknown argument `colour`; the tool takes `limit`, `query`"
        );
        assert_eq!(
            unknown_argument("x", &[]),
            "unknown argument `x`; the tool takes none"
        );
    }

    #[test]
    fn osa_counts_each_edit_once() {
        assert_eq!(osa_distance("", ""), 0);
        assert_eq!(osa_distance("limt", "limit"), 1);
        assert_eq!(osa_distance("qeury", "query"), 1);
        assert_eq!(osa_distance("ca", "abc"), 3);
        assert_eq!(osa_distance("ä", "a"), 1);
    }

    proptest! {
        #[test]
        fn osa_matches_strsim(a in "[abcä]{0,8}", b in "[abcä]{0,8}") {
            prop_assert_eq!(osa_distance(&a, &b), strsim::osa_distance(&a, &b));
        }
    }
}
