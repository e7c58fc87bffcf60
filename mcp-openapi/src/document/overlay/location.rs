//! Where the nodes a JSONPath selects are: steps from the root, kept apart
//! from the document so that it can be changed afterwards, and shown as
//! JSON pointers.

use serde_json::Value;
use serde_json_path::{JsonPath, PathElement};

use crate::document::pointer::escape_segment;

/// A step from a node to a child: an object member or an array item.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Step {
    /// The member of that name.
    Name(String),
    /// The item at that index.
    Index(usize),
}

/// Where a node is, as steps from the root.
pub(crate) type Location = Vec<Step>;

/// The nodes `path` selects in `document`, in document order, with where
/// they are.
pub(crate) fn locate<'v>(path: &JsonPath, document: &'v Value) -> Vec<(Location, &'v Value)> {
    path.query_located(document)
        .into_iter()
        .map(|node| {
            let location = node
                .location()
                .iter()
                .map(|element| match element {
                    PathElement::Name(name) => Step::Name((*name).to_owned()),
                    PathElement::Index(index) => Step::Index(*index),
                })
                .collect();
            (location, node.node())
        })
        .collect()
}

/// The JSON pointer of `location` in the document (`#/paths/~1pets/get`).
pub(crate) fn pointer_of(location: &[Step]) -> String {
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

/// The node at `location`, if it is (still) there.
pub(crate) fn node_mut<'v>(document: &'v mut Value, location: &[Step]) -> Option<&'v mut Value> {
    location
        .iter()
        .try_fold(document, |node, step| match (node, step) {
            (Value::Object(members), Step::Name(name)) => members.get_mut(name),
            (Value::Array(items), Step::Index(index)) => items.get_mut(*index),
            _ => None,
        })
}

/// Removes the node at `location` from its object or array, if it is (still)
/// there; the root has no container and stays.
pub(crate) fn remove_node(document: &mut Value, location: &[Step]) {
    let Some((last, parent)) = location.split_last() else {
        return;
    };
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn locations_are_pointers_and_lead_back_to_their_nodes() {
        let mut document = json!({"paths": {"/a~b": {"tags": ["x", "y"]}}});
        let path = JsonPath::parse("$.paths.*.tags[1]").unwrap();
        let found = locate(&path, &document);
        assert_eq!(found.len(), 1);
        let location = found[0].0.clone();
        assert_eq!(pointer_of(&location), "#/paths/~1a~0b/tags/1");
        assert_eq!(node_mut(&mut document, &location), Some(&mut json!("y")));
        remove_node(&mut document, &location);
        assert_eq!(document, json!({"paths": {"/a~b": {"tags": ["x"]}}}));
        // Gone already: nothing happens.
        remove_node(&mut document, &location);
        assert_eq!(document, json!({"paths": {"/a~b": {"tags": ["x"]}}}));
    }
}
