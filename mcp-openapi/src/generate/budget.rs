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
mod shared;
mod walk;

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

use serde_json::{Map, Value};

use mcp_core::schema::{json_len, portable};

use crate::ir::JsonObject;
use form::Form;
use loosen::{DefTypes, def_types, relax, stub, unexpand_ref};
pub(crate) use shared::OutputBudget;
use walk::{Target, loosenable_subschemas_mut, ref_loosenable, refs, subschemas, target};

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

/// The definitions a root reaches, in the order first reached, each in the
/// form step 1 leaves it.
struct Reached {
    forms: Vec<(Name, Rc<Form>)>,
    index: HashMap<Name, usize>,
}

impl Reached {
    /// The definitions `root` reaches, breadth first, as `form` gives them
    /// (those it has none for are skipped).
    fn new(root: &JsonObject, form: impl FnMut(&str) -> Option<Rc<Form>>) -> Self {
        let forms = breadth_first(root, form, |form| &form.refs);
        let index = forms
            .iter()
            .enumerate()
            .map(|(at, (name, _))| (name.clone(), at))
            .collect();
        Self { forms, index }
    }

    fn get(&self, name: &str) -> Option<&Form> {
        self.index.get(name).map(|&at| &*self.forms[at].1)
    }

    /// Each definition's name and `len` of its form.
    fn lens(&self, len: impl Fn(&Form) -> usize) -> impl Iterator<Item = (&str, usize)> {
        self.forms
            .iter()
            .map(move |(name, form)| (&**name, len(form)))
    }

    /// The definitions as `$defs`, each as `value` makes it.
    fn values(&self, value: impl Fn(&Form) -> Arc<Value>) -> Vec<(String, Arc<Value>)> {
        self.forms
            .iter()
            .map(|(name, form)| (name.to_string(), value(form)))
            .collect()
    }

    /// The definitions that may not be loosened: those referenced from a
    /// fixed subschema of `root` or of a definition, and every definition
    /// they reach (none when a reference points anywhere but at a whole
    /// definition).
    fn fixed(&self, root: &JsonObject) -> HashSet<Name> {
        let mut seeds: Vec<Name> = Vec::new();
        let mut followable = true;
        refs(root, true, &mut |target, loosenable| match target {
            Target::Def(name) if !loosenable => seeds.push(Name::from(name)),
            Target::Def(_) => {}
            Target::Other(_) => followable = false,
        });
        for (_, form) in &self.forms {
            match &form.fixing {
                Some(fixing) => seeds.extend(fixing.iter().cloned()),
                None => followable = false,
            }
        }
        let mut fixed = HashSet::new();
        if !followable {
            return fixed;
        }
        while let Some(name) = seeds.pop() {
            if let Some(form) = self.get(&name)
                && form.value.is_object()
                && fixed.insert(name)
            {
                seeds.extend(form.refs.iter().cloned());
            }
        }
        fixed
    }

    /// The definitions to leave out so that the rest (with shorter
    /// descriptions) fits in `max_bytes`: breadth first from the root,
    /// each kept if it still fits (the fixed ones always are).
    fn left_out(
        &self,
        root: &JsonObject,
        root_len: usize,
        fixed: &HashSet<Name>,
        max_bytes: usize,
    ) -> HashSet<Name> {
        let entry = |name: &str, form: &Form| form.short_len() + name.len() + 4;
        let mut total = root_len + "\"$defs\":{},".len();
        for (name, form) in self.forms.iter().filter(|(name, _)| fixed.contains(name)) {
            total += entry(name, form);
        }
        let mut kept: HashSet<Name> = fixed.clone();
        let mut out = HashSet::new();
        let mut queue: VecDeque<Name> = def_refs(root).into();
        while let Some(name) = queue.pop_front() {
            if kept.contains(&name) || out.contains(&name) {
                continue;
            }
            let Some(form) = self.get(&name) else {
                continue;
            };
            let cost = entry(&name, form);
            if total + cost <= max_bytes {
                total += cost;
                queue.extend(form.refs.iter().cloned());
                kept.insert(name);
            } else {
                out.insert(name);
            }
        }
        out
    }
}

