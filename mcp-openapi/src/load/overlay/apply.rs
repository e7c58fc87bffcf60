//! One action applied to a document: its target selects nodes, then each
//! is removed, or has the `update` value (or the node `copy` selects)
//! merged into it.

use mcp_core::schema::json_kind;
use serde_json::Value;
use serde_json_path::PathElement;

use super::action::{Action, Change, Query};
use super::fault::{Fault, action_field};
use super::merge::{Conflict, is_primitive, merge_node};
use super::version::OverlayVersion;
use crate::load::pointer::escape_segment;

/// What applying an action did.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Its target selected at least one node.
    Applied,
    /// Its target selected nothing: the document is unchanged.
    Unmatched,
}

/// A step from a node to a child: an object member or an array item.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Step {
    Name(String),
    Index(usize),
}

/// Where a selected node is, as steps from the root.
type Location = Vec<Step>;

/// Applies `action` of an overlay of `version` to `document`.
pub(crate) fn apply_action(
    action: &Action,
    version: OverlayVersion,
    document: &mut Value,
) -> Result<Outcome, Fault> {
    let selected = locate(&action.target, document);
    if selected.is_empty() {
        return Ok(Outcome::Unmatched);
    }
    match &action.change {
        Change::Nothing => {}
        Change::Remove => remove(action, selected, document)?,
        Change::Update(value) => {
            let source = Source {
                field: "update",
                value,
                copied_from: None,
            };
            update(action, version, &selected, &source, document)?;
        }
        Change::Copy(query) => {
            let (from, value) = copied(action, query, document)?;
            let source = Source {
                field: "copy",
                value: &value,
                copied_from: Some(from),
            };
            update(action, version, &selected, &source, document)?;
        }
    }
    Ok(Outcome::Applied)
}

/// The locations of the nodes `query` selects, in document order.
fn locate(query: &Query, document: &Value) -> Vec<Location> {
    query
        .path
        .query_located(document)
        .locations()
        .map(|location| {
            location
                .iter()
                .map(|element| match element {
                    PathElement::Name(name) => Step::Name((*name).to_owned()),
                    PathElement::Index(index) => Step::Index(*index),
                })
                .collect()
        })
        .collect()
}

/// `#/paths/~1pets/get`.
fn pointer_of(location: &[Step]) -> String {
    let mut pointer = "#".to_owned();
    for step in location {
        pointer.push('/');
        match step {
            Step::Name(name) => pointer.push_str(&escape_segment(name)),
            Step::Index(index) => pointer.push_str(&index.to_string()),
        }
    }
    pointer
}

fn node_mut<'v>(document: &'v mut Value, location: &[Step]) -> Option<&'v mut Value> {
    location
        .iter()
        .try_fold(document, |node, step| match (node, step) {
            (Value::Object(members), Step::Name(name)) => members.get_mut(name),
            (Value::Array(items), Step::Index(index)) => items.get_mut(*index),
            _ => None,
        })
}

/// Removes every selected node from its object or array: the deepest and
/// the last first, so that the locations still to remove stay valid.
fn remove(action: &Action, mut selected: Vec<Location>, document: &mut Value) -> Result<(), Fault> {
    if selected.iter().any(Vec::is_empty) {
        return Err(Fault::new(
            action_field(action.index, "target"),
            format!(
                "`{}` selects the document root, which cannot be removed",
                action.target.text
            ),
        ));
    }
    selected.sort_unstable_by(|a, b| b.cmp(a));
    selected.dedup();
    for location in selected {
        let Some((last, parent)) = location.split_last() else {
            continue;
        };
        // A node inside one removed earlier is gone already.
        match (node_mut(document, parent), last) {
            (Some(Value::Object(members)), Step::Name(name)) => {
                members.shift_remove(name);
            }
            (Some(Value::Array(items)), Step::Index(index)) if *index < items.len() => {
                items.remove(*index);
            }
            _ => {}
        }
    }
    Ok(())
}

/// The value merged into the selected nodes, and where it comes from.
struct Source<'a> {
    /// `update` or `copy`.
    field: &'static str,
    value: &'a Value,
    /// For `copy`: the document pointer of the copied node.
    copied_from: Option<String>,
}

