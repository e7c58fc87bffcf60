//! "Did you mean" suggestions for misspelled names.

/// The candidate closest to `word`, when it is close enough to be a likely
/// typo (edit distance at most a third of the word, and at least 1).
pub(crate) fn closest<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).max(1);
    candidates
        .iter()
        .map(|candidate| (distance(word, candidate), *candidate))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, candidate)| candidate)
}

/// `message`, followed by "; did you mean `x`?" when a candidate is close.
pub(crate) fn with_suggestion(message: String, word: &str, candidates: &[&str]) -> String {
    match closest(word, candidates) {
        Some(candidate) => format!("{message}; did you mean `{candidate}`?"),
        None => message,
    }
}

/// Levenshtein distance over characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current.push(substitution.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names_only() {
        let hints = ["read", "write", "destroy", "closed_world", "open_world"];
        assert_eq!(closest("raed", &hints), Some("read"));
        assert_eq!(closest("destory", &hints), Some("destroy"));
        assert_eq!(closest("close_world", &hints), Some("closed_world"));
        assert_eq!(closest("banana", &hints), None);
        assert_eq!(distance("kitten", "sitting"), 3);
    }
}
