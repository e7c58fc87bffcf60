//! One overlay action: the JSONPath `target`, an optional `description`, and
//! what to do to the nodes it selects (`update`, `copy` or `remove`).

use mcp_core::schema::json_kind;
use serde_json::Value;
use serde_json_path::JsonPath;

use super::fault::{Fault, action_field, action_pointer};
use super::version::OverlayVersion;

/// An action, read and checked.
#[derive(Clone, Debug)]
pub(crate) struct Action {
    /// Its index in `actions`.
    pub(crate) index: usize,
    /// The nodes it changes.
    pub(crate) target: Query,
    /// Its `description`, when given.
    pub(crate) description: Option<String>,
    /// What it does to them.
    pub(crate) change: Change,
}

/// A JSONPath (RFC 9535) query and the text it was written as.
#[derive(Clone, Debug)]
pub(crate) struct Query {
    /// The parsed query.
    pub(crate) path: JsonPath,
    /// As written in the overlay.
    pub(crate) text: String,
}

/// What an action does to the nodes its target selects.
#[derive(Clone, Debug)]
pub(crate) enum Change {
    /// Merge this value into each node (`update`).
    Update(Value),
    /// Merge the one node this query selects into each node (`copy`, 1.1).
    Copy(Query),
    /// Remove each node from its object or array (`remove: true`).
    Remove,
    /// Nothing: neither `update`, `copy` nor `remove: true`.
    Nothing,
}

impl Action {
    /// `action 3 ("Rename the pets")`: the index and the first line of the description.
    pub(crate) fn label(&self) -> String {
        let index = self.index;
        match self.description.as_deref().and_then(|d| d.lines().next()) {
            Some(line) if !line.trim().is_empty() => {
                format!("action {index} (\"{}\")", line.trim())
            }
            _ => format!("action {index}"),
        }
    }
}

/// The fields an action may have besides `x-` extensions.
const FIELDS: &str = "target, description, update, copy, remove";

/// Reads action `index` of an overlay of `version`.
pub(crate) fn read_action(
    index: usize,
    value: &Value,
    version: OverlayVersion,
) -> Result<Action, Fault> {
    let Value::Object(fields) = value else {
        return Err(Fault::new(
            action_pointer(index),
            format!("an action is an object, not {}", json_kind(value)),
        ));
    };
    for key in fields.keys() {
        let known = matches!(
            key.as_str(),
            "target" | "description" | "update" | "copy" | "remove"
        );
        if !known && !key.starts_with("x-") {
            return Err(Fault::new(
                action_field(index, key),
                format!("unknown field `{key}` (an action has {FIELDS}, and `x-` extensions)"),
            ));
        }
    }
    let target = match fields.get("target") {
        Some(target) => read_query(index, "target", target)?,
        None => {
            return Err(Fault::new(
                action_pointer(index),
                "missing \"target\" (a JSONPath such as `$.paths['/pets'].get`)",
            ));
        }
    };
    let description = match fields.get("description") {
        None => None,
        Some(Value::String(text)) => Some(text.clone()),
        Some(other) => return Err(not_a(index, "description", "a string", other)),
    };
    let remove = match fields.get("remove") {
        None => false,
        Some(Value::Bool(remove)) => *remove,
        Some(other) => return Err(not_a(index, "remove", "a boolean", other)),
    };
    let copy = match fields.get("copy") {
        Some(_) if version == OverlayVersion::V1_0 => {
            return Err(Fault::new(
                action_field(index, "copy"),
                "`copy` needs overlay 1.1.0 (this overlay declares 1.0): set `overlay: 1.1.0`",
            ));
        }
        Some(copy) => Some(read_query(index, "copy", copy)?),
        None => None,
    };
    let change = match (remove, fields.get("update"), copy) {
        (true, _, _) => Change::Remove,
        (false, Some(_), Some(_)) => {
            return Err(Fault::new(
                action_pointer(index),
                "`update` and `copy` exclude each other: write two actions",
            ));
        }
        (false, Some(update), None) => Change::Update(update.clone()),
        (false, None, Some(copy)) => Change::Copy(copy),
        (false, None, None) => Change::Nothing,
    };
    Ok(Action {
        index,
        target,
        description,
        change,
    })
}

/// Reads the JSONPath in field `field` of action `index`.
fn read_query(index: usize, field: &str, value: &Value) -> Result<Query, Fault> {
    let Value::String(text) = value else {
        return Err(not_a(index, field, "a JSONPath string", value));
    };
    let path = JsonPath::parse(text).map_err(|error| {
        Fault::new(
            action_field(index, field),
            format!("`{text}` is not a valid JSONPath (RFC 9535): {error}"),
        )
    })?;
    Ok(Query {
        path,
        text: text.clone(),
    })
}

fn not_a(index: usize, field: &str, wanted: &str, value: &Value) -> Fault {
    Fault::new(
        action_field(index, field),
        format!("`{field}` must be {wanted}, not {}", json_kind(value)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fault(value: Value, version: OverlayVersion) -> Fault {
        read_action(2, &value, version).unwrap_err()
    }

    #[test]
    fn remove_wins_and_update_with_copy_is_refused() {
        let both = json!({"target": "$", "remove": true, "update": {}, "copy": "$.a"});
        let action = read_action(0, &both, OverlayVersion::V1_1).unwrap();
        assert!(matches!(action.change, Change::Remove));
        let fault = fault(
            json!({"target": "$", "update": {}, "copy": "$.a"}),
            OverlayVersion::V1_1,
        );
        assert_eq!(fault.pointer, "/actions/2");
    }

    #[test]
    fn faults_point_at_the_field() {
        let cases = [
            (json!({"target": "$.paths["}), "/actions/2/target"),
            (json!({"target": 3}), "/actions/2/target"),
            (json!({"target": "$", "remove": "yes"}), "/actions/2/remove"),
            (
                json!({"target": "$", "description": 1}),
                "/actions/2/description",
            ),
            (json!({"target": "$", "copy": "$["}), "/actions/2/copy"),
            (json!({"target": "$", "udpate": {}}), "/actions/2/udpate"),
            (json!({"update": {}}), "/actions/2"),
            (json!([]), "/actions/2"),
        ];
        for (value, pointer) in cases {
            assert_eq!(
                fault(value.clone(), OverlayVersion::V1_1).pointer,
                pointer,
                "{value}"
            );
        }
        let copy = fault(json!({"target": "$", "copy": "$.a"}), OverlayVersion::V1_0);
        assert_eq!(copy.pointer, "/actions/2/copy");
        assert!(copy.message.contains("needs overlay 1.1.0"), "{copy:?}");
    }

    #[test]
    fn labels_name_the_index_and_the_first_line_of_the_description() {
        let action = read_action(
            3,
            &json!({"target": "$", "description": "Rename\nand more", "x-note": 1}),
            OverlayVersion::V1_0,
        )
        .unwrap();
        assert_eq!(action.label(), "action 3 (\"Rename\")");
        assert!(matches!(action.change, Change::Nothing));
    }
}
