//! Per-tool `$defs`: only the definitions a schema reaches, `readOnly`
//! properties left out of inputs and `writeOnly` ones out of outputs, and
//! the `inline` profile that replaces references by their content.

mod closure;
mod inline;
mod shape;

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use mcp_core::SharedDef;
use mcp_core::schema::portable;
use serde_json::{Map, Value};

use crate::schema::profile::SchemaProfile;
use crate::schema::registry::DefRegistry;

/// Which side of the call a schema describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Mode {
    /// Tool input: `readOnly` properties are left out.
    Input = 0,
    /// Tool output: `writeOnly` properties are left out.
    Output = 1,
}

impl Mode {
    const fn hidden_flag(self) -> &'static str {
        match self {
            Self::Input => "readOnly",
            Self::Output => "writeOnly",
        }
    }
}

const DEFS_PREFIX: &str = "#/$defs/";

/// Keywords whose value maps names (not keywords) to schemas: a property
/// named `default` or `enum` is a schema, not data.
const NAME_MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "dependentSchemas",
    "$defs",
    "definitions",
];

/// A definition prepared for one mode, with the definitions it refers to.
#[derive(Debug)]
struct Prepared {
    /// Shared by every tool schema that reaches the definition.
    value: Result<Arc<Value>, String>,
    refs: BTreeSet<String>,
}

/// A root schema and the definitions it reaches, by name, sorted.
/// A finished root schema and the definitions it reaches (a list that
/// schemas reaching the same definitions share).
pub(crate) type Finished = (Map<String, Value>, Arc<[SharedDef]>);

/// Gives tool schemas the definitions they reach; prepares each
/// (definition, mode) once and shares it between tools.
#[derive(Debug)]
pub(crate) struct DefCopier<'a> {
    registry: &'a DefRegistry,
    profile: SchemaProfile,
    cycle_depth: usize,
    /// Prepared definitions by name, one map per mode (looked up by `&str`).
    prepared: [HashMap<String, Prepared>; 2],
    /// Definitions that hide nothing in a mode, as both modes share them.
    unstripped: HashMap<String, Prepared>,
    /// What one walk found in each definition, for both modes.
    scans: HashMap<String, Scan>,
    /// The same definitions numbered, one graph per mode, for walks.
    graph: [closure::Graph; 2],
    /// Definitions the `inline` profile may still expand in the current schema.
    budget: usize,
    /// How many levels of JSON deep the `inline` profile is in the current
    /// schema.
    nesting: usize,
}

/// How many definitions the `inline` profile expands per schema before it
/// cuts the remaining references (documents like Stripe's reach thousands).
pub(crate) const INLINE_BUDGET: usize = 100;

impl<'a> DefCopier<'a> {
    pub(crate) fn new(
        registry: &'a DefRegistry,
        profile: SchemaProfile,
        cycle_depth: usize,
    ) -> Self {
        Self {
            registry,
            profile,
            cycle_depth,
            prepared: [HashMap::new(), HashMap::new()],
            unstripped: HashMap::new(),
            scans: HashMap::new(),
            graph: Default::default(),
            budget: INLINE_BUDGET,
            nesting: 0,
        }
    }

    /// A copy of `schema` without the properties hidden in `mode`.
    pub(crate) fn strip(&self, schema: &Value, mode: Mode) -> Value {
        // Only a property with the flag, or a reference to a definition
        // with it, is hidden: without either, the copy is a plain clone
        // (which copies maps without hashing their keys again).
        if !mentions_any(schema, &[mode.hidden_flag(), "$ref"]) {
            return schema.clone();
        }
        self.strip_copy(schema, mode)
    }

