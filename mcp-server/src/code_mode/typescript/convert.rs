//! JSON Schema to TypeScript types: `type`, `enum`, `const`, objects with
//! their `required` keys and `additionalProperties`/`patternProperties`,
//! arrays and tuples (`prefixItems`, or `items` as a list), `anyOf`/`oneOf`
//! as unions, `allOf` as intersections, `$ref`s resolved or named, and
//! OpenAPI 3.0's `nullable`. Formats and validation keywords are not
//! types, so they are left out.
//!
//! A [`Detail`] bounds what is spelled out: objects below a depth become
//! `Record<string, unknown>`, objects with many properties keep the first
//! ones (links last) and count the others, long enums become their base
//! type.

use std::collections::HashMap;

use mcp_core::schema::walk::{Walk, reference_name};
use serde_json::Value;

use super::direct::without_direct_cycles;
use super::literal::type_name;
use super::refs::{Definitions, Uses};
use super::ty::{Object, Property, Tuple, Ty, literal_type};

/// Type names a definition never takes: the declarations write these.
const RESERVED: [&str; 4] = ["Promise", "Record", "Array", "Object"];

/// How much of a schema is spelled out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Detail {
    /// How many levels of nested objects are spelled out (the outermost
    /// object is level 1).
    pub(crate) depth: usize,
    /// How many properties the outermost object spells out.
    pub(crate) root_properties: usize,
    /// How many properties any other object spells out.
    pub(crate) properties: usize,
    /// How many values an enum spells out as literals.
    pub(crate) enum_values: usize,
}

/// One schema document (a tool's input or output schema) being converted:
/// what its references resolve against and which are named.
#[derive(Debug)]
pub(crate) struct Document<'a> {
    id: usize,
    definitions: Definitions<'a>,
    uses: Uses,
    detail: Detail,
}

impl<'a> Document<'a> {
    /// The document `root` (number `id` among those of one declaration),
    /// whose types start at `entry` and are spelled out to `detail`.
    pub(crate) fn new(
        id: usize,
        definitions: impl Into<Definitions<'a>>,
        entry: &'a Value,
        detail: Detail,
    ) -> Self {
        let definitions = definitions.into();
        Self {
            id,
            definitions,
            uses: Uses::of(definitions, [entry]),
            detail,
        }
    }
}

/// A named type: its name, what it was made from, its type once written.
#[derive(Debug)]
struct Alias<'a> {
    /// The name before any suffix that tells it from another.
    base: String,
    name: String,
    source: &'a Value,
    ty: Option<Ty>,
}

