//! The signals the ranking combines, each of which can be switched off to
//! measure what it contributes (the ablation test does); searches always
//! use them all.

/// The numbers the ranking weighs its evidence with. The defaults were
/// chosen on the development halves of the documents developed on (see
/// `quality`'s `tune`), never on a test half.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Weights {
    /// Per field, in `Field::ALL` order: name, title, tags, path, intent,
    /// summary, description, arguments, response, category.
    pub(crate) fields: [f32; 10],
    /// A related word of the lexicon: synonym, verb it is a kind of,
    /// derived noun or verb.
    pub(crate) lexicon: [f32; 3],
    /// A synonym of the hand-written table.
    pub(crate) synonym: f32,
    /// A longer word a request word is a part of.
    pub(crate) part: f32,
    /// The share of a tool's score that depends on how much of its name
    /// the request covers.
    pub(crate) specificity: f32,
    /// The power of the share of request words a tool matches.
    pub(crate) coverage: f32,
    /// The factor of a tool that reads for a request that changes, or the
    /// other way round.
    pub(crate) mood: f32,
    /// How much the words of the best hits found by the request count in a
    /// second round (pseudo-relevance feedback; 0: none).
    pub(crate) feedback: f32,
    /// How much the intent an imperative's verb is a kind of counts
    /// (`kick out` is a way to `remove`: delete), when the verb names none
    /// itself.
    pub(crate) intent_of_verb: f32,
}

impl Default for Weights {
    fn default() -> Self {
        Self {
            fields: [3.0, 2.0, 0.0, 2.0, 5.0, 1.0, 0.3, 0.15, 0.0, 0.0],
            lexicon: [0.0, 0.1, 0.0],
            synonym: 0.6,
            part: 0.6,
            specificity: 0.75,
            coverage: 0.5,
            mood: 0.6,
            feedback: 0.0,
            intent_of_verb: 0.375,
        }
    }
}

/// Which signals the ranking uses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Signals {
    /// The weights of fields and related words.
    pub(crate) weights: Weights,
    /// Fields weigh differently (name above title above path above
    /// description); off, every field counts the same.
    pub(crate) field_weights: bool,
    /// The words of the OpenAPI path are a field.
    pub(crate) path: bool,
    /// The OpenAPI method is a field of intent words (list, get, create...).
    pub(crate) intent: bool,
    /// Tags are a field.
    pub(crate) tags: bool,
    /// The descriptions of a tool's categories are a field.
    pub(crate) categories: bool,
    /// Argument names, descriptions and enum values are a field.
    pub(crate) arguments: bool,
    /// The result's field names are a field.
    pub(crate) response: bool,
    /// Request words also match their synonyms of the hand-written table.
    pub(crate) synonyms: bool,
    /// Request words (and phrases) also match their related words of the
    /// lexicon generated from WordNet.
    pub(crate) lexicon: bool,
    /// Verbs with a particle (`set up`) of the hand-written table read as
    /// one word.
    pub(crate) phrasal: bool,
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
            weights: Weights::default(),
            field_weights: true,
            path: true,
            intent: true,
            tags: true,
            categories: true,
            arguments: true,
            response: true,
            synonyms: true,
            lexicon: true,
            phrasal: true,
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
            ("- categories", off(|s| s.categories = false)),
            ("- arguments", off(|s| s.arguments = false)),
            ("- response", off(|s| s.response = false)),
            ("- synonyms", off(|s| s.synonyms = false)),
            ("- lexicon", off(|s| s.lexicon = false)),
            ("- phrasal", off(|s| s.phrasal = false)),
            (
                "- hand tables",
                off(|s| {
                    s.synonyms = false;
                    s.phrasal = false;
                }),
            ),
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
