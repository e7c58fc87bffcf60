//! The signals the ranking combines, each of which can be switched off to
//! measure what it contributes (the ablation test does); searches always
//! use them all.

/// Which signals the ranking uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Signals {
    /// Fields weigh differently (name above title above path above
    /// description); off, every field counts the same.
    pub(crate) field_weights: bool,
    /// The words of the OpenAPI path are a field.
    pub(crate) path: bool,
    /// The OpenAPI method is a field of intent words (list, get, create...).
    pub(crate) intent: bool,
    /// Tags are a field.
    pub(crate) tags: bool,
    /// Argument names, descriptions and enum values are a field.
    pub(crate) arguments: bool,
    /// Request words also match their synonyms.
    pub(crate) synonyms: bool,
    /// Request words also match the words they are a part of.
    pub(crate) subwords: bool,
    /// Request words also match words derived from the same root
    /// (`watch` finds `watchers`, `subscribe` finds `subscriptions`), and
    /// a word the index lacks matches the words it abbreviates (`promo`).
    pub(crate) derivations: bool,
    /// The verb an imperative opens with counts more than its objects.
    pub(crate) verb: bool,
    /// An imperative whose object is new (`save a card`) favours creating
    /// over updating one item.
    pub(crate) new_object: bool,
    /// A question asking who favours tools whose resource is people.
    pub(crate) people: bool,
    /// A plural in a question asks for a list.
    pub(crate) plural_list: bool,
    /// Tools matching more of the request's words come first.
    pub(crate) coverage: bool,
    /// Tools whose name the request covers more of come first: the tool
    /// that does what was asked and no more.
    pub(crate) specificity: bool,
    /// A question favours tools that read, an imperative tools that change.
    pub(crate) mood: bool,
    /// Words naming a value (`called Pro plan`, `about machine learning`)
    /// count less.
    pub(crate) values: bool,
}

impl Default for Signals {
    fn default() -> Self {
        Self {
            field_weights: true,
            path: true,
            intent: true,
            tags: true,
            arguments: true,
            synonyms: true,
            subwords: true,
            derivations: true,
            people: true,
            verb: true,
            new_object: true,
            plural_list: true,
            coverage: true,
            specificity: true,
            mood: true,
            values: true,
        }
    }
}

impl Signals {
    /// Every signal on, and each of them off alone, with its name.
    #[cfg(all(test, feature = "openapi"))]
    pub(crate) fn ablations() -> Vec<(&'static str, Self)> {
        let all = Self::default();
        let off = |change: fn(&mut Self)| {
            let mut signals = all;
            change(&mut signals);
            signals
        };
        vec![
            ("all signals", all),
            ("- field weights", off(|s| s.field_weights = false)),
            ("- path", off(|s| s.path = false)),
            ("- intent", off(|s| s.intent = false)),
            ("- tags", off(|s| s.tags = false)),
            ("- arguments", off(|s| s.arguments = false)),
            ("- synonyms", off(|s| s.synonyms = false)),
            ("- subwords", off(|s| s.subwords = false)),
            ("- derivations", off(|s| s.derivations = false)),
            ("- people", off(|s| s.people = false)),
            ("- verb", off(|s| s.verb = false)),
            ("- new object", off(|s| s.new_object = false)),
            ("- plural list", off(|s| s.plural_list = false)),
            ("- coverage", off(|s| s.coverage = false)),
            ("- specificity", off(|s| s.specificity = false)),
            ("- mood", off(|s| s.mood = false)),
            ("- values", off(|s| s.values = false)),
        ]
    }
}
