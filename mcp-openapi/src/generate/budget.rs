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

mod form;
mod loosen;
mod reached;
mod shared;
mod shorten;
mod walk;

use std::collections::{BTreeSet, HashMap, HashSet};
use std::rc::Rc;
use std::sync::Arc;

use serde_json::{Map, Value};

use mcp_core::schema::{json_len, portable};

use crate::ir::JsonObject;
use form::Form;
use loosen::{DefTypes, def_types, relax, stub, unexpand_ref};
use reached::{Reached, breadth_first, def_refs};
pub(crate) use shared::OutputBudget;
use shorten::{shorten_descriptions, str_len};
use walk::{Target, loosenable_subschemas_mut, ref_loosenable, refs, target};

/// A definition's name, shared by the lists and sets of one trimming.
type Name = Rc<str>;

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
    // The root without its definitions (removed as `Map::remove` does, so
    // the order of its keys is that of a copy of the whole).
    let mut root: JsonObject = schema
        .iter()
        .map(|(key, value)| {
            let value = if key == "$defs" {
                Value::Null
            } else {
                value.clone()
            };
            (key.clone(), value)
        })
        .collect();
    let empty = Map::new();
    let defs = match root.remove("$defs") {
        None => &empty,
        Some(_) => schema.get("$defs")?.as_object()?,
    };
    let types = def_types(defs);
    // Step 1: relax the root and every definition it still reaches.
    let fixed = fixed_defs(&root, defs)?;
    relax(&mut root, &types);
    let mut forms: HashMap<String, Rc<Form>> = HashMap::new();
    let form = |name: &str| {
        if let Some(form) = forms.get(name) {
            return Some(form.clone());
        }
        let whole = Rc::new(Form::new(Arc::new(defs.get(name)?.clone())));
        let form = if fixed.contains(name) {
            whole
        } else {
            Form::relaxed(&whole, &types)
        };
        forms.insert(name.to_owned(), form.clone());
        Some(form)
    };
    Some(trim_relaxed(root, form, max_bytes))
}

/// A trimmed root and the definitions it keeps, in `$defs` order; a
/// definition trimming leaves as step 1 made it is shared, not copied.
type Trimmed = (JsonObject, Vec<(String, Arc<Value>)>);

/// The rest of trimming once the root is relaxed (`oneOf` and expandable
/// unions loosened), `form` giving each definition as step 1 leaves it:
/// shorter descriptions, definitions kept breadth first, the root's
/// nesting cut, each step only if the one before did not fit `max_bytes`.
fn trim_relaxed(
    root: JsonObject,
    form: impl FnMut(&str) -> Option<Rc<Form>>,
    max_bytes: usize,
) -> JsonObject {
    let (root, defs) = trim_relaxed_steps(root, form, max_bytes);
    let defs = defs
        .into_iter()
        .map(|(name, def)| (name, Arc::unwrap_or_clone(def)))
        .collect();
    let mut trimmed = assembled(root, defs);
    // Every looser form is spelled portably where it is made, so that what
    // is measured is what is written; this only catches a type array the
    // source schema had.
    portable(&mut trimmed);
    trimmed
}

/// A definition kept by step 2: shared as step 1 left it unless one of
/// the references it may loosen is to a definition left out.
struct Kept<'f> {
    value: Arc<Value>,
    len: usize,
    /// Its references when unexpanding changed it, else those of `form`.
    own_refs: Option<Vec<Name>>,
    form: &'f Form,
}

impl Kept<'_> {
    fn refs(&self) -> &[Name] {
        self.own_refs.as_deref().unwrap_or(&self.form.refs)
    }
}

