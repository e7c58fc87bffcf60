//! Words people use for what APIs name otherwise, from two sources: the
//! lexicon generated from WordNet (`lexicon.rs`: synonyms, the verbs a verb
//! is a kind of, derived nouns and verbs, and phrasal verbs such as `get
//! rid of`), and a small hand-written table of general API vocabulary
//! (verbs of intent, common abbreviations, everyday words for payment and
//! code-hosting terms). A word of a request also finds its related words,
//! at a lower weight.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use super::lexicon::LEXICON;
use super::words::Words;

/// The most words of a phrase of the lexicon.
pub(crate) const PHRASE_WORDS: usize = 3;

/// Stemmed verbs that name an intent of the intent field, and its word
/// there: what HTTP methods mean (see `document::intent`).
const INTENT_VERBS: [(&[&str], &str); 4] = [
    (&["creat", "make", "add", "produc"], "creat"),
    (&["delet", "remov", "destroy", "elimin"], "delet"),
    (&["updat", "chang", "alter", "modifi"], "updat"),
    (&["get", "obtain", "retriev", "acquir"], "get"),
];
/// How many steps up the lexicon's kinds a verb's intent is looked for.
const INTENT_STEPS: usize = 3;
/// The lexicon, stemmed: each term (or phrase, its words joined by `_`) to
/// the single-word terms related to it, with how (0: synonym, 1: a verb
/// it is a kind of, 2: a derived noun or verb). Each term's text is held
/// once; the relations hold its position in `terms`.
pub(crate) struct Lexicon {
    by_term: HashMap<String, Vec<(u32, u8)>>,
    terms: Vec<String>,
    phrases: HashSet<String>,
}

static PARSED: OnceLock<Lexicon> = OnceLock::new();

impl Lexicon {
    /// The lexicon, parsed once per process.
    pub(crate) fn get() -> &'static Lexicon {
        PARSED.get_or_init(|| Lexicon::parse(&Words::new()))
    }

    /// Parses the lexicon on a thread of its own unless it is parsed
    /// already, so that it is ready by a server's first search without
    /// holding up its start.
    pub(crate) fn prepare() {
        if PARSED.get().is_none() {
            // Without a thread, the first search parses it.
            let _ = std::thread::Builder::new()
                .name("lexicon".into())
                .spawn(Lexicon::get);
        }
    }

    fn parse(words: &Words) -> Self {
        let mut lexicon = Self {
            by_term: HashMap::new(),
            terms: Vec::new(),
            phrases: HashSet::new(),
        };
        // Each distinct word of the table is stemmed once.
        let mut ids: HashMap<String, u32> = HashMap::new();
        let mut stems: foldhash::HashMap<&'static str, Option<u32>> = Default::default();
        let mut id_of = |word: &'static str, terms: &mut Vec<String>| -> Option<u32> {
            *stems.entry(word).or_insert_with(|| {
                let term = words.term(word)?;
                Some(*ids.entry(term).or_insert_with_key(|term| {
                    terms.push(term.clone());
                    (terms.len() - 1) as u32
                }))
            })
        };
        for line in LEXICON.lines() {
            let Some((word, related)) = line.split_once(':') else {
                continue;
            };
            let (key, key_id) = if word.contains('_') {
                lexicon.phrases.insert(word.to_owned());
                (word.to_owned(), None)
            } else {
                match id_of(word, &mut lexicon.terms) {
                    Some(id) => (lexicon.terms[id as usize].clone(), Some(id)),
                    None => continue,
                }
            };
            let entry = lexicon.by_term.entry(key).or_default();
            for (relation, list) in (0_u8..).zip(related.split(';')) {
                for other in list.split(',').filter(|other| !other.contains('_')) {
                    let Some(id) = id_of(other, &mut lexicon.terms) else {
                        continue;
                    };
                    if Some(id) == key_id {
                        continue;
                    }
                    // The closest relation wins: synonym, then kind, then derived.
                    match entry.iter_mut().find(|(seen, _)| *seen == id) {
                        Some(seen) => seen.1 = seen.1.min(relation),
                        None => entry.push((id, relation)),
                    }
                }
            }
        }
        lexicon
    }

    /// The terms related to `term` (a stemmed word or a phrase), with how
    /// (0: synonym, 1: a verb it is a kind of, 2: derived).
    pub(crate) fn related(&self, term: &str) -> impl Iterator<Item = (&str, usize)> {
        self.by_term
            .get(term)
            .into_iter()
            .flatten()
            .map(|&(id, how)| (self.terms[id as usize].as_str(), usize::from(how)))
    }

    /// The intent (as the intent field words it: `creat`, `delet`,
    /// `updat`, `get`) of the verb `term` when it names none itself but is
    /// a kind of a verb of that intent, a few steps up the lexicon's kinds
    /// (`kick out` is a way to `remove`).
    pub(crate) fn intent_of(&self, term: &str) -> Option<&'static str> {
        let intent = |word: &str| {
            INTENT_VERBS
                .iter()
                .find(|(verbs, _)| verbs.contains(&word))
                .map(|(_, intent)| *intent)
        };
        if intent(term).is_some() {
            return None;
        }
        let mut frontier: Vec<&str> = vec![term];
        for _ in 0..INTENT_STEPS {
            let mut next = Vec::new();
            for word in frontier {
                for (kind, how) in self.related(word) {
                    if how != 1 {
                        continue;
                    }
                    if let Some(found) = intent(kind) {
                        return Some(found);
                    }
                    next.push(kind);
                }
            }
            frontier = next;
        }
        None
    }

    /// Whether `phrase` (lowercase words joined by `_`) is a phrase of the
    /// lexicon.
    pub(crate) fn is_phrase(&self, phrase: &str) -> bool {
        self.phrases.contains(phrase)
    }
}

