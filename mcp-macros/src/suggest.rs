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

/// Edit distance over characters, counting a swap of neighbours as one
/// edit (optimal string alignment), so `raed` is one edit from `read`.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
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
        assert_eq!(distance("raed", "read"), 1);
    }
}
