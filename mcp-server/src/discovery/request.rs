//! What a request says besides its words: which words name the operation
//! and which only name values (`a product called Pro plan`), whether it
//! names things in the plural (a hint that it wants a list), and whether it
//! asks a question (a hint that it wants to read, not change, something).

use super::words::{Words, for_each_word, strip_markup};

/// Words after which the rest of a clause names a value (a title, a topic,
/// a name), not what the tool does.
const VALUE_MARKERS: &[&str] = &["called", "named", "titled", "about", "saying"];
/// First words of a request that ask to read: question words and verbs of
/// looking.
const READ_OPENERS: &[&str] = &[
    "who", "what", "which", "how", "where", "when", "whose", "is", "are", "do", "does", "did",
    "show", "list", "get", "find", "see", "view", "fetch", "display", "search", "browse", "tell",
    "read", "check", "count", "download", "compare",
];

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
}

impl Request {
    /// The request `text`, in the terms of `words`.
    pub(crate) fn read(words: &Words, text: &str) -> Self {
        let text = strip_markup(text);
        let mut terms = Vec::new();
        let mut plural = false;
        let mut first: Option<String> = None;
        let mut in_value = false;
        for clause in text.split([',', ';', '.', '(', ')']) {
            in_value = in_value && clause.trim().is_empty();
            for_each_word(clause, |word| {
                if first.is_none() {
                    first = Some(word.to_owned());
                }
                if VALUE_MARKERS.contains(&word) {
                    in_value = true;
                    return;
                }
                let Some(term) = words.term(word) else {
                    return;
                };
                if in_value {
                    terms.push((term, VALUE_WEIGHT));
                    return;
                }
                plural |= word.len() > 3
                    && word.ends_with('s')
                    && !["ss", "us", "is"].iter().any(|end| word.ends_with(end))
                    && term.len() < word.len();
                terms.push((term, 1.0));
            });
        }
        let question = text.trim_end().ends_with('?');
        let opener = first.as_deref().is_some_and(|w| READ_OPENERS.contains(&w));
        let mood = if question || opener {
            Mood::Read
        } else {
            Mood::Change
        };
        Self {
            terms,
            plural,
            mood,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_plurals_and_moods() {
        let words = Words::new();
        let request = Request::read(&words, "create a product called Pro plan");
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
        let request = Request::read(&words, "which cards has this customer saved?");
        assert!(request.plural);
        assert_eq!(request.mood, Mood::Read);
        assert_eq!(Request::read(&words, "show the tags").mood, Mood::Read);
    }
}
