//! The budget of one generation run over schemas that share their
//! definitions: what trimming learns of a shared definition (its size, its
//! relaxed form, the references that fix others) is learned once and used
//! for every schema that shares it, and no schema is assembled whole just
//! to be measured.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use mcp_core::ToolSchema;
use mcp_core::schema::json_len;
use serde_json::{Map, Value};

use super::loosen::{DefTypes, relax};
use super::walk::{Target, refs};
use super::{def_refs, reached, trim_relaxed, trimmed_output_schema};
use crate::ir::JsonObject;

/// What trimming knows of one shared definition.
#[derive(Debug)]
struct DefFacts {
    /// The definition, held so that its address stays its own.
    _def: Arc<Value>,
    /// Its length in compact JSON.
    len: usize,
    /// The definitions it references where a looser schema could reject
    /// more (they may not be loosened); `None` when one of its references
    /// is not to a whole definition.
    fixing: Option<Vec<String>>,
    /// Its relaxed form (step 1 of trimming), made on first need.
    relaxed: Option<Value>,
}

/// Applies a budget to the output schemas of one generation run: each
/// distinct schema (by address) is trimmed once and the result shared.
#[derive(Debug)]
pub(crate) struct OutputBudget {
    max_bytes: Option<usize>,
    /// Trimmed schemas by the address of the schema they trim; the schema
    /// itself is held so the address is not reused during the run.
    done: HashMap<usize, (ToolSchema, ToolSchema)>,
    /// What is known of each shared definition, by address.
    defs: HashMap<usize, DefFacts>,
}

impl OutputBudget {
    /// A budget of `max_bytes` per schema (`None`: unlimited).
    pub(crate) fn new(max_bytes: Option<usize>) -> Self {
        Self {
            max_bytes,
            done: HashMap::new(),
            defs: HashMap::new(),
        }
    }

    /// `schema` within the budget. A schema that fits stays as it is (its
    /// shared definitions stay shared); only one over the budget is
    /// trimmed, to what [`trimmed_output_schema`] makes of it whole.
    pub(crate) fn apply(&mut self, schema: ToolSchema) -> ToolSchema {
        let Some(max_bytes) = self.max_bytes else {
            return schema;
        };
        let address = schema.as_ptr() as usize;
        if let Some((_, trimmed)) = self.done.get(&address) {
            return trimmed.clone();
        }
        let trimmed = if schema.shared_defs().is_empty() {
            trimmed_output_schema(&schema, max_bytes).map(ToolSchema::from)
        } else {
            self.trim_shared(&schema, max_bytes).map(ToolSchema::from)
        };
        let trimmed = trimmed.unwrap_or_else(|| schema.clone());
        self.done.insert(address, (schema, trimmed.clone()));
        trimmed
    }

    /// [`trimmed_output_schema`] of a schema with shared definitions,
    /// without assembling it.
    fn trim_shared(&mut self, schema: &ToolSchema, max_bytes: usize) -> Option<JsonObject> {
        let shared = schema.shared_defs();
        let mut root = root_of(schema);
        let root_len = json_len(&root);
        root.shift_remove("$defs");
        let mut len = root_len - "null".len() + "{}".len() + shared.len() - 1;
        for (name, def) in shared {
            len += json_len(name.as_str()) + 1 + self.facts(def).len;
        }
        if len <= max_bytes {
            return None;
        }
        let by_name: HashMap<&str, &Arc<Value>> = shared
            .iter()
            .map(|(name, def)| (name.as_str(), def))
            .collect();
        let types: DefTypes = shared
            .iter()
            .map(|(name, def)| (name.clone(), def.get("type").cloned()))
            .collect();
        // The definitions that may not be loosened: those referenced from a
        // fixed place, and every definition they reach.
        let mut seeds = Vec::new();
        let mut followable = true;
        refs(&root, true, &mut |target, loosenable| match target {
            Target::Def(name) if !loosenable => seeds.push(name),
            Target::Def(_) => {}
            Target::Other(_) => followable = false,
        });
        for (_, def) in shared {
            seeds.extend(self.facts(def).fixing.clone()?);
        }
        if !followable {
            return None;
        }
        let mut fixed = BTreeSet::new();
        while let Some(name) = seeds.pop() {
            if let Some(def) = by_name.get(name.as_str()).and_then(|def| def.as_object())
                && fixed.insert(name)
            {
                seeds.extend(def_refs(def));
            }
        }
        // Step 1, with each shared definition relaxed once per run.
        relax(&mut root, &types);
        let defs: Map<String, Value> = reached(&root, |name| {
            let def = by_name.get(name)?;
            if fixed.contains(name) {
                return Some(Value::clone(def));
            }
            let facts = self.facts(def);
            Some(
                facts
                    .relaxed
                    .get_or_insert_with(|| {
                        let mut relaxed = Value::clone(def);
                        if let Value::Object(object) = &mut relaxed {
                            relax(object, &types);
                        }
                        relaxed
                    })
                    .clone(),
            )
        });
        Some(trim_relaxed(root, defs, max_bytes))
    }

    /// What is known of the shared definition `def` (learned on first use).
    fn facts(&mut self, def: &Arc<Value>) -> &mut DefFacts {
        self.defs
            .entry(Arc::as_ptr(def) as usize)
            .or_insert_with(|| {
                let mut fixing = Some(Vec::new());
                if let Value::Object(object) = &**def {
                    refs(object, true, &mut |target, loosenable| match target {
                        Target::Def(name) if !loosenable => {
                            if let Some(fixing) = &mut fixing {
                                fixing.push(name);
                            }
                        }
                        Target::Def(_) => {}
                        Target::Other(_) => fixing = None,
                    });
                }
                DefFacts {
                    _def: def.clone(),
                    len: json_len(&**def),
                    fixing,
                    relaxed: None,
                }
            })
    }
}

/// The root of a schema with shared definitions, its `$defs` entry `null`.
fn root_of(schema: &ToolSchema) -> JsonObject {
    let mut root = JsonObject::new();
    let _ = schema.map_root(|own| {
        root = own.clone();
        own
    });
    root
}