/// Groups of words that may stand for one another in a request. The first
/// word of a row stands for the rest; the rest do not stand for each
/// other (`show` finds `get` and `list`, but `get` does not find `list`).
const GROUPS: &[&[&str]] = &[
    // Intent: the method of an operation names it as list, get, create,
    // update or delete (see `document`).
    &["show", "get", "list", "view"],
    &["view", "get", "show"],
    &["see", "get", "list"],
    &["find", "search", "list", "get"],
    &["fetch", "get", "retrieve"],
    &["read", "get"],
    &["detail", "get"],
    &["browse", "list"],
    &["add", "create", "new"],
    &["new", "create"],
    &["make", "create"],
    &["open", "create"],
    &["start", "create"],
    &["publish", "create", "release"],
    &["register", "create"],
    &["sign", "create"],
    &["onboard", "create"],
    &["upload", "create", "file"],
    &["write", "create", "update"],
    &["change", "update", "set"],
    &["edit", "update"],
    &["modify", "update"],
    &["rename", "update"],
    &["set", "update"],
    &["put", "set", "add"],
    &["store", "create", "set"],
    &["remove", "delete"],
    &["drop", "delete"],
    &["destroy", "delete"],
    &["cancel", "delete", "void"],
    &["stop", "cancel", "delete"],
    &["close", "update", "delete"],
    &["rerun", "run"],
    // Who and what.
    &["who", "user", "member", "people"],
    &["me", "authenticated"],
    &["my", "authenticated"],
    &["i", "authenticated"],
    &["people", "user", "member"],
    &["person", "user"],
    &["login", "authenticated"],
    &["whoami", "authenticated", "user"],
    &["happen", "event"],
    &["recent", "event", "list"],
    &["history", "list", "event", "log"],
    &["share", "create"],
    &["ask", "request"],
    // Abbreviations and everyday words for API terms.
    &["project", "repo"],
    &["branch", "ref"],
    &["tag", "label"],
    &["label", "tag"],
    &["ci", "action", "workflow"],
    &["pipeline", "workflow", "action"],
    &["build", "workflow", "run"],
    &["job", "run", "workflow"],
    &["config", "set"],
    &["key", "secret", "token"],
    &["password", "secret", "credential"],
    &["snippet", "gist"],
    &["money", "balance", "fund", "payout"],
    &["cash", "balance", "fund"],
    &["fund", "balance"],
    &["available", "balance"],
    &["pay", "payment", "charge"],
    &["payment", "charge"],
    &["charge", "payment"],
    &["bill", "invoice"],
    &["email", "send"],
    &["mail", "send"],
    &["send", "transfer"],
    &["fee", "balance", "transaction"],
    &["chargeback", "dispute"],
    &["seller", "account", "connect"],
    &["merchant", "account", "connect"],
    &["card", "payment", "method", "source"],
    &["discount", "coupon", "promotion"],
    &["plan", "price", "product"],
    &["link", "url"],
    &["cart", "checkout", "session"],
    &["webhook", "endpoint"],
    &["approve", "review"],
    &["reject", "review"],
];

