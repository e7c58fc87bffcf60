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
        .map(|candidate| (strsim::osa_distance(name, candidate), candidate))
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

#[cfg(test)]
mod tests {
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
}
