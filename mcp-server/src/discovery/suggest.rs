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
        .map(|known| (strsim::levenshtein(&lower, &known.to_lowercase()), known))
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