    fn strip_copy(&self, schema: &Value, mode: Mode) -> Value {
        match schema {
            Value::Object(object) => {
                let mut out = Map::with_capacity(object.len());
                let mut hidden = Vec::new();
                for (key, value) in object {
                    let copy = match (key.as_str(), value) {
                        ("properties", Value::Object(props)) => {
                            let mut kept = Map::with_capacity(props.len());
                            for (name, prop) in props {
                                if self.is_hidden(prop, mode) {
                                    hidden.push(name.as_str());
                                } else {
                                    kept.insert(name.clone(), self.strip_copy(prop, mode));
                                }
                            }
                            Value::Object(kept)
                        }
                        ("enum" | "const" | "default" | "examples", _) => value.clone(),
                        (map, Value::Object(schemas)) if NAME_MAPS.contains(&map) => Value::Object(
                            schemas
                                .iter()
                                .map(|(name, schema)| (name.clone(), self.strip_copy(schema, mode)))
                                .collect(),
                        ),
                        _ => self.strip_copy(value, mode),
                    };
                    out.insert(key.clone(), copy);
                }
                if !hidden.is_empty()
                    && let Some(Value::Array(required)) = out.get_mut("required")
                {
                    required.retain(|r| !r.as_str().is_some_and(|r| hidden.contains(&r)));
                }
                Value::Object(out)
            }
            Value::Array(items) => {
                Value::Array(items.iter().map(|v| self.strip_copy(v, mode)).collect())
            }
            other => other.clone(),
        }
    }

    fn is_hidden(&self, schema: &Value, mode: Mode) -> bool {
        let flag = mode.hidden_flag();
        let own = schema.get(flag).and_then(Value::as_bool);
        own.or_else(|| {
            self.resolve(schema)
                .and_then(|s| s.get(flag))
                .and_then(Value::as_bool)
        })
        .unwrap_or(false)
    }

    /// The object a schema denotes, following `#/$defs/` references.
    fn resolve<'s>(&'s self, schema: &'s Value) -> Option<&'s Map<String, Value>> {
        let mut current = schema;
        for _ in 0..16 {
            let object = current.as_object()?;
            match object
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix(DEFS_PREFIX))
            {
                Some(name) => current = self.registry.get(name)?,
                None => return Some(object),
            }
        }
        None
    }

    fn prepared(&mut self, name: &str, mode: Mode) -> &Prepared {
        let index = mode as usize;
        if !self.prepared[index].contains_key(name) {
            let registry: &'a DefRegistry = self.registry;
            let prepared = match registry.defs.get(name) {
                None => Prepared {
                    value: Err(format!("schema `{name}` is missing")),
                    refs: BTreeSet::new(),
                },
                Some(entry) => match &entry.schema {
                    Err(reason) => Prepared {
                        value: Err(format!("schema `{name}` cannot be used: {reason}")),
                        refs: BTreeSet::new(),
                    },
                    Ok(schema) if self.scan(name, schema).hides(mode) => {
                        let value = portable_value(self.strip_copy(schema, mode));
                        let refs = owned_refs(&value);
                        Prepared {
                            value: Ok(value),
                            refs,
                        }
                    }
                    Ok(schema) => {
                        let shared = self.unstripped.entry(name.to_owned()).or_insert_with(|| {
                            // Shared as it is when it is spelled portably
                            // already.
                            let value = if self.scans.get(name).is_some_and(|scan| scan.null_type) {
                                portable_value(Value::clone(schema))
                            } else {
                                schema.clone()
                            };
                            let refs = owned_refs(&value);
                            Prepared {
                                value: Ok(value),
                                refs,
                            }
                        });
                        Prepared {
                            value: shared.value.clone(),
                            refs: shared.refs.clone(),
                        }
                    }
                },
            };
            self.prepared[index].insert(name.to_owned(), prepared);
        }
        &self.prepared[index][name]
    }

    /// What [`Scan::of`] finds in the definition `name`, once per run.
    fn scan(&mut self, name: &str, schema: &Value) -> Scan {
        *self
            .scans
            .entry(name.to_owned())
            .or_insert_with(|| Scan::of(schema))
    }

    /// Completes a root schema for the profile: with exactly the definitions
    /// it reaches, to be written as its `$defs` (`standard`), or with
    /// references inlined and no definitions (`inline`).
    pub(crate) fn finish(
        &mut self,
        root: Map<String, Value>,
        mode: Mode,
    ) -> Result<Finished, String> {
        let mut names = BTreeSet::new();
        collect_refs_in(&root, &mut names);
        if self.profile == SchemaProfile::Standard
            && let Some(defs) = self.reach(&names, mode)
        {
            return Ok((root, defs));
        }
        let mut pending: BTreeSet<String> = names.into_iter().map(str::to_owned).collect();
        // A definition that cannot be used: the walk by name says which.
        let mut reached = BTreeSet::new();
        while let Some(name) = pending.pop_first() {
            if !reached.insert(name.clone()) {
                continue;
            }
            let prepared = self.prepared(&name, mode);
            if let Err(reason) = &prepared.value {
                return Err(reason.clone());
            }
            pending.extend(
                prepared
                    .refs
                    .iter()
                    .filter(|r| !reached.contains(*r))
                    .cloned(),
            );
        }
        match self.profile {
            SchemaProfile::Standard => {
                let mut defs = Vec::with_capacity(reached.len());
                for name in reached {
                    if let Ok(value) = &self.prepared(&name, mode).value {
                        defs.push((Arc::from(name), value.clone()));
                    }
                }
                Ok((root, defs.into()))
            }
            SchemaProfile::Inline => {
                let mut stack = Vec::new();
                self.budget = INLINE_BUDGET;
                match self.inline(&Value::Object(root), mode, &mut stack) {
                    Value::Object(out) => Ok((out, Arc::from([]))),
                    _ => Err("an inlined root schema is not an object".to_owned()),
                }
            }
        }
    }
}

