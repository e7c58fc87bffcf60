//! The merge of an `update` (or copied) value into a selected node, as the
//! Overlay Specification states it:
//!
//! - an object merges into an object: a property only in the target is
//!   left alone, a property only in the update is inserted, and a property
//!   in both merges by these rules, recursively;
//! - an array is concatenated to an array; an object or primitive value
//!   given for an array node is appended to it;
//! - a primitive (string, number, boolean, null) replaces a primitive;
//! - any other pair (an object and an array, an object and a string, ...)
//!   is an error.

use mcp_core::schema::json_kind;
use serde_json::{Map, Value};

use crate::document::pointer::child;

/// Two values that cannot merge.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Conflict {
    /// Where, inside the update value (`/parameters`; empty for the value itself).
    pub(crate) in_update: String,
    /// The node of the document it would merge into (`#/paths/~1pets/get/parameters`).
    pub(crate) in_document: String,
    /// What the update has there (`an array`).
    pub(crate) update_kind: &'static str,
    /// What the document has there (`an object`).
    pub(crate) target_kind: &'static str,
}

/// Merges `update` into the selected `target` node at document pointer `at`
/// (`#/paths/~1pets`). A primitive `target` is replaced by a primitive update.
pub(crate) fn merge_node(target: &mut Value, update: &Value, at: &str) -> Result<(), Conflict> {
    match (target, update) {
        (Value::Object(target), Value::Object(update)) => merge_object(target, update, "", at),
        (Value::Object(_), other) => Err(conflict("", at, other, "an object")),
        (Value::Array(target), Value::Array(update)) => {
            target.extend(update.iter().cloned());
            Ok(())
        }
        (Value::Array(target), other) => {
            target.push(other.clone());
            Ok(())
        }
        (target, update) if is_primitive(update) => {
            *target = update.clone();
            Ok(())
        }
        (target, other) => Err(conflict("", at, other, json_kind(target))),
    }
}

/// Whether `value` is a string, number, boolean or null.
pub(crate) fn is_primitive(value: &Value) -> bool {
    !matches!(value, Value::Object(_) | Value::Array(_))
}

fn merge_object(
    target: &mut Map<String, Value>,
    update: &Map<String, Value>,
    in_update: &str,
    in_document: &str,
) -> Result<(), Conflict> {
    for (key, value) in update {
        let Some(existing) = target.get_mut(key) else {
            target.insert(key.clone(), value.clone());
            continue;
        };
        let in_update = child(in_update, key);
        let in_document = child(in_document, key);
        match (existing, value) {
            (Value::Object(existing), Value::Object(value)) => {
                merge_object(existing, value, &in_update, &in_document)?;
            }
            (Value::Array(existing), Value::Array(value)) => existing.extend(value.iter().cloned()),
            (existing, value) if is_primitive(existing) && is_primitive(value) => {
                *existing = value.clone();
            }
            (existing, value) => {
                return Err(conflict(
                    &in_update,
                    &in_document,
                    value,
                    json_kind(existing),
                ));
            }
        }
    }
    Ok(())
}

fn conflict(
    in_update: &str,
    in_document: &str,
    update: &Value,
    target_kind: &'static str,
) -> Conflict {
    Conflict {
        in_update: in_update.to_owned(),
        in_document: in_document.to_owned(),
        update_kind: json_kind(update),
        target_kind,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn merged(mut target: Value, update: Value) -> Result<Value, Conflict> {
        merge_node(&mut target, &update, "#/t").map(|()| target)
    }

    #[test]
    fn objects_merge_recursively_arrays_concatenate_primitives_replace() {
        let target = json!({"keep": 1, "nested": {"a": 1, "list": [1]}, "s": "old", "n": null});
        let update = json!({"new": true, "nested": {"b": 2, "list": [2, 3]}, "s": "new", "n": 5});
        assert_eq!(
            merged(target, update).unwrap(),
            json!({"keep": 1, "nested": {"a": 1, "list": [1, 2, 3], "b": 2}, "s": "new", "n": 5, "new": true})
        );
    }

    #[test]
    fn arrays_take_arrays_whole_and_other_values_as_one_item() {
        assert_eq!(merged(json!([1]), json!([2, 3])).unwrap(), json!([1, 2, 3]));
        assert_eq!(
            merged(json!([1]), json!({"a": 1})).unwrap(),
            json!([1, {"a": 1}])
        );
        assert_eq!(merged(json!([1]), json!("x")).unwrap(), json!([1, "x"]));
    }

    #[test]
    fn primitives_replace_primitives_only() {
        assert_eq!(merged(json!("old"), json!(false)).unwrap(), json!(false));
        assert_eq!(merged(json!(1), json!(null)).unwrap(), json!(null));
        let conflict = merged(json!("old"), json!({"a": 1})).unwrap_err();
        assert_eq!(
            (conflict.update_kind, conflict.target_kind),
            ("an object", "a string")
        );
    }

    #[test]
    fn incompatible_properties_name_both_places() {
        let conflict = merged(
            json!({"paths": {"/a~b": {"get": {}}}}),
            json!({"paths": {"/a~b": {"get": []}}}),
        )
        .unwrap_err();
        assert_eq!(
            conflict,
            Conflict {
                in_update: "/paths/~1a~0b/get".to_owned(),
                in_document: "#/t/paths/~1a~0b/get".to_owned(),
                update_kind: "an array",
                target_kind: "an object",
            }
        );
        assert_eq!(merged(json!({"a": 1}), json!(2)).unwrap_err().in_update, "");
    }
}