impl Source<'_> {
    /// `update` or `the node copied from #/paths/~1items`.
    fn name(&self) -> String {
        match &self.copied_from {
            None => format!("`{}`", self.field),
            Some(from) => format!("the node copied from {from}"),
        }
    }
}

/// The one node `query` selects, and its pointer.
fn copied(action: &Action, query: &Query, document: &Value) -> Result<(String, Value), Fault> {
    let found = locate(query, document);
    match found.as_slice() {
        [location] => {
            let value = node_at(document, location).cloned().unwrap_or(Value::Null);
            Ok((pointer_of(location), value))
        }
        _ => Err(Fault::new(
            action_field(action.index, "copy"),
            format!(
                "`{}` selects {} nodes; `copy` needs exactly one",
                query.text,
                found.len()
            ),
        )),
    }
}

fn node_at<'v>(document: &'v Value, location: &[Step]) -> Option<&'v Value> {
    location
        .iter()
        .try_fold(document, |node, step| match (node, step) {
            (Value::Object(members), Step::Name(name)) => members.get(name),
            (Value::Array(items), Step::Index(index)) => items.get(*index),
            _ => None,
        })
}

/// The kind of node, as the specification groups them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Object,
    Array,
    Primitive,
}

fn kind_of(value: &Value) -> Kind {
    match value {
        Value::Object(_) => Kind::Object,
        Value::Array(_) => Kind::Array,
        _ => Kind::Primitive,
    }
}

/// Merges `source` into every selected node, after checking that they are
/// of one kind and that the version allows updating that kind.
fn update(
    action: &Action,
    version: OverlayVersion,
    selected: &[Location],
    source: &Source<'_>,
    document: &mut Value,
) -> Result<(), Fault> {
    let target_field = action_field(action.index, "target");
    let mut first: Option<(Kind, String, &'static str)> = None;
    for location in selected {
        let Some(node) = node_at(document, location) else {
            continue;
        };
        let (kind, pointer) = (kind_of(node), pointer_of(location));
        match &first {
            None => first = Some((kind, pointer, json_kind(node))),
            Some((first_kind, first_pointer, first_json)) if *first_kind != kind => {
                return Err(Fault::new(
                    target_field,
                    format!(
                        "`{}` selects {first_json} ({first_pointer}) and {} ({pointer}): {} merges into nodes of one kind (all objects, all arrays or all primitives)",
                        action.target.text,
                        json_kind(node),
                        source.name(),
                    ),
                ));
            }
            Some(_) => {}
        }
    }
    let Some((kind, pointer, json)) = first else {
        return Ok(());
    };
    let source_field = action_field(action.index, source.field);
    match kind {
        Kind::Primitive if version == OverlayVersion::V1_0 => {
            return Err(Fault::new(
                target_field,
                format!(
                    "`{}` selects {json} ({pointer}); overlay 1.0 updates only objects and arrays: select the containing object, or set `overlay: 1.1.0`",
                    action.target.text
                ),
            ));
        }
        Kind::Primitive if !is_primitive(source.value) => {
            return Err(Fault::new(
                source_field,
                format!(
                    "{} is {}, but the target ({pointer}) is {json}: a primitive node takes a primitive value",
                    source.name(),
                    json_kind(source.value)
                ),
            ));
        }
        Kind::Object if !source.value.is_object() => {
            return Err(Fault::new(
                source_field,
                format!(
                    "{} is {}, but the target ({pointer}) is an object: an object takes an object to merge",
                    source.name(),
                    json_kind(source.value)
                ),
            ));
        }
        _ => {}
    }
    for location in selected {
        let pointer = pointer_of(location);
        let Some(node) = node_mut(document, location) else {
            continue;
        };
        merge_node(node, source.value, &pointer)
            .map_err(|conflict| conflict_fault(&source_field, source, &conflict))?;
    }
    Ok(())
}

fn conflict_fault(source_field: &str, source: &Source<'_>, conflict: &Conflict) -> Fault {
    let Conflict {
        in_update,
        in_document,
        update_kind,
        target_kind,
    } = conflict;
    match &source.copied_from {
        None => Fault::new(
            format!("{source_field}{in_update}"),
            format!("cannot merge {update_kind} into {target_kind} ({in_document})"),
        ),
        Some(from) => Fault::new(
            source_field,
            format!(
                "cannot merge {update_kind} ({from}{in_update}) into {target_kind} ({in_document})"
            ),
        ),
    }
}