/// `value` in the portable spelling, shared.
fn portable_value(mut value: Value) -> Arc<Value> {
    if let Value::Object(object) = &mut value {
        portable(object);
    }
    Arc::new(value)
}

/// What a definition holds that preparing it depends on, found in one
/// walk (data included, so a `false` is sure).
#[derive(Clone, Copy, Debug, Default)]
struct Scan {
    /// A `readOnly` key: inputs may hide a property.
    read_only: bool,
    /// A `writeOnly` key: outputs may hide a property.
    write_only: bool,
    /// An object with a type array with `null` and no `anyOf` (what the
    /// portable spelling rewrites).
    null_type: bool,
}

impl Scan {
    fn of(value: &Value) -> Self {
        let mut found = Self::default();
        found.walk(value);
        found
    }

    fn walk(&mut self, value: &Value) {
        match value {
            Value::Object(object) => {
                self.null_type = self.null_type
                    || (!object.contains_key("anyOf")
                        && object
                            .get("type")
                            .and_then(Value::as_array)
                            .is_some_and(|types| types.iter().any(|t| t == "null")));
                for (key, value) in object {
                    match key.as_str() {
                        "readOnly" => self.read_only = true,
                        "writeOnly" => self.write_only = true,
                        _ => {}
                    }
                    self.walk(value);
                }
            }
            Value::Array(items) => items.iter().for_each(|item| self.walk(item)),
            _ => {}
        }
    }

    /// Whether the definition may hide a property in `mode`.
    fn hides(self, mode: Mode) -> bool {
        match mode {
            Mode::Input => self.read_only,
            Mode::Output => self.write_only,
        }
    }
}

/// Whether any of `keys` appears as a key anywhere in `value`.
fn mentions_any(value: &Value, keys: &[&str]) -> bool {
    match value {
        Value::Object(object) => object
            .iter()
            .any(|(k, v)| keys.contains(&k.as_str()) || mentions_any(v, keys)),
        Value::Array(items) => items.iter().any(|v| mentions_any(v, keys)),
        _ => false,
    }
}

/// The names of the `#/$defs/` references in a schema, owned.
fn owned_refs(value: &Value) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    collect_refs(value, &mut found);
    found.into_iter().map(str::to_owned).collect()
}

/// Collects the names of `#/$defs/` references in a schema.
fn collect_refs<'v>(value: &'v Value, found: &mut BTreeSet<&'v str>) {
    match value {
        Value::Object(object) => collect_refs_in(object, found),
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, found)),
        _ => {}
    }
}

fn collect_refs_in<'v>(object: &'v Map<String, Value>, found: &mut BTreeSet<&'v str>) {
    for (key, value) in object {
        match (key.as_str(), value) {
            ("$ref", Value::String(reference)) => {
                if let Some(name) = reference.strip_prefix(DEFS_PREFIX) {
                    found.insert(name);
                }
            }
            ("enum" | "const" | "default" | "examples", _) => {}
            (map, Value::Object(schemas)) if NAME_MAPS.contains(&map) => {
                schemas
                    .values()
                    .for_each(|schema| collect_refs(schema, found));
            }
            _ => collect_refs(value, found),
        }
    }
}
