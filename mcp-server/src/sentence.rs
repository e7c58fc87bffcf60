//! Where a description's sentences end: what code mode's declarations and
//! discovery's compact schemas keep of a description is its first sentence.
//!
//! A sentence ends at a `.` followed by a space (or the end of the text),
//! except after an abbreviation that never ends one ("e.g.", "i.e.",
//! "vs.", "cf.", ...), and after "etc." or a version ("v1.", "v2.1.")
//! unless the next word starts with a capital letter.

/// Abbreviations after which a sentence goes on, whatever follows.
const WITHIN_A_SENTENCE: &[&str] = &["e.g", "i.e", "vs", "cf", "viz", "approx", "incl", "esp"];

/// The first sentence of `text`: up to its first sentence end, or its first
/// line break, whichever comes first (the text trimmed).
pub(crate) fn first_sentence(text: &str) -> &str {
    let text = text.trim();
    let line = &text[..text.find('\n').unwrap_or(text.len())];
    match sentence_ends(line).next() {
        Some(end) => &line[..end],
        None => line.trim_end(),
    }
}

/// The byte offsets just after each sentence-ending `.` of `text`, in
/// order (a period at the very end counts).
pub(crate) fn sentence_ends(text: &str) -> impl Iterator<Item = usize> + '_ {
    text.match_indices('.').filter_map(move |(at, _)| {
        let after = &text[at + 1..];
        let ends = match after.chars().next() {
            None => true,
            Some(next) if next.is_whitespace() => {
                let next_word = after.trim_start().chars().next();
                ends_before(word_before(&text[..at]), next_word)
            }
            Some(_) => false,
        };
        ends.then_some(at + 1)
    })
}

/// The word a period follows, without opening punctuation.
fn word_before(head: &str) -> &str {
    let start = head
        .char_indices()
        .rev()
        .find(|(_, c)| c.is_whitespace())
        .map_or(0, |(at, space)| at + space.len_utf8());
    head[start..].trim_start_matches(['(', '[', '"', '\'', '“'])
}

/// Whether a period after `word`, followed by a space and `next` (the first
/// character of the next word), ends a sentence.
fn ends_before(word: &str, next: Option<char>) -> bool {
    let lower = word.to_lowercase();
    if WITHIN_A_SENTENCE.contains(&lower.as_str()) {
        return false;
    }
    if lower == "etc" || is_version(&lower) {
        return next.is_some_and(char::is_uppercase);
    }
    true
}

/// `v1`, `v2.1`, ...: a version, whose period may be part of it.
fn is_version(word: &str) -> bool {
    word.strip_prefix('v').is_some_and(|number| {
        !number.is_empty()
            && number
                .split('.')
                .all(|part| !part.is_empty() && part.bytes().all(|byte| byte.is_ascii_digit()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sentence_ends_at_a_period_and_a_space() {
        assert_eq!(
            first_sentence("The owner. Not case sensitive."),
            "The owner."
        );
        assert_eq!(first_sentence("  The owner.  "), "The owner.");
        assert_eq!(first_sentence("No period"), "No period");
        assert_eq!(
            first_sentence("Pagination\u{a0}control. Optional."),
            "Pagination\u{a0}control."
        );
        assert_eq!(first_sentence("One line\nand the next. More."), "One line");
        assert_eq!(
            first_sentence("Version 1.2 is out. Later."),
            "Version 1.2 is out."
        );
    }

    #[test]
    fn abbreviations_do_not_end_a_sentence() {
        assert_eq!(
            first_sentence("The city to forecast, e.g. Paris or Lyon. Case matters."),
            "The city to forecast, e.g. Paris or Lyon."
        );
        assert_eq!(
            first_sentence("A unit (i.e. celsius) or none. More."),
            "A unit (i.e. celsius) or none."
        );
        assert_eq!(
            first_sentence("Tabs vs. spaces, cf. the guide. More."),
            "Tabs vs. spaces, cf. the guide."
        );
        assert_eq!(
            first_sentence("Files, folders, etc. are listed. More."),
            "Files, folders, etc. are listed."
        );
        assert_eq!(
            first_sentence("Files, folders, etc. More."),
            "Files, folders, etc."
        );
        assert_eq!(
            first_sentence("Calls the v1. endpoint, or v2.1. otherwise. More."),
            "Calls the v1. endpoint, or v2.1. otherwise."
        );
        assert_eq!(
            first_sentence("Deprecated since v1. Use v2."),
            "Deprecated since v1."
        );
    }

    #[test]
    fn every_sentence_end_is_found() {
        let text = "One, e.g. this. Two. Three";
        let ends: Vec<&str> = sentence_ends(text).map(|end| &text[..end]).collect();
        assert_eq!(ends, ["One, e.g. this.", "One, e.g. this. Two."]);
    }
}
