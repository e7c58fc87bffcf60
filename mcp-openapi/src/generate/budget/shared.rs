//! The budget of one generation run over schemas that share their
//! definitions: what trimming learns of a shared definition (its size, its
//! relaxed form, its shortened form, the references that fix others) is
//! learned once and used for every schema that shares it, and no schema is
//! assembled whole just to be measured.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;
use std::sync::Arc;

use mcp_core::ToolSchema;
use mcp_core::schema::{json_len, portable};
use serde_json::Value;

use super::form::Form;
use super::loosen::{DefTypes, relax};
use super::shorten::str_len;
use super::walk::{Target, refs};
use super::{Name, trim_relaxed_steps, trimmed_output_schema};

/// What trimming knows of one shared definition.
#[derive(Debug)]
struct DefFacts {
    /// The definition as it is (its `Arc` keeps its address its own).
    whole: Rc<Form>,
    /// Its relaxed form (step 1 of trimming), made on first need.
    relaxed: Option<Rc<Form>>,
}

/// Applies a budget to the output schemas of one generation run: each
/// distinct schema (by address) is trimmed once and the result shared.
#[derive(Debug)]
pub(crate) struct OutputBudget {
    max_bytes: Option<usize>,
    /// Trimmed schemas by the address of the schema they trim; the schema
    /// itself is held so the address is not reused during the run.
    done: ByAddress<(ToolSchema, ToolSchema)>,
    /// What is known of each shared definition, by address.
    defs: ByAddress<DefFacts>,
}

impl OutputBudget {
    /// A budget of `max_bytes` per schema (`None`: unlimited).
    pub(crate) fn new(max_bytes: Option<usize>) -> Self {
        Self {
            max_bytes,
            done: ByAddress::default(),
            defs: ByAddress::default(),
        }
    }

    /// `schema` within the budget. A schema that fits stays as it is (its
    /// shared definitions stay shared); only one over the budget is
    /// trimmed, to what [`trimmed_output_schema`] makes of it whole.
    pub(crate) fn apply(&mut self, mut schema: ToolSchema) -> ToolSchema {
        let Some(max_bytes) = self.max_bytes else {
            return schema;
        };
        let address = schema.as_ptr() as usize;
        if let Some((_, trimmed)) = self.done.get(&address) {
            return trimmed.clone();
        }
        // A schema nothing else holds cannot be given again: it is neither
        // remembered nor copied to be trimmed.
        let kept = (!schema.is_unique()).then(|| schema.clone());
        let trimmed = if schema.shared_defs().is_empty() {
            match trimmed_output_schema(&schema, max_bytes) {
                Some(trimmed) => ToolSchema::from(trimmed),
                None => schema,
            }
        } else {
            self.trim_shared(schema, max_bytes)
        };
        if let Some(kept) = kept {
            self.done.insert(address, (kept, trimmed.clone()));
        }
        trimmed
    }

    /// [`trimmed_output_schema`] of a schema with shared definitions,
    /// without assembling it (the schema itself when it fits or cannot be
    /// trimmed).
    fn trim_shared(&mut self, schema: ToolSchema, max_bytes: usize) -> ToolSchema {
        let Some(fixed) = self.fixed_defs(&schema, max_bytes) else {
            return schema;
        };
        let (mut root, shared) = schema.into_parts();
        root.shift_remove("$defs");
        let by_name = ByName::new(&shared);
        // Step 1, with each shared definition relaxed once per run.
        relax(&mut root, &by_name);
        let form = |name: &str| {
            let def = by_name.get(name)?;
            let facts = self.facts(def);
            if fixed.contains(name) {
                return Some(facts.whole.clone());
            }
            let whole = &facts.whole;
            let relaxed = facts
                .relaxed
                .get_or_insert_with(|| Form::relaxed(whole, &by_name));
            Some(relaxed.clone())
        };
        let (mut root, defs) = trim_relaxed_steps(root, form, max_bytes);
        // The definitions are spelled portably already: shared ones as
        // generation prepares them, looser forms where they are made.
        portable(&mut root);
        ToolSchema::with_shared_defs(root, defs)
    }

