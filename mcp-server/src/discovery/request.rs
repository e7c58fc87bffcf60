//! What a request says besides its words: which words name the operation
//! and which only name values (`a product called Pro plan`), whether it
//! names things in the plural (a hint that it wants a list), and whether it
//! asks a question (a hint that it wants to read, not change, something).

use std::collections::HashSet;

use super::synonyms::{Lexicon, PHRASE_WORDS};
use super::words::{Words, for_each_word, strip_markup};

/// Words after which the rest of a clause names a value (a title, a topic,
/// a name), not what the tool does.
const VALUE_MARKERS: &[&str] = &["called", "named", "titled", "about", "saying"];
/// First words of a request that ask to read: question words and verbs of
/// looking.
const READ_OPENERS: &[&str] = &[
    "who", "what", "which", "how", "where", "when", "whose", "is", "are", "do", "does", "did",
    "show", "list", "get", "find", "see", "view", "fetch", "display", "search", "browse", "tell",
    "read", "check", "count", "download", "compare", "look",
];

/// Verbs with a particle that mean one thing, and the word for it.
const PHRASAL_VERBS: &[(&str, &str, &str)] = &[
    ("set", "up", "create"),
    ("sign", "up", "register"),
    ("signed", "up", "register"),
    ("log", "in", "login"),
    ("logged", "in", "login"),
    ("sign", "in", "login"),
    ("signed", "in", "login"),
    ("look", "up", "find"),
    ("turn", "on", "enable"),
    ("switch", "on", "enable"),
    ("turn", "off", "disable"),
    ("switch", "off", "disable"),
    ("shut", "down", "stop"),
    ("take", "down", "delete"),
    ("tear", "down", "delete"),
    ("clean", "up", "delete"),
    ("pay", "back", "refund"),
    ("pay", "out", "payout"),
    // Compound nouns an API names by one word.
    ("pull", "request", "pull"),
    ("pull", "requests", "pulls"),
    ("merge", "request", "pull"),
    ("merge", "requests", "pulls"),
];
/// Words after which the rest of a clause says whom or what an operation is
/// for (`a webhook for pushes`): context, not the operation.
const CONTEXT_MARKERS: &[&str] = &["for"];
/// Verbs that act on a thing that exists, whatever its article (`close an
/// issue`).
const CHANGING_VERBS: &[&str] = &[
    "update", "change", "edit", "modify", "rename", "set", "respond", "close", "reopen", "cancel",
    "delete", "remove", "archive", "lock", "unlock", "merge", "approve", "reject", "capture",
    "confirm", "finalize", "void", "refund", "pay", "resolve", "assign", "transfer", "move",
    "disable", "enable",
];
/// Words pointing at one thing at hand.
const POINTING_WORDS: &[&str] = &["this", "that", "these", "those"];
/// How much a word of context counts.
pub(crate) const CONTEXT_WEIGHT: f32 = 0.5;
/// Plurals that ask for more about a thing, not for a list of things.
const NOT_RESOURCES: &[&str] = &["details", "specifics", "contents", "settings"];

/// How much a word naming a value counts.
pub(crate) const VALUE_WEIGHT: f32 = 0.3;

/// The mood of a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mood {
    /// A question or a verb of looking: it wants to read.
    Read,
    /// An imperative of another verb (`merge this`, `star the repo`).
    Change,
}

/// A request as the ranking reads it.
#[derive(Debug)]
pub(crate) struct Request {
    /// The stemmed terms with their weights (1, or [`VALUE_WEIGHT`] for
    /// words naming values).
    pub(crate) terms: Vec<(String, f32)>,
    /// Whether the request names something in the plural (`which cards`).
    pub(crate) plural: bool,
    /// Whether it asks to read or to change something.
    pub(crate) mood: Mood,
    /// Whether it asks who (`who follows me?`): the answer is people.
    pub(crate) who: bool,
    /// The position in `terms` of the verb an imperative opens with (`merge`
    /// of `merge this pull request`): the operation asked for.
    pub(crate) verb: Option<usize>,
    /// Whether the imperative's object is a new thing (`save a card`,
    /// `give me a link`): something to create, not one to update.
    pub(crate) new_object: bool,
}

