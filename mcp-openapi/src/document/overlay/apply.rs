//! One action applied to a document: its target selects nodes, then each
//! is removed, or has the `update` value (or the node `copy` selects)
//! merged into it.

use mcp_core::schema::json_kind;
use serde_json::Value;

use super::action::{Action, Change, Query};
use super::fault::{Fault, action_field};
use super::location::{Location, locate, node_mut, pointer_of, remove_node};
use super::merge::{Conflict, is_primitive, merge_node};
use super::version::OverlayVersion;

/// What applying an action did.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Its target selected at least one node.
    Applied,
    /// Its target selected nothing: the document is unchanged.
    Unmatched,
}

/// A selected node: where it is, and what it was when selected.
struct Target {
    location: Location,
    /// Its JSON pointer (`#/paths/~1pets/get`).
    pointer: String,
    kind: Kind,
    /// `an object`, `a string`...
    json_kind: &'static str,
}

/// Applies `action` of an overlay of `version` to `document`.
pub(crate) fn apply_action(
    action: &Action,
    version: OverlayVersion,
    document: &mut Value,
) -> Result<Outcome, Fault> {
    let targets: Vec<Target> = locate(&action.target.path, document)
        .into_iter()
        .map(|(location, node)| Target {
            pointer: pointer_of(&location),
            location,
            kind: kind_of(node),
            json_kind: json_kind(node),
        })
        .collect();
    if targets.is_empty() {
        return Ok(Outcome::Unmatched);
    }
    match &action.change {
        Change::Nothing => {}
        Change::Remove => remove(action, targets, document)?,
        Change::Update(value) => {
            let source = Source {
                field: "update",
                value,
                copied_from: None,
            };
            update(action, version, &targets, &source, document)?;
        }
        Change::Copy(query) => {
            let (from, value) = copied(action, query, document)?;
            let source = Source {
                field: "copy",
                value: &value,
                copied_from: Some(from),
            };
            update(action, version, &targets, &source, document)?;
        }
    }
    Ok(Outcome::Applied)
}

/// Removes every selected node from its object or array: the deepest and
/// the last first, so that the locations still to remove stay valid (a
/// node inside one removed before is gone already).
fn remove(action: &Action, targets: Vec<Target>, document: &mut Value) -> Result<(), Fault> {
    let mut locations: Vec<Location> = targets.into_iter().map(|t| t.location).collect();
    if locations.iter().any(Vec::is_empty) {
        return Err(Fault::new(
            action_field(action.index, "target"),
            format!(
                "`{}` selects the document root, which cannot be removed",
                action.target.text
            ),
        ));
    }
    locations.sort_unstable_by(|a, b| b.cmp(a));
    locations.dedup();
    for location in locations {
        remove_node(document, &location);
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
    match locate(&query.path, document).as_slice() {
        [(location, node)] => Ok((pointer_of(location), (*node).clone())),
        found => Err(Fault::new(
            action_field(action.index, "copy"),
            format!(
                "`{}` selects {} nodes; `copy` needs exactly one",
                query.text,
                found.len()
            ),
        )),
    }
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
    targets: &[Target],
    source: &Source<'_>,
    document: &mut Value,
) -> Result<(), Fault> {
    let target_field = action_field(action.index, "target");
    let Some(first) = targets.first() else {
        return Ok(());
    };
    if let Some(other) = targets.iter().find(|t| t.kind != first.kind) {
        return Err(Fault::new(
            target_field,
            format!(
                "`{}` selects {} ({}) and {} ({}): {} merges into nodes of one kind \
                 (all objects, all arrays or all primitives)",
                action.target.text,
                first.json_kind,
                first.pointer,
                other.json_kind,
                other.pointer,
                source.name(),
            ),
        ));
    }
    let source_field = action_field(action.index, source.field);
    let Target {
        pointer,
        json_kind: kind_text,
        ..
    } = first;
    match first.kind {
        Kind::Primitive if version == OverlayVersion::V1_0 => {
            return Err(Fault::new(
                target_field,
                format!(
                    "`{}` selects {kind_text} ({pointer}); overlay 1.0 updates only objects and \
                     arrays: select the containing object, or set `overlay: 1.1.0`",
                    action.target.text
                ),
            ));
        }
        Kind::Primitive if !is_primitive(source.value) => {
            return Err(Fault::new(
                source_field,
                format!(
                    "{} is {}, but the target ({pointer}) is {kind_text}: a primitive node takes \
                     a primitive value",
                    source.name(),
                    json_kind(source.value)
                ),
            ));
        }
        Kind::Object if !source.value.is_object() => {
            return Err(Fault::new(
                source_field,
                format!(
                    "{} is {}, but the target ({pointer}) is an object: an object takes an \
                     object to merge",
                    source.name(),
                    json_kind(source.value)
                ),
            ));
        }
        _ => {}
    }
    for target in targets {
        if let Some(node) = node_mut(document, &target.location) {
            merge_node(node, source.value, &target.pointer)
                .map_err(|conflict| conflict_fault(&source_field, source, &conflict))?;
        }
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
