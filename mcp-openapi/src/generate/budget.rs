//! Output schemas on a budget: a generated output schema larger than the
//! budget is loosened, never made wrong, until it fits.
//!
//! An output schema only has to describe what may come back, and a looser
//! schema is still true. Large APIs describe responses with object graphs
//! that reach hundreds of definitions (Stripe's expandable fields, an ID or
//! the whole object, reach almost all of them), so a schema that fits a
//! model's context keeps the top of the graph and says what it left out.
//! Trimming runs in three steps and stops as soon as the schema fits:
//!
//! 1. every `oneOf` becomes an `anyOf`, and every expandable union (an
//!    `anyOf` of a string and references, such as Stripe's
//!    `x-expansionResources` fields) becomes
//!    `{"anyOf": [{"type": "string"}, {"type": "object"}]}` with a
//!    description naming the definitions it expands to; if that is not
//!    enough, every description below the root is cut to its first
//!    sentence (descriptions do not take part in validation);
//! 2. definitions are kept breadth first from the root while they fit; each
//!    reference to one left out becomes its `type` with its name in the
//!    description, and definitions no longer referenced are removed;
//! 3. if the root alone is still too large, its subschemas below a nesting
//!    depth become their `type` and the first line of their description.
//!
//! Every step only loosens: a replaced subschema keeps its `type`, the
//! root's `properties` and `required` stay, and nothing is touched where a
//! looser subschema could reject more (under `not`, `if`, a bounded
//! `contains`, a `oneOf` beside an `anyOf`, the in-place applicators beside
//! `unevaluatedProperties`) nor any definition referenced from there. A
//! schema with a `$ref` that is not to a whole definition under `$defs` is
//! left as it is.

mod loosen;
mod shared;
mod walk;

use std::collections::{BTreeSet, HashSet, VecDeque};

use serde_json::{Map, Value};

use mcp_core::schema::{json_len, portable};

use crate::ir::JsonObject;
use loosen::{DefTypes, def_types, relax, stub, unexpand_ref};
pub(crate) use shared::OutputBudget;
use walk::{Target, loosenable_subschemas_mut, ref_loosenable, refs, target};

/// The default budget of a generated output schema, in bytes of compact
/// JSON: 4 KiB, about 1,000 tokens. Measured on the corpus, this keeps
/// Stripe's `tools/list` at 2.6 MB and GitHub's at 4.2 MB (16 KiB gives
/// 4.4 MB and 6.9 MB: a trimmed schema fills its budget).
pub const DEFAULT_OUTPUT_BUDGET: usize = 4 * 1024;

/// The deepest nesting the third step tries to keep.
const MAX_KEPT_DEPTH: usize = 6;

/// `schema` loosened to fit in `max_bytes` of compact JSON, or `None` when
/// it already fits or holds a reference trimming cannot follow.
///
/// The result accepts every instance `schema` accepts. In order, until it
/// fits: `oneOf` becomes `anyOf` and expandable unions (a string or
/// references) become a string or the definitions' types; descriptions
/// below the root are cut to their first sentence; definitions are kept
/// breadth first while they fit, the others replaced by their type and
/// name; last, the root's subschemas below a nesting depth become their
/// type. Nothing is loosened where that could reject more (under `not`,
/// `if`, ...). It may still be larger than `max_bytes` when the root's own
/// properties do not fit: they are never dropped.
///
/// ```
/// use serde_json::json;
/// let schema = json!({
///     "type": "object",
///     "properties": {"customer": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/customer"}]}},
///     "$defs": {"customer": {"type": "object", "properties": {
///         "name": {"type": "string", "description": "The customer's full name or business name."}
///     }}}
/// });
/// let trimmed = mcp_openapi::generate::trimmed_output_schema(schema.as_object().unwrap(), 200).unwrap();
/// assert_eq!(
///     serde_json::Value::Object(trimmed),
///     json!({"type": "object", "properties": {"customer": {
///         "anyOf": [{"type": "string"}, {"type": "object"}],
///         "description": "Expandable `customer`: its ID, or the object when expanded."
///     }}})
/// );
/// ```
pub fn trimmed_output_schema(schema: &JsonObject, max_bytes: usize) -> Option<JsonObject> {
    trimmed(schema, max_bytes)
}