impl Request {
    /// The request `text`, in the terms of `words`; with `lexicon`, its
    /// phrasal verbs (`get rid of`) are read as one term each, and with
    /// `phrasal`, those of the hand-written table.
    pub(crate) fn read(
        words: &Words,
        text: &str,
        lexicon: Option<&Lexicon>,
        phrasal: bool,
    ) -> Self {
        let text = strip_markup(text);
        let mut terms = Vec::new();
        let mut plural = false;
        let mut first: Option<String> = None;
        let mut in_value = false;
        let mut who = false;
        // Whether the first word of the request made a term.
        let mut first_term = false;
        let literal = literal_words(&text);
        for clause in text.split([',', ';', '.', '(', ')']) {
            in_value = in_value && clause.trim().is_empty();
            let mut in_context = false;
            let mut clause_words: Vec<String> = Vec::new();
            for_each_word(clause, |word| clause_words.push(word.to_owned()));
            let mut position = 0;
            while let Some(word) = clause_words.get(position) {
                position += 1;
                let opens = first.is_none();
                if opens {
                    first = Some(word.clone());
                }
                who |= ["who", "whom", "whose"].contains(&word.as_str());
                if VALUE_MARKERS.contains(&word.as_str()) {
                    in_value = true;
                    continue;
                }
                if CONTEXT_MARKERS.contains(&word.as_str()) {
                    // `for this commit` names the thing acted on, not a purpose.
                    in_context = !clause_words
                        .get(position)
                        .is_some_and(|next| POINTING_WORDS.contains(&next.as_str()));
                    continue;
                }
                // A verb and its particle (`set up`) say one thing.
                let next = clause_words.get(position).map(String::as_str);
                let hand = next.filter(|_| phrasal).and_then(|next| {
                    PHRASAL_VERBS
                        .iter()
                        .find(|(verb, particle, _)| *verb == word && *particle == next)
                });
                let phrase = lexicon
                    .filter(|_| hand.is_none())
                    .and_then(|lexicon| phrase_at(lexicon, &clause_words, position - 1));
                let (word, term) = match (hand, phrase) {
                    (Some((_, _, meaning)), _) => {
                        position += 1;
                        (*meaning, words.term(meaning))
                    }
                    (None, Some((phrase, length))) => {
                        position += length - 1;
                        if opens {
                            first = Some(phrase.clone());
                        }
                        ("", Some(phrase))
                    }
                    (None, None) => (word.as_str(), words.term(word)),
                };
                let Some(term) = term else {
                    continue;
                };
                first_term |= opens;
                if in_value || literal.contains(word) {
                    terms.push((term, VALUE_WEIGHT));
                    continue;
                }
                plural |= word.len() > 3
                    && word.ends_with('s')
                    && !["ss", "us", "is"].iter().any(|end| word.ends_with(end))
                    && !NOT_RESOURCES.contains(&word)
                    && term.len() < word.len();
                terms.push((term, if in_context { CONTEXT_WEIGHT } else { 1.0 }));
            }
        }
        let question = text.trim_end().ends_with('?');
        let opener = first.as_deref().is_some_and(|w| READ_OPENERS.contains(&w));
        let mood = if question || opener {
            Mood::Read
        } else {
            Mood::Change
        };
        let verb = (mood == Mood::Change && first_term).then_some(0);
        let new_object = mood == Mood::Change && opens_with_new_object(&text);
        Self {
            terms,
            plural,
            mood,
            who,
            verb,
            new_object,
        }
    }
}

/// The lowercase words of `text` that are part of a literal value, not of
/// what the request asks for: quoted text, and tokens holding a digit or a
/// `.`, `/`, `@`, `_`, `#` or `:` inside (`deploy.yml`, `pi_123`,
/// `jane@example.com`, `#general`, `$10`).
fn literal_words(text: &str) -> HashSet<String> {
    let mut literal = HashSet::new();
    for (index, piece) in text.split(['"', '\u{201c}', '\u{201d}']).enumerate() {
        if index % 2 == 1 {
            for_each_word(piece, |word| {
                literal.insert(word.to_owned());
            });
            continue;
        }
        for token in piece.split_whitespace() {
            let token = token.trim_matches(|c: char| !c.is_alphanumeric() && c != '#' && c != '$');
            let inner = token.trim_start_matches(['#', '$']);
            let marked = token.chars().any(|c| c.is_ascii_digit())
                || token.starts_with(['#', '$'])
                || inner.contains(['.', '/', '@', '_', '#', ':']);
            if marked {
                for_each_word(token, |word| {
                    literal.insert(word.to_owned());
                });
            }
        }
    }
    literal
}