    /// The shared definitions of `schema` that trimming may not loosen
    /// (those referenced from a place where a looser schema could reject
    /// more, and every definition they reach); `None` when the schema fits
    /// or cannot be trimmed.
    fn fixed_defs(&mut self, schema: &ToolSchema, max_bytes: usize) -> Option<HashSet<Name>> {
        let shared = schema.shared_defs();
        let root = schema.root();
        // Its length, measured until it is over the budget.
        let mut len = json_len(root) - "null".len() + "{}".len() + shared.len() - 1;
        let fits = shared.iter().all(|(name, def)| {
            len += str_len(name) + 1 + self.facts(def).whole.len();
            len <= max_bytes
        });
        if fits {
            return None;
        }
        // The definitions fixed by a reference from a place where a looser
        // schema could reject more.
        let mut seeds = Vec::new();
        let mut followable = true;
        for (_, def) in shared {
            match &self.facts(def).whole.fixing {
                Some(fixing) => seeds.extend(fixing.iter().cloned()),
                None => followable = false,
            }
        }
        let by_name = ByName::new(shared);
        // The definitions that may not be loosened: those referenced from a
        // fixed place, and every definition they reach.
        refs(root, true, &mut |target, loosenable| match target {
            Target::Def(name) if !loosenable => seeds.push(Name::from(name)),
            Target::Def(_) => {}
            Target::Other(_) => followable = false,
        });
        if !followable {
            return None;
        }
        let mut fixed = HashSet::new();
        while let Some(name) = seeds.pop() {
            if let Some(def) = by_name.get(&name)
                && def.is_object()
                && fixed.insert(name)
            {
                seeds.extend(self.facts(def).whole.refs.iter().cloned());
            }
        }
        Some(fixed)
    }

    /// What is known of the shared definition `def` (learned on first use).
    fn facts(&mut self, def: &Arc<Value>) -> &mut DefFacts {
        self.defs
            .entry(Arc::as_ptr(def) as usize)
            .or_insert_with(|| DefFacts {
                whole: Rc::new(Form::new(def.clone())),
                relaxed: None,
            })
    }
}

/// A map by address: addresses are distinct numbers already, and are
/// looked up once per shared definition of every trimmed schema.
type ByAddress<V> = HashMap<usize, V, BuildHasherDefault<AddressHasher>>;

/// Spreads an address over the hash (multiplied, high bits folded down).
#[derive(Default)]
struct AddressHasher(u64);

impl Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(self.0.rotate_left(8) ^ u64::from(byte));
        }
    }

    fn write_u64(&mut self, n: u64) {
        let spread = n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = spread ^ (spread >> 29);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

/// The shared definitions of one schema by name: searched in place when
/// they are sorted by name (as generation writes them), else indexed.
enum ByName<'a> {
    Sorted(&'a [(Arc<str>, Arc<Value>)]),
    Indexed(HashMap<&'a str, &'a Arc<Value>>),
}

impl<'a> ByName<'a> {
    fn new(shared: &'a [(Arc<str>, Arc<Value>)]) -> Self {
        if shared.windows(2).all(|pair| pair[0].0 < pair[1].0) {
            Self::Sorted(shared)
        } else {
            Self::Indexed(shared.iter().map(|(name, def)| (&**name, def)).collect())
        }
    }

    fn get(&self, name: &str) -> Option<&'a Arc<Value>> {
        match self {
            Self::Sorted(shared) => shared
                .binary_search_by(|(key, _)| (**key).cmp(name))
                .ok()
                .map(|at| &shared[at].1),
            Self::Indexed(by_name) => by_name.get(name).copied(),
        }
    }
}

impl DefTypes for ByName<'_> {
    fn def_type(&self, name: &str) -> Option<Option<&Value>> {
        self.get(name).map(|def| def.get("type"))
    }
}