/// Converts the schemas of one declaration and collects the type aliases
/// they need.
#[derive(Debug, Default)]
pub(crate) struct Converter<'a> {
    aliases: Vec<Alias<'a>>,
    by_reference: HashMap<(usize, &'a str), usize>,
    /// References being written in place, to stop at a cycle.
    inlining: Vec<(usize, &'a str)>,
    /// Whether a part of a schema was left out.
    abbreviated: bool,
    /// The schemas being converted inside one another: past its bound
    /// (depth, or steps in all), a schema is `unknown`, so that no schema
    /// exhausts the stack or the time.
    walk: Walk<'a>,
}

impl<'a> Converter<'a> {
    /// The type of `schema` inside `document`.
    pub(crate) fn convert(&mut self, document: &Document<'a>, schema: &'a Value) -> Ty {
        self.ty(document, schema, 0)
    }

    /// Whether anything converted so far was left out or abbreviated.
    pub(crate) fn abbreviated(&self) -> bool {
        self.abbreviated
    }

    /// The type aliases the converted types name, in order of first use:
    /// `type Name = ...`.
    ///
    /// References from an alias back to itself outside any object or
    /// array are dropped (see [`without_direct_cycles`]).
    pub(crate) fn aliases(&self) -> impl Iterator<Item = String> + '_ {
        let aliases = self.aliases.iter().map(|alias| {
            (
                alias.name.as_str(),
                alias.ty.as_ref().unwrap_or(&Ty::Unknown),
            )
        });
        without_direct_cycles(aliases)
            .into_iter()
            .map(|(name, ty)| format!("type {name} = {ty};"))
    }

    fn ty(&mut self, document: &Document<'a>, schema: &'a Value, depth: usize) -> Ty {
        if !self.walk.enter() {
            self.abbreviated = true;
            return Ty::Unknown;
        }
        let ty = self.subschema(document, schema, depth);
        self.walk.leave();
        ty
    }

    fn subschema(&mut self, document: &Document<'a>, schema: &'a Value, depth: usize) -> Ty {
        let schema = match schema {
            Value::Bool(true) => return Ty::Unknown,
            Value::Bool(false) => return Ty::Never,
            Value::Object(schema) => schema,
            _ => return Ty::Unknown,
        };
        let mut applied = Vec::new();
        if let Some(Value::String(reference)) = schema.get("$ref") {
            applied.push(self.reference(document, reference, depth));
        }
        for keyword in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = schema.get(keyword) {
                let branches: Vec<Ty> = branches
                    .iter()
                    .map(|branch| self.ty(document, branch, depth))
                    .collect();
                applied.push(Ty::union(branches));
            }
        }
        if let Some(Value::Array(parts)) = schema.get("allOf") {
            let parts: Vec<Ty> = parts
                .iter()
                .map(|part| self.ty(document, part, depth))
                .collect();
            applied.push(Ty::intersection(parts));
        }
        let applied = Ty::intersection(applied);
        let ty = match self.own(document, schema, depth) {
            None => applied,
            // A bare `type` beside applicators only restates their branches.
            Some((_, true)) if applied != Ty::Unknown => applied,
            Some((own, _)) => Ty::intersection([own, applied]),
        };
        if schema.get("nullable") == Some(&Value::Bool(true)) {
            ty.nullable()
        } else {
            ty
        }
    }

    /// The type a schema's own keywords give (`const`, `enum`, `type` and
    /// what it implies), and whether that is a bare `type` alone.
    fn own(
        &mut self,
        document: &Document<'a>,
        schema: &'a serde_json::Map<String, Value>,
        depth: usize,
    ) -> Option<(Ty, bool)> {
        if let Some(value) = schema.get("const") {
            return Some((literal_type(value), false));
        }
        if let Some(Value::Array(values)) = schema.get("enum") {
            if values.len() <= document.detail.enum_values {
                return Some((Ty::union(values.iter().map(literal_type)), false));
            }
            self.abbreviated = true;
        }
        let structural = [
            "properties",
            "additionalProperties",
            "patternProperties",
            "items",
            "prefixItems",
        ];
        let bare = !structural
            .iter()
            .any(|keyword| schema.contains_key(*keyword));
        match schema.get("type") {
            Some(Value::String(kind)) => Some((self.typed(document, schema, kind, depth), bare)),
            Some(Value::Array(kinds)) => {
                let kinds: Vec<Ty> = kinds
                    .iter()
                    .filter_map(Value::as_str)
                    .map(|kind| self.typed(document, schema, kind, depth))
                    .collect();
                Some((Ty::union(kinds), bare))
            }
            _ if ["properties", "additionalProperties", "patternProperties"]
                .iter()
                .any(|keyword| schema.contains_key(*keyword)) =>
            {
                Some((self.object(document, schema, depth), false))
            }
            _ if schema.contains_key("items") || schema.contains_key("prefixItems") => {
                Some((self.array(document, schema, depth), false))
            }
            _ => None,
        }
    }

    fn typed(
        &mut self,
        document: &Document<'a>,
        schema: &'a serde_json::Map<String, Value>,
        kind: &str,
        depth: usize,
    ) -> Ty {
        match kind {
            "string" => Ty::String,
            "integer" | "number" => Ty::Number,
            "boolean" => Ty::Boolean,
            "null" => Ty::Null,
            "array" => self.array(document, schema, depth),
            "object" => self.object(document, schema, depth),
            _ => Ty::Unknown,
        }
    }

    fn array(
        &mut self,
        document: &Document<'a>,
        schema: &'a serde_json::Map<String, Value>,
        depth: usize,
    ) -> Ty {
        let (elements, rest) = match (schema.get("prefixItems"), schema.get("items")) {
            (Some(Value::Array(elements)), rest) => (elements, rest),
            (None, Some(Value::Array(elements))) => (elements, schema.get("additionalItems")),
            (_, Some(items)) => return Ty::Array(Box::new(self.ty(document, items, depth))),
            (_, None) => return Ty::any_array(),
        };
        let count = |keyword: &str| {
            schema
                .get(keyword)
                .and_then(Value::as_u64)
                .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
        };
        let max = count("maxItems").unwrap_or(usize::MAX);
        let kept = elements.len().min(max);
        let elements: Vec<Ty> = elements[..kept]
            .iter()
            .map(|element| self.ty(document, element, depth))
            .collect();
        let rest = match rest {
            _ if max <= kept => None,
            Some(Value::Bool(false)) => None,
            Some(rest) => Some(Box::new(self.ty(document, rest, depth))),
            None => Some(Box::new(Ty::Unknown)),
        };
        Ty::Tuple(Tuple {
            required: count("minItems").unwrap_or(0).min(elements.len()),
            elements,
            rest,
        })
    }

    fn object(
        &mut self,
        document: &Document<'a>,
        schema: &'a serde_json::Map<String, Value>,
        depth: usize,
    ) -> Ty {
        let properties = schema.get("properties").and_then(Value::as_object);
        let additional = schema.get("additionalProperties");
        let patterns = schema.get("patternProperties").and_then(Value::as_object);
        if depth >= document.detail.depth {
            if properties.is_some_and(|properties| !properties.is_empty()) {
                self.abbreviated = true;
            }
            return Ty::any_object();
        }
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let limit = if depth == 0 {
            document.detail.root_properties
        } else {
            document.detail.properties
        };
        let listed: Vec<(&'a String, &'a Value)> = properties.into_iter().flatten().collect();
        let kept = kept_properties(&listed, limit);
        if kept.len() < listed.len() {
            self.abbreviated = true;
        }
        let properties: Vec<Property> = kept
            .iter()
            .map(|&position| {
                let (name, value) = listed[position];
                Property {
                    name: name.clone(),
                    optional: !required.contains(&name.as_str()),
                    ty: self.ty(document, value, depth + 1),
                }
            })
            .collect();
        let mut values: Vec<Ty> = patterns
            .into_iter()
            .flatten()
            .map(|(_, value)| self.ty(document, value, depth + 1))
            .collect();
        match additional {
            Some(Value::Bool(false)) | None => {}
            Some(value) => values.push(self.ty(document, value, depth + 1)),
        }
        let index = if values.is_empty() {
            let closed = additional == Some(&Value::Bool(false)) && patterns.is_none();
            match (properties.is_empty(), closed) {
                (true, true) => Some(Ty::Never),
                (true, false) => Some(Ty::Unknown),
                (false, _) => None,
            }
        } else if properties.is_empty() {
            Some(Ty::union(values))
        } else {
            // A named property's type need not fit another key's: say less.
            Some(Ty::Unknown)
        };
        Ty::Object(Object {
            properties,
            index: index.map(Box::new),
            left_out: listed.len() - kept.len(),
            signature: false,
        })
    }

    fn reference(&mut self, document: &Document<'a>, reference: &'a str, depth: usize) -> Ty {
        let Some(target) = document.definitions.resolve(reference) else {
            return Ty::Unknown;
        };
        if document.uses.named(reference) && depth < document.detail.depth {
            return self.alias(document, reference, target, depth);
        }
        let key = (document.id, reference);
        if self.inlining.contains(&key) {
            return Ty::Unknown;
        }
        self.inlining.push(key);
        let ty = self.ty(document, target, depth);
        self.inlining.pop();
        ty
    }

    fn alias(
        &mut self,
        document: &Document<'a>,
        reference: &'a str,
        target: &'a Value,
        depth: usize,
    ) -> Ty {
        if let Some(&known) = self.by_reference.get(&(document.id, reference)) {
            return Ty::Named(self.aliases[known].name.clone());
        }
        let base = type_name(&reference_name(reference).unwrap_or_else(|| "Root".to_owned()));
        let same = self
            .aliases
            .iter()
            .position(|alias| alias.base == base && alias.source == target);
        if let Some(same) = same {
            self.by_reference.insert((document.id, reference), same);
            return Ty::Named(self.aliases[same].name.clone());
        }
        let mut name = base.clone();
        let mut suffix = 1;
        while RESERVED.contains(&name.as_str())
            || self.aliases.iter().any(|alias| alias.name == name)
        {
            suffix += 1;
            name = format!("{base}{suffix}");
        }
        let position = self.aliases.len();
        self.aliases.push(Alias {
            base,
            name: name.clone(),
            source: target,
            ty: None,
        });
        self.by_reference.insert((document.id, reference), position);
        let ty = self.ty(document, target, depth);
        self.aliases[position].ty = Some(ty);
        Ty::Named(name)
    }
}

/// The positions of the properties an object keeps within `limit`: the
/// first ones in order, links (`url`, `*_url`, `href`, `_links`) last.
fn kept_properties(listed: &[(&String, &Value)], limit: usize) -> Vec<usize> {
    if listed.len() <= limit {
        return (0..listed.len()).collect();
    }
    let is_link =
        |name: &str| name == "url" || name.ends_with("_url") || name == "href" || name == "_links";
    let mut order: Vec<usize> = (0..listed.len()).collect();
    order.sort_by_key(|&position| is_link(listed[position].0));
    order.truncate(limit);
    order.sort_unstable();
    order
}

#[cfg(test)]
mod tests;
