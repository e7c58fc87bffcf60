//! A request term widened to the indexed words it may stand for: itself,
//! its synonyms, words derived from the same root (`watch` and `watcher`,
//! `subscribe` and `subscription`), words it abbreviates, and the words it
//! is a part of.

use super::SearchIndex;

/// How much a word derived from the same root as a request term counts
/// (`watch` and `watcher`), and a word a request term unknown to the
/// index abbreviates.
const DERIVED_WEIGHT: f32 = 0.9;
/// The endings that make a noun of those who do (or undergo) what a verb
/// says, in stemmed form: `watch`-`er`, `contribut`-`or`, `assign`-`e`.
const DOER_ENDINGS: &[&str] = &["er", "or", "e", "ee", "r"];
/// Stem endings of a Latin root as verb and as noun: `subscrib`e and
/// `subscript`ion, `receiv`e and `receipt`, `submit` and `submiss`ion.
const ROOT_ALTERNATIONS: &[(&str, &str)] = &[
    ("scrib", "script"),
    ("ceiv", "cept"),
    ("ceiv", "ceipt"),
    ("mit", "miss"),
    ("solv", "solut"),
    ("sum", "sumpt"),
    ("duc", "duct"),
];
/// The least number of letters a request term must add to (or take from) an
/// indexed word to be matched as a part of it, so that inflections the
/// stemmer missed (`star`, `start`) do not count as parts.
const PART_MIN_EXTRA: usize = 3;
impl SearchIndex {
    /// The indexed terms a request term stands for, with their weights: the
    /// term itself, its synonyms, and the words it is a part of.
    pub(super) fn widen(&self, term: &str) -> Vec<(u32, f32)> {
        let mut widened: Vec<(u32, f32)> = Vec::new();
        let mut add = |id: u32, weight: f32| match widened.iter_mut().find(|(seen, _)| *seen == id)
        {
            Some(entry) => entry.1 = entry.1.max(weight),
            None => widened.push((id, weight)),
        };
        if let Some(&id) = self.term_ids.get(term) {
            add(id, 1.0);
        }
        for (synonym, weight) in self.synonyms.of(term) {
            if let Some(&id) = self.term_ids.get(synonym) {
                add(id, weight);
            }
        }
        if term.len() < 3 || !(self.signals.derivations || self.signals.subwords) {
            return widened;
        }
        let known = self.term_ids.contains_key(term);
        // Derived words and abbreviations share at least the first three letters.
        let head = &term.as_bytes()[..3];
        for (id, indexed) in self.terms.iter().enumerate() {
            let id = id as u32;
            if self.signals.derivations && indexed.as_bytes().get(..3) == Some(head) {
                let abbreviates = !known && indexed.len() > term.len() && indexed.starts_with(term);
                if abbreviates || derived(term, indexed) {
                    add(id, DERIVED_WEIGHT);
                }
            }
            if self.signals.subwords {
                let part = (indexed.len() >= term.len() + PART_MIN_EXTRA
                    && indexed.starts_with(term))
                    || (indexed.len() >= 4
                        && term.len() >= indexed.len() + PART_MIN_EXTRA
                        && term.starts_with(indexed.as_str()));
                if part {
                    add(id, self.signals.weights.part);
                }
            }
        }
        widened
    }
}

/// Whether `one` and `other` are stems of words derived from one root: a
/// doer noun of a verb, or a Latin root's verb and noun.
fn derived(one: &str, other: &str) -> bool {
    let doer = |verb: &str, noun: &str| {
        verb.len() >= 4
            && noun
                .strip_prefix(verb)
                .is_some_and(|end| DOER_ENDINGS.contains(&end))
    };
    let alternation = |verb: &str, noun: &str| {
        ROOT_ALTERNATIONS.iter().any(|(from, to)| {
            match (verb.strip_suffix(from), noun.strip_suffix(to)) {
                (Some(root), Some(other_root)) => root.len() >= 3 && root == other_root,
                _ => false,
            }
        })
    };
    doer(one, other) || doer(other, one) || alternation(one, other) || alternation(other, one)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discovery::words::Words;

    #[test]
    fn derived_words_share_a_root() {
        let words = Words::new();
        let stem = |word: &str| words.term(word).unwrap_or_default();
        assert!(derived(&stem("watch"), &stem("watchers")));
        assert!(derived(&stem("assign"), &stem("assignees")));
        assert!(derived(&stem("contributors"), &stem("contribute")));
        assert!(derived(&stem("subscribe"), &stem("subscriptions")));
        assert!(derived(&stem("submit"), &stem("submission")));
        assert!(!derived(&stem("star"), &stem("start")));
        assert!(!derived(&stem("order"), &stem("ordinal")));
    }
}
