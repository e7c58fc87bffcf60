//! Per-tool `$defs`: only the definitions a schema reaches, `readOnly`
//! properties left out of inputs and `writeOnly` ones out of outputs, and
//! the `inline` profile that replaces references by their content.

use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap};

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

/// How deep `allOf` chains are followed when flattening or typing a root.
const MAX_ALL_OF_DEPTH: usize = 16;

/// Keywords whose value maps names (not keywords) to schemas: a property
/// named `default` or `enum` is a schema, not data.
const NAME_MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "dependentSchemas",
    "$defs",
    "definitions",
];

/// Flattenable properties (name, schema) and the required names among them.
pub(crate) type Flattened = (Vec<(String, Value)>, Vec<String>);

/// A definition prepared for one mode, with the definitions it refers to.
#[derive(Debug)]
struct Prepared<'a> {
    /// Borrowed from the registry when nothing is hidden in this mode.
    value: Result<Cow<'a, Value>, String>,
    refs: BTreeSet<String>,
}

/// Copies definitions into tool schemas; caches each (definition, mode) once.
#[derive(Debug)]
pub(crate) struct DefCopier<'a> {
    registry: &'a DefRegistry,
    profile: SchemaProfile,
    cycle_depth: usize,
    /// Prepared definitions by name, one map per mode (looked up by `&str`).
    prepared: [HashMap<String, Prepared<'a>>; 2],
    /// Definitions the `inline` profile may still expand in the current schema.
    budget: usize,
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
            budget: INLINE_BUDGET,
        }
    }

    /// A copy of `schema` without the properties hidden in `mode`.
    pub(crate) fn strip(&self, schema: &Value, mode: Mode) -> Value {
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
                                    kept.insert(name.clone(), self.strip(prop, mode));
                                }
                            }
                            Value::Object(kept)
                        }
                        ("enum" | "const" | "default" | "examples", _) => value.clone(),
                        (map, Value::Object(schemas)) if NAME_MAPS.contains(&map) => Value::Object(
                            schemas
                                .iter()
                                .map(|(name, schema)| (name.clone(), self.strip(schema, mode)))
                                .collect(),
                        ),
                        _ => self.strip(value, mode),
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
                Value::Array(items.iter().map(|v| self.strip(v, mode)).collect())
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

    /// The properties (and required names) of an object schema that can be
    /// flattened exactly: plain `properties`, possibly merged over `allOf`.
    pub(crate) fn object_properties(&self, schema: &Value, mode: Mode) -> Option<Flattened> {
        self.object_properties_at(schema, mode, 0)
    }

    fn object_properties_at(&self, schema: &Value, mode: Mode, depth: usize) -> Option<Flattened> {
        // `A: {allOf: [{$ref: A}]}` must not recurse forever.
        if depth > MAX_ALL_OF_DEPTH {
            return None;
        }
        let object = self.resolve(schema)?;
        if ["oneOf", "anyOf", "not", "if"]
            .iter()
            .any(|k| object.contains_key(*k))
        {
            return None;
        }
        match object.get("type") {
            None => {}
            Some(Value::String(kind)) if kind == "object" => {}
            Some(_) => return None,
        }
        let mut props: Vec<(String, Value)> = Vec::new();
        let mut required = Vec::new();
        let mut structured = false;
        if let Some(Value::Array(members)) = object.get("allOf") {
            structured = true;
            for member in members {
                let (more, req) = self.object_properties_at(member, mode, depth + 1)?;
                for (name, prop) in more {
                    if props.iter().any(|(n, _)| *n == name) {
                        return None;
                    }
                    props.push((name, prop));
                }
                required.extend(req);
            }
        }
        if let Some(Value::Object(own)) = object.get("properties") {
            structured = true;
            for (name, prop) in own {
                if self.is_hidden(prop, mode) {
                    continue;
                }
                if props.iter().any(|(n, _)| n == name) {
                    return None;
                }
                props.push((name.clone(), self.strip(prop, mode)));
            }
        }
        if !structured {
            return None;
        }
        if let Some(Value::Array(names)) = object.get("required") {
            required.extend(names.iter().filter_map(Value::as_str).map(str::to_owned));
        }
        required.retain(|r| props.iter().any(|(n, _)| n == r));
        required.dedup();
        Some((props, required))
    }

    /// A root schema: a top-level reference is replaced by its content
    /// (its description sibling kept), so the root can carry `"type": "object"`.
    pub(crate) fn root_copy(&mut self, schema: &Value, mode: Mode) -> Value {
        let name = schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix(DEFS_PREFIX));
        if let Some(name) = name
            && let Ok(Value::Object(content)) = self.prepared(name, mode).value.as_deref()
        {
            let mut content = content.clone();
            if let Some(description) = schema.get("description") {
                content.insert("description".to_owned(), description.clone());
            }
            return Value::Object(content);
        }
        self.strip(schema, mode)
    }

    /// Whether a root schema denotes objects only.
    pub(crate) fn is_object_schema(&self, object: &Map<String, Value>) -> bool {
        self.is_object_schema_at(object, 0)
    }

    fn is_object_schema_at(&self, object: &Map<String, Value>, depth: usize) -> bool {
        if depth > MAX_ALL_OF_DEPTH {
            return false;
        }
        match object.get("type") {
            Some(Value::String(kind)) => kind == "object",
            Some(_) => false,
            None => {
                if object.contains_key("properties") {
                    return true;
                }
                match object.get("allOf") {
                    Some(Value::Array(members)) if !members.is_empty() => members.iter().all(|m| {
                        self.resolve(m)
                            .is_some_and(|m| self.is_object_schema_at(m, depth + 1))
                    }),
                    _ => false,
                }
            }
        }
    }

    fn prepared(&mut self, name: &str, mode: Mode) -> &Prepared<'a> {
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
                    Ok(schema) => {
                        let value = if mentions(schema, mode.hidden_flag()) {
                            Cow::Owned(self.strip(schema, mode))
                        } else {
                            Cow::Borrowed(schema)
                        };
                        let mut refs = BTreeSet::new();
                        collect_refs(&value, &mut refs);
                        Prepared {
                            value: Ok(value),
                            refs,
                        }
                    }
                },
            };
            self.prepared[index].insert(name.to_owned(), prepared);
        }
        &self.prepared[index][name]
    }

    /// Completes a root schema for the profile: `$defs` with exactly the
    /// definitions it reaches (`standard`), or references inlined (`inline`).
    pub(crate) fn finish(
        &mut self,
        root: Map<String, Value>,
        mode: Mode,
    ) -> Result<Map<String, Value>, String> {
        let mut pending = BTreeSet::new();
        collect_refs_in(&root, &mut pending);
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
                let mut root = root;
                if !reached.is_empty() {
                    let mut defs = Map::with_capacity(reached.len());
                    for name in reached {
                        if let Ok(value) = &self.prepared(&name, mode).value {
                            defs.insert(name, value.clone().into_owned());
                        }
                    }
                    root.insert("$defs".to_owned(), Value::Object(defs));
                }
                Ok(root)
            }
            SchemaProfile::Inline => {
                let mut stack = Vec::new();
                self.budget = INLINE_BUDGET;
                match self.inline(&Value::Object(root), mode, &mut stack) {
                    Value::Object(out) => Ok(out),
                    _ => Err("an inlined root schema is not an object".to_owned()),
                }
            }
        }
    }

    fn inline(&mut self, value: &Value, mode: Mode, stack: &mut Vec<String>) -> Value {
        match value {
            Value::Object(object) => {
                let name = object
                    .get("$ref")
                    .and_then(Value::as_str)
                    .and_then(|r| r.strip_prefix(DEFS_PREFIX));
                if let Some(name) = name {
                    let name = name.to_owned();
                    let mut out =
                        if stack.iter().filter(|n| **n == name).count() >= self.cycle_depth {
                            let mut cut = Map::new();
                            cut.insert(
                                "description".to_owned(),
                                format!(
                                    "recursive schema `{name}`, cut after {} levels",
                                    self.cycle_depth
                                )
                                .into(),
                            );
                            cut
                        } else if self.budget == 0 {
                            let mut cut = Map::new();
                            cut.insert(
                                "description".to_owned(),
                                format!("schema `{name}` left out (size limit)").into(),
                            );
                            cut
                        } else {
                            self.budget -= 1;
                            let content = match &self.prepared(&name, mode).value {
                                Ok(value) => value.clone().into_owned(),
                                Err(_) => Value::Object(Map::new()),
                            };
                            stack.push(name);
                            let inlined = self.inline(&content, mode, stack);
                            stack.pop();
                            match inlined {
                                Value::Object(map) => map,
                                _ => Map::new(),
                            }
                        };
                    for (key, sibling) in object {
                        if key != "$ref" {
                            let sibling = self.inline(sibling, mode, stack);
                            out.insert(key.clone(), sibling);
                        }
                    }
                    return Value::Object(out);
                }
                let mut out = Map::with_capacity(object.len());
                for (key, child) in object {
                    let child = match (key.as_str(), child) {
                        ("enum" | "const" | "default" | "examples", _) => child.clone(),
                        (map, Value::Object(schemas)) if NAME_MAPS.contains(&map) => Value::Object(
                            schemas
                                .iter()
                                .map(|(name, schema)| {
                                    (name.clone(), self.inline(schema, mode, stack))
                                })
                                .collect(),
                        ),
                        _ => self.inline(child, mode, stack),
                    };
                    out.insert(key.clone(), child);
                }
                Value::Object(out)
            }
            Value::Array(items) => {
                Value::Array(items.iter().map(|v| self.inline(v, mode, stack)).collect())
            }
            other => other.clone(),
        }
    }
}

/// Whether `flag` appears as a key anywhere in `value` (no allocation).
fn mentions(value: &Value, flag: &str) -> bool {
    match value {
        Value::Object(object) => object.iter().any(|(k, v)| k == flag || mentions(v, flag)),
        Value::Array(items) => items.iter().any(|v| mentions(v, flag)),
        _ => false,
    }
}

/// Collects the names of `#/$defs/` references in a schema.
pub(crate) fn collect_refs(value: &Value, found: &mut BTreeSet<String>) {
    match value {
        Value::Object(object) => collect_refs_in(object, found),
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, found)),
        _ => {}
    }
}

fn collect_refs_in(object: &Map<String, Value>, found: &mut BTreeSet<String>) {
    for (key, value) in object {
        match (key.as_str(), value) {
            ("$ref", Value::String(reference)) => {
                if let Some(name) = reference.strip_prefix(DEFS_PREFIX)
                    && !found.contains(name)
                {
                    found.insert(name.to_owned());
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
