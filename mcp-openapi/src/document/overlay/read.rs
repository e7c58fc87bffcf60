//! An overlay document's root, `info` and `actions`, read and checked
//! against the Overlay Specification's schema: required fields, types,
//! no unknown fields besides `x-` extensions, at least one action, no
//! action twice.

use mcp_core::schema::json_kind;
use serde_json::{Map, Value};

use super::action::{Action, read_action};
use super::fault::{Fault, action_pointer};
use super::version::OverlayVersion;
use crate::document::pointer::child;

/// The checked contents of an overlay document.
#[derive(Clone, Debug)]
pub(crate) struct Contents {
    /// `overlay`.
    pub(crate) version: OverlayVersion,
    /// `info.title`.
    pub(crate) title: String,
    /// `extends`, read and otherwise ignored.
    pub(crate) extends: Option<String>,
    /// `actions`, in order.
    pub(crate) actions: Vec<Action>,
}

/// Reads an overlay document's value.
pub(crate) fn read_contents(root: &Value) -> Result<Contents, Fault> {
    let Value::Object(fields) = root else {
        return Err(Fault::new(
            "",
            format!("an overlay is an object, not {}", json_kind(root)),
        ));
    };
    let Some(version) = fields.get("overlay") else {
        let hint = if fields.contains_key("openapi") || fields.contains_key("swagger") {
            "this is an OpenAPI document, not an overlay"
        } else {
            "not an overlay document"
        };
        return Err(Fault::new("", format!("missing \"overlay\": {hint}")));
    };
    let version = OverlayVersion::read(version)?;
    for key in fields.keys() {
        let known = matches!(key.as_str(), "overlay" | "info" | "extends" | "actions");
        if !known && !key.starts_with("x-") {
            return Err(Fault::new(
                child("", key),
                format!(
                    "unknown field `{key}` (an overlay has overlay, info, extends, actions, and `x-` extensions)"
                ),
            ));
        }
    }
    let title = read_info(fields.get("info"))?;
    let extends = match fields.get("extends") {
        None => None,
        Some(Value::String(uri)) => Some(uri.clone()),
        Some(other) => {
            return Err(Fault::new(
                "/extends",
                format!(
                    "`extends` must be a URI reference string, not {}",
                    json_kind(other)
                ),
            ));
        }
    };
    let actions = read_actions(fields.get("actions"), version)?;
    Ok(Contents {
        version,
        title,
        extends,
        actions,
    })
}

/// Checks `info` and returns its title.
fn read_info(info: Option<&Value>) -> Result<String, Fault> {
    let info = match info {
        Some(Value::Object(info)) => info,
        Some(other) => {
            return Err(Fault::new(
                "/info",
                format!("`info` must be an object, not {}", json_kind(other)),
            ));
        }
        None => {
            return Err(Fault::new(
                "",
                "missing \"info\" (with a title and a version)",
            ));
        }
    };
    for key in info.keys() {
        let known = matches!(key.as_str(), "title" | "version" | "description");
        if !known && !key.starts_with("x-") {
            return Err(Fault::new(
                child("/info", key),
                format!(
                    "unknown field `{key}` (info has title, version, description, and `x-` extensions)"
                ),
            ));
        }
    }
    let title = info_string(info, "title", true)?.unwrap_or_default();
    info_string(info, "version", true)?;
    info_string(info, "description", false)?;
    Ok(title)
}

fn info_string(
    info: &Map<String, Value>,
    field: &'static str,
    required: bool,
) -> Result<Option<String>, Fault> {
    match info.get(field) {
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(other) => Err(Fault::new(
            child("/info", field),
            format!("`{field}` must be a string, not {}", json_kind(other)),
        )),
        None if required => Err(Fault::new("/info", format!("missing \"{field}\""))),
        None => Ok(None),
    }
}

