//! The definitions a root reaches, breadth first from the root: the order
//! in which trimming keeps them, and which of them may not be loosened.

use std::collections::{HashMap, HashSet, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

use serde_json::Value;

use super::Name;
use super::form::Form;
use super::loosen::DefTypes;
use super::walk::{Target, refs};
use crate::ir::JsonObject;

/// The definitions a root reaches, in the order first reached, each in the
/// form step 1 leaves it.
pub(super) struct Reached {
    forms: Vec<(Name, Rc<Form>)>,
    index: HashMap<Name, usize>,
}

impl Reached {
    /// The definitions `root` reaches, breadth first, as `form` gives them
    /// (those it has none for are skipped).
    pub(super) fn new(root: &JsonObject, form: impl FnMut(&str) -> Option<Rc<Form>>) -> Self {
        let forms = breadth_first(root, form, |form| &form.refs);
        let index = forms
            .iter()
            .enumerate()
            .map(|(at, (name, _))| (name.clone(), at))
            .collect();
        Self { forms, index }
    }

    pub(super) fn get(&self, name: &str) -> Option<&Form> {
        self.index.get(name).map(|&at| &*self.forms[at].1)
    }

    /// Each definition's name and `len` of its form.
    pub(super) fn lens(&self, len: impl Fn(&Form) -> usize) -> impl Iterator<Item = (&str, usize)> {
        self.forms
            .iter()
            .map(move |(name, form)| (&**name, len(form)))
    }

    /// The definitions as `$defs`, each as `value` makes it.
    pub(super) fn values(&self, value: impl Fn(&Form) -> Arc<Value>) -> Vec<(String, Arc<Value>)> {
        self.forms
            .iter()
            .map(|(name, form)| (name.to_string(), value(form)))
            .collect()
    }

    /// The definitions that may not be loosened: those referenced from a
    /// fixed subschema of `root` or of a definition, and every definition
    /// they reach (none when a reference points anywhere but at a whole
    /// definition).
    pub(super) fn fixed(&self, root: &JsonObject) -> HashSet<Name> {
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
    pub(super) fn left_out(
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

/// The definitions `root` reaches, breadth first in the order first
/// reached, each with what `def` gives for it (definitions it gives nothing
/// for are skipped); `refs` names the definitions each one references.
pub(super) fn breadth_first<T>(
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
pub(super) fn def_refs(schema: &JsonObject) -> Vec<Name> {
    let mut names = Vec::new();
    refs(schema, true, &mut |target, _| {
        if let Target::Def(name) = target {
            names.push(Name::from(name));
        }
    });
    names
}