fn trimmed(schema: &JsonObject, max_bytes: usize) -> Option<JsonObject> {
    if json_len(schema) <= max_bytes {
        return None;
    }
    let mut root = schema.clone();
    let defs = match root.remove("$defs") {
        None => Map::new(),
        Some(Value::Object(defs)) => defs,
        Some(_) => return None,
    };
    let types = def_types(&defs);
    // Step 1: relax the root and every definition it still reaches.
    let fixed = fixed_defs(&root, &defs)?;
    relax(&mut root, &types);
    let defs = reached(&root, |name| {
        let mut def = defs.get(name)?.clone();
        if let Value::Object(def) = &mut def
            && !fixed.contains(name)
        {
            relax(def, &types);
        }
        Some(def)
    });
    Some(trim_relaxed(root, defs, max_bytes))
}

/// The rest of trimming once the root and the definitions it reaches are
/// relaxed (`oneOf` and expandable unions loosened): shorter descriptions,
/// definitions kept breadth first, the root's nesting cut, each step only
/// if the one before did not fit `max_bytes`.
fn trim_relaxed(root: JsonObject, defs: Map<String, Value>, max_bytes: usize) -> JsonObject {
    let mut trimmed = trim_relaxed_steps(root, defs, max_bytes);
    // Stubs keep nullable types as `[T, "null"]`: spelled portably again.
    portable(&mut trimmed);
    trimmed
}

fn trim_relaxed_steps(
    mut root: JsonObject,
    mut defs: Map<String, Value>,
    max_bytes: usize,
) -> JsonObject {
    let types = def_types(&defs);
    if assembled_len(&root, &defs) <= max_bytes {
        return assembled(&root, &defs);
    }
    // Descriptions below the root are annotations: their first sentence is
    // as true as the whole text.
    shorten_descriptions(&mut root, true);
    for def in defs.values_mut().filter_map(Value::as_object_mut) {
        shorten_descriptions(def, false);
    }
    if assembled_len(&root, &defs) <= max_bytes {
        return assembled(&root, &defs);
    }
    // Step 2: keep definitions breadth first while they fit.
    // The definitions were followable before relaxing, and relaxing adds
    // no reference.
    let fixed = fixed_defs(&root, &defs).unwrap_or_default();
    let left_out = left_out(&root, &defs, &fixed, max_bytes);
    unexpand(&mut root, &left_out, &types);
    for (name, def) in &mut defs {
        if let Value::Object(def) = def
            && !fixed.contains(name)
        {
            unexpand(def, &left_out, &types);
        }
    }
    let defs = reached(&root, |name| defs.get(name).cloned());
    if assembled_len(&root, &defs) <= max_bytes {
        return assembled(&root, &defs);
    }
    // Step 3: cut the root's nesting, deepest first.
    let mut best = (root.clone(), defs.clone());
    for depth in (0..MAX_KEPT_DEPTH).rev() {
        let mut cut = root.clone();
        cut_below(&mut cut, depth);
        let kept = reached(&cut, |name| defs.get(name).cloned());
        let fits = assembled_len(&cut, &kept) <= max_bytes;
        best = (cut, kept);
        if fits {
            break;
        }
    }
    assembled(&best.0, &best.1)
}

/// The length in compact JSON of [`assembled`]`(root, defs)`, without
/// assembling it.
fn assembled_len(root: &JsonObject, defs: &Map<String, Value>) -> usize {
    let root_len = json_len(root);
    if defs.is_empty() {
        return root_len;
    }
    let separator = usize::from(!root.is_empty());
    let entries: usize = defs
        .iter()
        .map(|(name, def)| json_len(name.as_str()) + 1 + json_len(def))
        .sum();
    root_len + separator + json_len("$defs") + 1 + 2 + entries + defs.len() - 1
}

/// The longest description kept below the root, in characters.
const SHORT_DESCRIPTION: usize = 120;

/// Cuts every description under `schema` (and its own unless `is_root`) to
/// its first sentence, at most [`SHORT_DESCRIPTION`] characters.
fn shorten_descriptions(schema: &mut JsonObject, is_root: bool) {
    if !is_root && let Some(Value::String(text)) = schema.get_mut("description") {
        let first = text
            .split(". ")
            .next()
            .unwrap_or_default()
            .trim_end_matches('.');
        let mut short: String = first.chars().take(SHORT_DESCRIPTION).collect();
        if short.len() < first.len() {
            short.push('…');
        }
        short.push('.');
        if short.len() < text.len() {
            *text = short;
        }
    }
    loosenable_subschemas_mut(schema, |sub| shorten_descriptions(sub, false));
}