/// Spellings of one word (abbreviations and their long forms): each finds
/// the others as if it were the same word.
const EQUIVALENTS: &[&[&str]] = &[
    &["repo", "repository"],
    &["org", "organization"],
    &["promo", "promotion"],
    &["config", "configuration"],
    &["info", "information"],
    &["auth", "authentication"],
    &["app", "application"],
    &["env", "environment"],
    &["sub", "subscription"],
];

/// Abbreviations that find their long form as if they were it, but not
/// the other way round (`pr` is also a part of other names).
const ABBREVIATIONS: &[(&str, &str)] = &[("pr", "pull")];

/// The table, stemmed: each term to the terms it stands for, and the
/// weights of the lexicon's relations (read from the lexicon as asked,
/// not copied).
pub(crate) struct Synonyms {
    lexicon: Option<[f32; 3]>,
    by_term: HashMap<String, Vec<(String, f32)>>,
}

impl Synonyms {
    /// The table above in the stems `words` makes (its synonyms weighed
    /// `hand`), and the lexicon's related words weighed by `lexicon`
    /// (synonyms, kinds, derived words).
    pub(crate) fn new(words: &Words, hand: Option<f32>, lexicon: Option<[f32; 3]>) -> Self {
        let mut by_term: HashMap<String, Vec<(String, f32)>> = HashMap::new();
        let Some(synonym_weight) = hand else {
            return Self { lexicon, by_term };
        };
        let stem = |word: &str| words.term(word).unwrap_or_else(|| word.to_owned());
        let mut add = |from: &str, to: &str, weight: f32| {
            let (from, to) = (stem(from), stem(to));
            if from == to {
                return;
            }
            let entry = by_term.entry(from).or_default();
            match entry.iter_mut().find(|(term, _)| *term == to) {
                Some(seen) => seen.1 = seen.1.max(weight),
                None => entry.push((to, weight)),
            }
        };
        for group in GROUPS {
            let Some((head, rest)) = group.split_first() else {
                continue;
            };
            for word in rest {
                add(head, word, synonym_weight);
            }
        }
        for (short, long) in ABBREVIATIONS {
            add(short, long, 1.0);
        }
        for group in EQUIVALENTS {
            for from in *group {
                for to in *group {
                    add(from, to, 1.0);
                }
            }
        }
        Self { lexicon, by_term }
    }

    /// The terms `term` stands for (not itself), with how much each counts;
    /// a term may come twice (from the lexicon and from the table), and
    /// then its higher weight is the one that counts.
    pub(crate) fn of<'a>(&'a self, term: &'a str) -> impl Iterator<Item = (&'a str, f32)> {
        let related = self.lexicon.into_iter().flat_map(move |weights| {
            Lexicon::get()
                .related(term)
                .map(move |(other, how)| (other, weights[how]))
        });
        let hand = self
            .by_term
            .get(term)
            .into_iter()
            .flatten()
            .map(|(other, weight)| (other.as_str(), *weight));
        related.chain(hand)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verbs_find_the_intent_they_are_a_kind_of() {
        let lexicon = Lexicon::get();
        assert_eq!(lexicon.intent_of("kick_out"), Some("delet"));
        assert_eq!(lexicon.intent_of("delet"), None);
        assert_eq!(lexicon.intent_of("xyzzy"), None);
    }
}
