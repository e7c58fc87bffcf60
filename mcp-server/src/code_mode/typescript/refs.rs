//! `$ref`s inside one schema document (`#`, `#/$defs/...`,
//! `#/definitions/...`, any JSON Pointer into the document): which
//! referenced schemas deserve a name of their own, those on a cycle and
//! composite ones reached more than once.

use std::collections::{HashMap, HashSet};

use mcp_core::ToolSchema;
use mcp_core::schema::walk::{Keyword, Walk, resolve};
use serde_json::Value;

/// The keywords whose subschemas the declarations spell out, in the order
/// they are read.
const READ: [Keyword; 10] = [
    Keyword::Items,
    Keyword::AdditionalProperties,
    Keyword::AdditionalItems,
    Keyword::Not,
    Keyword::AnyOf,
    Keyword::OneOf,
    Keyword::AllOf,
    Keyword::PrefixItems,
    Keyword::Properties,
    Keyword::PatternProperties,
];

/// What the `$ref`s of a declaration's schemas resolve against.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Definitions<'a> {
    /// One self-contained document, its definitions inside.
    Document(&'a Value),
    /// A tool's schema, whose definitions may be shared with other tools:
    /// they are read where they are, never assembled into one document.
    Tool {
        /// The schema's root object (without shared definitions).
        root: &'a Value,
        schema: &'a ToolSchema,
    },
}

impl<'a> Definitions<'a> {
    /// What `reference` points to, if anything.
    pub(crate) fn resolve(self, reference: &str) -> Option<&'a Value> {
        match self {
            Self::Document(root) => resolve(root, reference),
            Self::Tool { root, schema } => {
                resolve(root, reference).or_else(|| schema.resolve(reference))
            }
        }
    }
}

impl<'a> From<&'a Value> for Definitions<'a> {
    fn from(root: &'a Value) -> Self {
        Self::Document(root)
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
}

impl Uses {
    /// The uses of references into `definitions` reached from `entries`.
    pub(crate) fn of<'a>(
        definitions: impl Into<Definitions<'a>>,
        entries: impl IntoIterator<Item = &'a Value>,
    ) -> Self {
        let definitions = definitions.into();
        let mut uses = Self::default();
        let mut walk = Walk::new();
        for entry in entries {
            uses.visit(definitions, entry, &mut walk);
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

    fn visit<'a>(&mut self, definitions: Definitions<'a>, schema: &'a Value, walk: &mut Walk<'a>) {
        let Value::Object(schema) = schema else {
            return;
        };
        if let Some(Value::String(reference)) = schema.get("$ref") {
            let count = self.counts.entry(reference.clone()).or_default();
            *count += 1;
            if walk.is_inside(reference) {
                self.cyclic.insert(reference.clone());
            } else if *count == 1
                && let Some(target) = definitions.resolve(reference)
            {
                if is_composite(target) {
                    self.composite.insert(reference.clone());
                }
                if let Some(mut inner) = walk.follow(reference) {
                    self.visit(definitions, target, &mut inner);
                }
            }
        }
        for keyword in READ {
            for sub in keyword.subschemas_in(schema) {
                if let Some(mut inner) = walk.step() {
                    self.visit(definitions, sub.schema, &mut inner);
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
