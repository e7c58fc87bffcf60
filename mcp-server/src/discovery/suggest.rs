//! The names to suggest for a tool name that is none: the closest
//! spellings, then what a search for its words finds.

use super::finder::Finder;

/// How many names a suggestion gives at most.
const SUGGESTIONS: usize = 3;

/// The known names closest to `name`: those within a few edits (closest
/// first), then the best search hits for its words.
pub(crate) fn closest_names(name: &str, finder: &Finder) -> Vec<String> {
    let lower = name.to_lowercase();
    let allowed = (lower.chars().count() / 3).max(2);
    let mut near: Vec<(usize, &str)> = finder
        .names()
        .map(|known| (levenshtein(&lower, &known.to_lowercase()), known))
        .filter(|(distance, _)| *distance <= allowed)
        .collect();
    near.sort();
    let mut names: Vec<String> = near
        .into_iter()
        .take(SUGGESTIONS)
        .map(|(_, known)| known.to_owned())
        .collect();
    let known: Vec<&str> = finder.names().collect();
    for hit in finder.index().search(name, SUGGESTIONS, |_| true) {
        if names.len() >= SUGGESTIONS {
            break;
        }
        let found = known[hit.tool].to_owned();
        if !names.contains(&found) {
            names.push(found);
        }
    }
    names
}

/// The Levenshtein distance between `a` and `b`, in chars: insertions,
/// deletions and substitutions.
pub(crate) fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current: Vec<usize> = vec![0; b.len() + 1];
    for (i, from) in a.chars().enumerate() {
        current[0] = i + 1;
        for (j, to) in b.iter().enumerate() {
            let substitution = usize::from(from != *to);
            current[j + 1] = (previous[j + 1] + 1)
                .min(current[j] + 1)
                .min(previous[j] + substitution);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::levenshtein;

    #[test]
    fn levenshtein_counts_edits() {
        assert_eq!(levenshtein("", ""), 0);
        assert_eq!(levenshtein("", "abc"), 3);
        assert_eq!(levenshtein("kitten", "sitting"), 3);
        assert_eq!(levenshtein("ab", "ba"), 2);
        assert_eq!(levenshtein("ä", "a"), 1);
    }

    proptest! {
        #[test]
        fn levenshtein_matches_strsim(a in "[abcä]{0,8}", b in "[abcä]{0,8}") {
            prop_assert_eq!(levenshtein(&a, &b), strsim::levenshtein(&a, &b));
        }
    }
}