/// The longest phrase of `lexicon` starting at `start` of `words`, joined
/// by `_`, and its number of words (two at least).
fn phrase_at(lexicon: &Lexicon, words: &[String], start: usize) -> Option<(String, usize)> {
    (2..=PHRASE_WORDS).rev().find_map(|length| {
        let slice = words.get(start..start + length)?;
        let phrase = slice.join("_");
        lexicon.is_phrase(&phrase).then_some((phrase, length))
    })
}

/// Whether `text` opens with a verb whose object has an indefinite article
/// (`save a card`, `give me a link`), and the verb is not one of changing.
fn opens_with_new_object(text: &str) -> bool {
    let mut words: Vec<String> = Vec::new();
    for_each_word(text, |word| {
        if words.len() < 4 {
            words.push(word.to_owned());
        }
    });
    let Some((verb, rest)) = words.split_first() else {
        return false;
    };
    let rest = match rest {
        [me, rest @ ..] if ["me", "us"].contains(&me.as_str()) => rest,
        rest => rest,
    };
    !CHANGING_VERBS.contains(&verb.as_str())
        && rest
            .first()
            .is_some_and(|word| ["a", "an", "new", "another"].contains(&word.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Request {
        fn read_plain(words: &Words, text: &str) -> Self {
            Self::read(words, text, None, true)
        }
    }

    #[test]
    fn literals_count_as_values() {
        let words = Words::new();
        let request = Request::read_plain(
            &words,
            "kick off the deploy.yml workflow for pi_123 \"at once\"",
        );
        let weight = |term: &str| {
            request
                .terms
                .iter()
                .find(|(found, _)| found == term)
                .map(|(_, weight)| *weight)
        };
        assert_eq!(weight("deploy"), Some(VALUE_WEIGHT));
        assert_eq!(weight("pi"), Some(VALUE_WEIGHT));
        assert_eq!(weight("onc"), Some(VALUE_WEIGHT));
        assert_eq!(weight("kick"), Some(1.0));
    }

    #[test]
    fn phrasal_verbs_of_the_lexicon_are_one_term() {
        let words = Words::new();
        let request = Request::read(
            &words,
            "get rid of the old branch",
            Some(Lexicon::get()),
            false,
        );
        assert_eq!(request.terms[0].0, "get_rid_of");
        assert_eq!(request.mood, Mood::Change);
    }

    #[test]
    fn values_plurals_and_moods() {
        let words = Words::new();
        let request = Request::read_plain(&words, "create a product called Pro plan");
        assert_eq!(
            request.terms,
            [
                ("creat".to_owned(), 1.0),
                ("product".to_owned(), 1.0),
                ("pro".to_owned(), VALUE_WEIGHT),
                ("plan".to_owned(), VALUE_WEIGHT)
            ]
        );
        assert_eq!(request.mood, Mood::Change);
        assert!(!request.plural);
        let request = Request::read_plain(&words, "which cards has this customer saved?");
        assert!(request.plural);
        assert_eq!(request.mood, Mood::Read);
        assert_eq!(
            Request::read_plain(&words, "show the tags").mood,
            Mood::Read
        );
    }

    #[test]
    fn phrasal_verbs_purposes_and_objects() {
        let words = Words::new();
        let request = Request::read_plain(&words, "set up a webhook for pushes");
        assert_eq!(
            request.terms,
            [
                ("creat".to_owned(), 1.0),
                ("webhook".to_owned(), 1.0),
                ("push".to_owned(), CONTEXT_WEIGHT)
            ]
        );
        assert_eq!(request.verb, Some(0));
        let request = Request::read_plain(&words, "what did the checks say for this commit?");
        assert!(request.terms.contains(&("commit".to_owned(), 1.0)));
        let request = Request::read_plain(&words, "merge this pull request");
        assert_eq!(
            request.terms,
            [("merg".to_owned(), 1.0), ("pull".to_owned(), 1.0)]
        );
        assert_eq!(request.verb, Some(0));
        assert!(!request.new_object);
        assert!(!Request::read_plain(&words, "close an issue").new_object);
        assert!(Request::read_plain(&words, "give me a link to pay").new_object);
    }

    #[test]
    fn possessives_details_and_who() {
        let words = Words::new();
        let request = Request::read_plain(&words, "show me this payment's details");
        assert!(!request.terms.iter().any(|(term, _)| term == "s"));
        assert!(!request.plural);
        assert!(Request::read_plain(&words, "who is watching this repository?").who);
        assert!(!Request::read_plain(&words, "list the watchers").who);
    }
}