impl DefTypes for Reached {
    fn def_type(&self, name: &str) -> Option<Option<&Value>> {
        self.get(name).map(|form| form.kind.as_ref())
    }
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

/// The length of `text` as a JSON string, quoted and escaped as
/// [`json_len`] counts it (without going through a serializer).
fn str_len(text: &str) -> usize {
    let escaped: usize = text
        .bytes()
        .map(|byte| match byte {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 2,
            0..=0x1f => 6,
            _ => 1,
        })
        .sum();
    escaped + 2
}

/// The longest description kept below the root, in characters.
const SHORT_DESCRIPTION: usize = 120;

/// Cuts every description under `schema` (and its own unless `is_root`) to
/// its first sentence, at most [`SHORT_DESCRIPTION`] characters.
fn shorten_descriptions(schema: &mut JsonObject, is_root: bool) {
    if !is_root
        && let Some(Value::String(text)) = schema.get_mut("description")
        && let Some(short) = short_description(text)
    {
        *text = short;
    }
    loosenable_subschemas_mut(schema, |sub| shorten_descriptions(sub, false));
}

/// How many bytes of compact JSON [`shorten_descriptions`] takes off
/// `schema`, without changing it.
fn shortened_by(schema: &JsonObject, is_root: bool) -> usize {
    let mut saved = 0;
    if !is_root
        && let Some(Value::String(text)) = schema.get("description")
        && let Some((kept, cut)) = short_parts(text)
    {
        let short_len = str_len(kept) + if cut { '…'.len_utf8() } else { 0 } + 1;
        saved += str_len(text) - short_len;
    }
    subschemas(schema, |sub, loosenable| {
        if loosenable {
            saved += shortened_by(sub, false);
        }
    });
    saved
}

/// The first sentence of `text`, at most [`SHORT_DESCRIPTION`] characters,
/// when that is shorter than `text`.
fn short_description(text: &str) -> Option<String> {
    let (kept, cut) = short_parts(text)?;
    let mut short = String::with_capacity(kept.len() + 4);
    short.push_str(kept);
    if cut {
        short.push('…');
    }
    short.push('.');
    Some(short)
}

/// [`short_description`] as the text it keeps of `text` and whether it
/// cut that text short (then an ellipsis follows, before the period).
fn short_parts(text: &str) -> Option<(&str, bool)> {
    let first = text
        .split(". ")
        .next()
        .unwrap_or_default()
        .trim_end_matches('.');
    let kept = first
        .char_indices()
        .nth(SHORT_DESCRIPTION)
        .map_or(first, |(at, _)| &first[..at]);
    let cut = kept.len() < first.len();
    let len = kept.len() + if cut { '…'.len_utf8() } else { 0 } + 1;
    (len < text.len()).then_some((kept, cut))
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

/// The definitions `root` reaches, breadth first in the order first
/// reached, each with what `def` gives for it (definitions it gives nothing
/// for are skipped); `refs` names the definitions each one references.
fn breadth_first<T>(
    root: &JsonObject,
    mut def: impl FnMut(&str) -> Option<T>,
    refs: impl Fn(&T) -> &[Name],
) -> Vec<(Name, T)> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut queue: VecDeque<Name> = def_refs(root).into();
    while let Some(name) = queue.pop_front() {
        if seen.contains(&name) {
            continue;
        }
        if let Some(value) = def(&name) {
            queue.extend(refs(&value).iter().cloned());
            seen.insert(name.clone());
            out.push((name, value));
        }
    }
    out
}

/// The definitions `schema` references, in order.
fn def_refs(schema: &JsonObject) -> Vec<Name> {
    let mut names = Vec::new();
    refs(schema, true, &mut |target, _| {
        if let Target::Def(name) = target {
            names.push(Name::from(name));
        }
    });
    names
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
