//! A definition as the trimming steps read it, with what they measure of
//! it (length, references, type), learned once: schemas that reach the same
//! definition ask the same questions of it.

use std::cell::OnceCell;
use std::rc::Rc;
use std::sync::Arc;

use mcp_core::schema::json_len;
use serde_json::Value;

use super::Name;
use super::loosen::{DefTypes, kind_of, relax, relaxes};
use super::shorten::{shorten_descriptions, shortened_by};
use super::walk::{Target, refs};

/// One definition after the first step of trimming (relaxed, or as it is
/// where it may not be loosened).
#[derive(Debug)]
pub(super) struct Form {
    /// The definition.
    pub(super) value: Arc<Value>,
    /// Its length in compact JSON, counted on first need.
    len: OnceCell<usize>,
    /// How much shorter descriptions (see [`Form::short`]) make it,
    /// counted on first need.
    saved: OnceCell<usize>,
    /// The definitions it references, in order.
    pub(super) refs: Vec<Name>,
    /// The definitions it references where a looser schema could reject
    /// more; `None` when one of its references is not to a whole
    /// definition.
    pub(super) fixing: Option<Vec<Name>>,
    /// Its `type` (see [`kind_of`]).
    pub(super) kind: Option<Value>,
    /// The definition with shorter descriptions, made on first need.
    short: OnceCell<Arc<Value>>,
}

impl Form {
    pub(super) fn new(value: Arc<Value>) -> Self {
        let mut names = Vec::new();
        let mut fixing = Some(Vec::new());
        if let Value::Object(object) = &*value {
            refs(object, true, &mut |target, loosenable| match target {
                Target::Def(name) => {
                    let name = Name::from(name);
                    if !loosenable && let Some(fixing) = &mut fixing {
                        fixing.push(name.clone());
                    }
                    names.push(name);
                }
                Target::Other(_) => fixing = None,
            });
        }
        Self {
            len: OnceCell::new(),
            saved: OnceCell::new(),
            kind: value.as_object().and_then(kind_of),
            value,
            refs: names,
            fixing,
            short: OnceCell::new(),
        }
    }

    /// The relaxed form of the definition `whole` is (itself when relaxing
    /// changes nothing).
    pub(super) fn relaxed(whole: &Rc<Self>, types: &dyn DefTypes) -> Rc<Self> {
        match &*whole.value {
            Value::Object(object) if relaxes(object, types) => {
                let mut object = object.clone();
                relax(&mut object, types);
                Rc::new(Self::new(Arc::new(Value::Object(object))))
            }
            _ => whole.clone(),
        }
    }

    /// The length of the definition in compact JSON.
    pub(super) fn len(&self) -> usize {
        *self.len.get_or_init(|| json_len(&*self.value))
    }

    /// How many bytes shorter [`Form::short`] is.
    fn saved(&self) -> usize {
        *self.saved.get_or_init(|| match &*self.value {
            Value::Object(object) => shortened_by(object, false),
            _ => 0,
        })
    }

    /// The length of [`Form::short`].
    pub(super) fn short_len(&self) -> usize {
        self.len() - self.saved()
    }

    /// The definition with every description below it cut to its first
    /// sentence (the references and type are the same).
    pub(super) fn short(&self) -> &Arc<Value> {
        if self.saved() == 0 {
            return &self.value;
        }
        self.short.get_or_init(|| {
            let mut value = Value::clone(&self.value);
            if let Value::Object(object) = &mut value {
                shorten_descriptions(object, false);
            }
            Arc::new(value)
        })
    }
}