/// Reads `actions`: a non-empty array of distinct actions.
fn read_actions(actions: Option<&Value>, version: OverlayVersion) -> Result<Vec<Action>, Fault> {
    let items = match actions {
        Some(Value::Array(items)) if !items.is_empty() => items,
        Some(Value::Array(_)) => {
            return Err(Fault::new(
                "/actions",
                "`actions` is empty: an overlay needs at least one action",
            ));
        }
        Some(other) => {
            return Err(Fault::new(
                "/actions",
                format!("`actions` must be an array, not {}", json_kind(other)),
            ));
        }
        None => {
            return Err(Fault::new(
                "",
                "missing \"actions\" (a list of at least one action)",
            ));
        }
    };
    for (index, item) in items.iter().enumerate() {
        if let Some(first) = items[..index].iter().position(|earlier| earlier == item) {
            return Err(Fault::new(
                action_pointer(index),
                format!("action {index} repeats action {first}: actions must be distinct"),
            ));
        }
    }
    items
        .iter()
        .enumerate()
        .map(|(index, item)| read_action(index, item, version))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn overlay(extra: Value) -> Value {
        let mut root = json!({
            "overlay": "1.1.0",
            "info": {"title": "t", "version": "1"},
            "actions": [{"target": "$.info", "update": {"x-a": 1}}],
        });
        for (key, value) in extra.as_object().unwrap() {
            if value.is_null() {
                root.as_object_mut().unwrap().remove(key);
            } else {
                root[key] = value.clone();
            }
        }
        root
    }

    fn fault(extra: Value) -> Fault {
        read_contents(&overlay(extra)).unwrap_err()
    }

    #[test]
    fn a_minimal_overlay_reads() {
        let contents =
            read_contents(&overlay(json!({"extends": "api.yaml", "x-tool": true}))).unwrap();
        assert_eq!(contents.version, OverlayVersion::V1_1);
        assert_eq!(contents.title, "t");
        assert_eq!(contents.extends.as_deref(), Some("api.yaml"));
        assert_eq!(contents.actions.len(), 1);
    }

    #[test]
    fn faults_name_the_part() {
        let cases = [
            (
                json!({"overlay": null}),
                "",
                "missing \"overlay\": not an overlay document",
            ),
            (
                json!({"overlay": "3.0.0"}),
                "/overlay",
                "unsupported overlay version `3.0.0` (supported: 1.0.x, 1.1.x)",
            ),
            (
                json!({"info": null}),
                "",
                "missing \"info\" (with a title and a version)",
            ),
            (
                json!({"info": {"title": "t"}}),
                "/info",
                "missing \"version\"",
            ),
            (
                json!({"info": {"title": 1, "version": "1"}}),
                "/info/title",
                "`title` must be a string, not a number",
            ),
            (
                json!({"actions": null}),
                "",
                "missing \"actions\" (a list of at least one action)",
            ),
            (
                json!({"actions": []}),
                "/actions",
                "`actions` is empty: an overlay needs at least one action",
            ),
            (
                json!({"actions": {}}),
                "/actions",
                "`actions` must be an array, not an object",
            ),
            (
                json!({"extends": 1}),
                "/extends",
                "`extends` must be a URI reference string, not a number",
            ),
            (
                json!({"action": []}),
                "/action",
                "unknown field `action` (an overlay has overlay, info, extends, actions, and `x-` extensions)",
            ),
            (
                json!({"actions": [{"target": "$", "remove": true}, {"target": "$", "remove": true}]}),
                "/actions/1",
                "action 1 repeats action 0: actions must be distinct",
            ),
        ];
        for (extra, pointer, message) in cases {
            assert_eq!(
                fault(extra.clone()),
                Fault::new(pointer, message),
                "{extra}"
            );
        }
        let openapi = read_contents(&json!({"openapi": "3.1.0"})).unwrap_err();
        assert_eq!(
            openapi.message,
            "missing \"overlay\": this is an OpenAPI document, not an overlay"
        );
        assert_eq!(
            read_contents(&json!("text")).unwrap_err().message,
            "an overlay is an object, not a string"
        );
    }
}
