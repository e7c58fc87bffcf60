//! The definitions of one load: the `$defs` name of every referenced
//! schema, and its converted value.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use serde_json::Value;

use crate::document::pointer::{escape_segment, lookup};

/// One converted definition.
#[derive(Debug)]
pub(crate) struct DefEntry {
    /// The converted schema (shared with the tool schemas that can use it
    /// as it is), or why it could not be converted.
    pub(crate) schema: Result<Arc<Value>, String>,
}

/// Names of referenced schemas and their converted values.
#[derive(Debug, Default)]
pub(crate) struct DefRegistry {
    names: HashMap<(usize, String), String>,
    taken: HashSet<String>,
    queued: HashSet<String>,
    pending: Vec<(usize, String, String)>,
    pub(crate) defs: HashMap<String, DefEntry>,
}

impl DefRegistry {
    /// Reserves the names of `components.schemas` / `definitions` of the
    /// root document, so `#/components/schemas/Pet` is always `Pet`.
    /// `schema_names` lists all `components.schemas` when the root holds
    /// only those that were parsed: names come out the same either way.
    pub(crate) fn reserve_components(&mut self, root: &Value, schema_names: Option<&[String]>) {
        let parsed = |prefix| match lookup(root, prefix) {
            Some(Value::Object(schemas)) => schemas.keys().cloned().collect(),
            _ => Vec::new(),
        };
        let components =
            schema_names.map_or_else(|| parsed("/components/schemas"), <[String]>::to_vec);
        for (prefix, names) in [
            ("/components/schemas", components),
            ("/definitions", parsed("/definitions")),
        ] {
            for name in &names {
                let pointer = format!("{prefix}/{}", escape_segment(name));
                self.assign(0, pointer, name);
            }
        }
    }

    /// The definition name of the schema at `pointer` in document `doc`,
    /// queued for conversion the first time it is asked for.
    pub(crate) fn name_for(&mut self, doc: usize, pointer: &str) -> String {
        let key = (doc, pointer.to_owned());
        let name = match self.names.get(&key) {
            Some(name) => name.clone(),
            None => {
                let last = pointer.rsplit('/').next().unwrap_or_default();
                let last = last.replace("~1", "/").replace("~0", "~");
                self.assign(doc, pointer.to_owned(), &last)
            }
        };
        if self.queued.insert(name.clone()) {
            self.pending.push((doc, pointer.to_owned(), name.clone()));
        }
        name
    }

    fn assign(&mut self, doc: usize, pointer: String, wanted: &str) -> String {
        let mut base: String = wanted
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        if base.is_empty() {
            base.push_str("schema");
        }
        let mut name = base.clone();
        let mut n = 2;
        while self.taken.contains(&name) {
            name = format!("{base}_{n}");
            n += 1;
        }
        self.taken.insert(name.clone());
        self.names.insert((doc, pointer), name.clone());
        name
    }

    /// The converted definition `name`, when it converted.
    pub(crate) fn get(&self, name: &str) -> Option<&Value> {
        self.defs
            .get(name)
            .and_then(|entry| entry.schema.as_deref().ok())
    }

    /// The next queued definition: document, pointer and name.
    pub(crate) fn next_pending(&mut self) -> Option<(usize, String, String)> {
        self.pending.pop()
    }

    /// Records the converted definition `name` (or why it did not convert).
    pub(crate) fn define(&mut self, name: String, schema: Result<Value, String>) {
        let schema = schema.map(Arc::new);
        self.defs.insert(name, DefEntry { schema });
    }
}
