//! The names to suggest for a tool name that is none: the closest
//! spellings, then what a search for its words finds.

use super::finder::Finder;

/// How many names a suggestion gives at most.
const SUGGESTIONS: usize = 3;

/// The known names closest to `name`: those within a few edits (closest
/// first), then the best search hits for its words.
pub(crate) fn closest_names(name: &str, finder: &Finder) -> Vec<String> {
    let mut names = closest_spellings(name, finder.names());
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

/// How many tools a server may have for an unknown tool's message to list
/// them all when none is spelled close to it.
const LISTED_TOOLS: usize = 10;

/// The message of a call of `name`, which is no tool of `known`: the
/// closest spellings, else every tool when there are few.
pub(crate) fn unknown_tool<'a>(name: &str, known: impl Iterator<Item = &'a str> + Clone) -> String {
    let quoted = |names: Vec<String>| -> String {
        let names: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
        names.join(", ")
    };
    let closest = closest_spellings(name, known.clone());
    if !closest.is_empty() {
        return format!("unknown tool `{name}`; did you mean {}?", quoted(closest));
    }
    let all: Vec<String> = known.map(str::to_owned).collect();
    match all.len() {
        0 => format!("unknown tool `{name}`; the server has no tools"),
        1..=LISTED_TOOLS => format!("unknown tool `{name}`; the tools are {}", quoted(all)),
        _ => format!("unknown tool `{name}` (`tools/list` lists the tools)"),
    }
}

/// The names of `known` within a few edits of `name` (a third of its
/// length, at least 2; case aside), closest first, at most
/// [`SUGGESTIONS`] of them.
pub(crate) fn closest_spellings<'a>(
    name: &str,
    known: impl Iterator<Item = &'a str>,
) -> Vec<String> {
    let lower = name.to_lowercase();
    let allowed = (lower.chars().count() / 3).max(2);
    let mut near: Vec<(usize, &str)> = known
        .map(|known| (levenshtein(&lower, &known.to_lowercase()), known))
        .filter(|(distance, _)| *distance <= allowed)
        .collect();
    near.sort();
    near.into_iter()
        .take(SUGGESTIONS)
        .map(|(_, known)| known.to_owned())
        .collect()
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
    fn an_unknown_tool_is_told_the_closest_or_every_tool() {
        let known = ["forecast", "weather"];
        assert_eq!(
            super::unknown_tool("forcast", known.into_iter()),
            "unknown tool `forcast`; did you mean `forecast`?"
        );
        assert_eq!(
            super::unknown_tool("zzz", known.into_iter()),
            "unknown tool `zzz`; the tools are `forecast`, `weather`"
        );
        assert_eq!(
            super::unknown_tool("zzz", [].into_iter()),
            "unknown tool `zzz`; the server has no tools"
        );
        let many: Vec<String> = (0..20).map(|n| format!("tool{n:02}")).collect();
        assert_eq!(
            super::unknown_tool("zzz", many.iter().map(String::as_str)),
            "unknown tool `zzz` (`tools/list` lists the tools)"
        );
    }

    #[test]
    fn close_spellings_come_closest_first() {
        let known = ["forecast", "forecasts", "weather", "fork"];
        assert_eq!(
            super::closest_spellings("forcast", known.into_iter()),
            ["forecast", "forecasts"]
        );
        assert!(super::closest_spellings("zzz", known.into_iter()).is_empty());
    }

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