fn trim_relaxed_steps(
    mut root: JsonObject,
    form: impl FnMut(&str) -> Option<Rc<Form>>,
    max_bytes: usize,
) -> Trimmed {
    let defs = Reached::new(&root, form);
    if fits(&root, json_len(&root), defs.lens(Form::len), max_bytes) {
        return (root, defs.values(|form| form.value.clone()));
    }
    // Descriptions below the root are annotations: their first sentence is
    // as true as the whole text.
    shorten_descriptions(&mut root, true);
    let root_len = json_len(&root);
    if fits(&root, root_len, defs.lens(Form::short_len), max_bytes) {
        return (root, defs.values(|form| form.short().clone()));
    }
    // Step 2: keep definitions breadth first while they fit.
    // The definitions were followable before relaxing, and relaxing adds
    // no reference.
    let fixed = defs.fixed(&root);
    let left_out = defs.left_out(&root, root_len, &fixed, max_bytes);
    unexpand(&mut root, &left_out, &defs);
    // Only the definitions still reached are unexpanded: the kept ones.
    let keep = |name: &str| {
        let form = defs.get(name)?;
        let short = form.short();
        if let Value::Object(object) = &**short
            && !fixed.contains(name)
            && form.refs.iter().any(|name| left_out.contains(name))
        {
            let mut object = object.clone();
            unexpand(&mut object, &left_out, &defs);
            let refs = def_refs(&object);
            let value = Value::Object(object);
            return Some(Kept {
                len: json_len(&value),
                value: Arc::new(value),
                own_refs: Some(refs),
                form,
            });
        }
        Some(Kept {
            value: short.clone(),
            len: form.short_len(),
            own_refs: None,
            form,
        })
    };
    let kept = breadth_first(&root, keep, Kept::refs);
    let kept_lens = kept.iter().map(|(name, def)| (&**name, def.len));
    if fits(&root, json_len(&root), kept_lens, max_bytes) {
        return (
            root,
            kept.into_iter()
                .map(|(name, def)| (name.to_string(), def.value))
                .collect(),
        );
    }
    // Step 3: cut the root's nesting, deepest first.
    let facts: HashMap<&str, (usize, &[Name])> = kept
        .iter()
        .map(|(name, def)| (&**name, (def.len, def.refs())))
        .collect();
    // Each depth cuts the one before further: a stub keeps only the type
    // and description of the subschema it replaces, which a deeper cut
    // left as they were, so this is the root cut at that depth.
    let mut cut = root;
    let mut names = Vec::new();
    for depth in (0..MAX_KEPT_DEPTH).rev() {
        cut_below(&mut cut, depth);
        names = breadth_first(
            &cut,
            |name| facts.get(name).map(|(_, refs)| *refs),
            |refs| refs,
        )
        .into_iter()
        .map(|(name, _)| name)
        .collect();
        let lens = names.iter().map(|name| (&**name, facts[&**name].0));
        if fits(&cut, json_len(&cut), lens, max_bytes) {
            break;
        }
    }
    drop(facts);
    let mut kept: HashMap<Name, Arc<Value>> = kept
        .into_iter()
        .map(|(name, def)| (name, def.value))
        .collect();
    let defs = names
        .into_iter()
        .filter_map(|name| kept.remove(&name).map(|def| (name.to_string(), def)))
        .collect();
    (cut, defs)
}

/// Whether `root` (`root_len` long) with `defs` (name and length of each) as its `$defs`
/// (none when empty) fits in `max_bytes` of compact JSON, without
/// assembling it; the lengths are read only until they are over.
fn fits<'a>(
    root: &JsonObject,
    root_len: usize,
    defs: impl Iterator<Item = (&'a str, usize)>,
    max_bytes: usize,
) -> bool {
    let mut total = root_len;
    for (at, (name, len)) in defs.enumerate() {
        total += if at == 0 {
            // `,"$defs":{` and `}`, without the comma after an empty root.
            usize::from(!root.is_empty()) + json_len("$defs") + 1 + 2
        } else {
            1
        };
        total += str_len(name) + 1 + len;
        if total > max_bytes {
            return false;
        }
    }
    total <= max_bytes
}

/// `root` with `defs` as its `$defs` (none when empty).
fn assembled(mut root: JsonObject, defs: Map<String, Value>) -> JsonObject {
    if !defs.is_empty() {
        root.insert("$defs".to_owned(), Value::Object(defs));
    }
    root
}

/// The definitions that may not be loosened: those referenced from a
/// fixed subschema, and every definition they reach. `None` when a
/// reference points anywhere but at a whole definition.
fn fixed_defs(root: &JsonObject, defs: &Map<String, Value>) -> Option<BTreeSet<String>> {
    let mut seeds = Vec::new();
    let mut followable = true;
    let mut visit = |target: Target<'_>, loosenable: bool| match target {
        Target::Def(name) if !loosenable => seeds.push(name.into_owned()),
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
                    seeds.push(name.into_owned());
                }
            });
        }
    }
    Some(fixed)
}

/// Replaces, where it may loosen, each reference to a definition in
/// `left_out` by the definition's type and name.
fn unexpand(schema: &mut JsonObject, left_out: &HashSet<Name>, types: &dyn DefTypes) {
    if ref_loosenable(schema)
        && let Some(Target::Def(name)) = target(schema)
        && let Some(name) = left_out.get(&*name)
    {
        let name = name.clone();
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

#[cfg(test)]
mod tests {
    use super::shorten::shortened_by;
    use super::*;

    #[test]
    fn string_lengths_count_escapes_as_the_serializer_writes_them() {
        for text in [
            "",
            "plain",
            "a \"quote\" and \\",
            "tab\tnew\nline\r",
            "\u{1}\u{1f}\u{7f}",
            "ünï…",
        ] {
            assert_eq!(str_len(text), json_len(text), "{text:?}");
        }
    }

    #[test]
    fn shortened_lengths_match_the_shortened_text() {
        let long = "word ".repeat(40);
        for text in [
            "One. Two.",
            "No period",
            "Quote \"x\". More.",
            long.as_str(),
        ] {
            let mut schema = JsonObject::new();
            schema.insert("description".to_owned(), text.into());
            let before = json_len(&schema);
            let saved = shortened_by(&schema, false);
            shorten_descriptions(&mut schema, false);
            assert_eq!(before - saved, json_len(&schema), "{text:?}");
        }
    }
}