/// `root` with `defs` as its `$defs` (none when empty).
fn assembled(root: &JsonObject, defs: &Map<String, Value>) -> JsonObject {
    let mut out = root.clone();
    if !defs.is_empty() {
        out.insert("$defs".to_owned(), Value::Object(defs.clone()));
    }
    out
}

/// The definitions that may not be loosened: those referenced from a
/// fixed subschema, and every definition they reach. `None` when a
/// reference points anywhere but at a whole definition.
fn fixed_defs(root: &JsonObject, defs: &Map<String, Value>) -> Option<BTreeSet<String>> {
    let mut seeds = Vec::new();
    let mut followable = true;
    let mut visit = |target: Target<'_>, loosenable: bool| match target {
        Target::Def(name) if !loosenable => seeds.push(name),
        Target::Def(_) => {}
        Target::Other(_) => followable = false,
    };
    refs(root, true, &mut visit);
    for def in defs.values().filter_map(Value::as_object) {
        refs(def, true, &mut visit);
    }
    if !followable {
        return None;
    }
    let mut fixed = BTreeSet::new();
    while let Some(name) = seeds.pop() {
        if let Some(def) = defs.get(&name).and_then(Value::as_object)
            && fixed.insert(name)
        {
            refs(def, false, &mut |target, _| {
                if let Target::Def(name) = target {
                    seeds.push(name);
                }
            });
        }
    }
    Some(fixed)
}

/// The definitions `root` reaches, in the order first reached, each as
/// `def` gives it (definitions it has no value for are skipped).
fn reached(root: &JsonObject, mut def: impl FnMut(&str) -> Option<Value>) -> Map<String, Value> {
    let mut out = Map::new();
    let mut queue: VecDeque<String> = def_refs(root).into();
    while let Some(name) = queue.pop_front() {
        if out.contains_key(&name) {
            continue;
        }
        if let Some(value) = def(&name) {
            if let Value::Object(object) = &value {
                queue.extend(def_refs(object));
            }
            out.insert(name, value);
        }
    }
    out
}

/// The definitions `schema` references, in order.
fn def_refs(schema: &JsonObject) -> Vec<String> {
    let mut names = Vec::new();
    refs(schema, true, &mut |target, _| {
        if let Target::Def(name) = target {
            names.push(name);
        }
    });
    names
}

/// The definitions to leave out so that the rest fits in `max_bytes`:
/// breadth first from the root, each kept if it still fits (the fixed ones
/// always are).
fn left_out(
    root: &JsonObject,
    defs: &Map<String, Value>,
    fixed: &BTreeSet<String>,
    max_bytes: usize,
) -> HashSet<String> {
    let entry = |name: &str, def: &Value| json_len(def) + name.len() + 4;
    let mut total = json_len(root) + "\"$defs\":{},".len();
    for (name, def) in defs.iter().filter(|(name, _)| fixed.contains(*name)) {
        total += entry(name, def);
    }
    let mut kept: HashSet<String> = fixed.iter().cloned().collect();
    let mut out = HashSet::new();
    let mut queue: VecDeque<String> = def_refs(root).into();
    while let Some(name) = queue.pop_front() {
        if kept.contains(&name) || out.contains(&name) {
            continue;
        }
        let Some(def) = defs.get(&name) else {
            continue;
        };
        let cost = entry(&name, def);
        if total + cost <= max_bytes {
            total += cost;
            if let Value::Object(def) = def {
                queue.extend(def_refs(def));
            }
            kept.insert(name);
        } else {
            out.insert(name);
        }
    }
    out
}

/// Replaces, where it may loosen, each reference to a definition in
/// `left_out` by the definition's type and name.
fn unexpand(schema: &mut JsonObject, left_out: &HashSet<String>, types: &DefTypes) {
    if ref_loosenable(schema)
        && let Some(Target::Def(name)) = target(schema)
        && left_out.contains(&name)
    {
        unexpand_ref(schema, &name, types);
    }
    loosenable_subschemas_mut(schema, |sub| unexpand(sub, left_out, types));
}

/// Replaces the loosenable subschemas `depth` levels below `schema` by
/// their [`stub`]s.
fn cut_below(schema: &mut JsonObject, depth: usize) {
    loosenable_subschemas_mut(schema, |sub| {
        if depth == 0 {
            *sub = stub(sub);
        } else {
            cut_below(sub, depth - 1);
        }
    });
}
