//! Code and docs speak of the project only: no references to tracker
//! entries by number, and no notes about who added what to a file.

/// The markers of process notes, matched case-insensitively (spelled in
/// two pieces so that this line is not one).
const MARKERS: &[&str] = &[concat!("integrator", ":"), concat!("section", " for ")];

/// The 1-based numbers of the lines of `text` that carry a process note:
/// `issue` followed by a number, or one of [`MARKERS`].
pub(crate) fn lines_with_notes(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| {
            let lower = line.to_lowercase();
            MARKERS.iter().any(|m| lower.contains(m)) || names_an_issue(&lower)
        })
        .map(|(i, _)| i + 1)
        .collect()
}

/// The word for a tracker entry (optionally plural) followed by a number,
/// with or without `#`.
fn names_an_issue(lower: &str) -> bool {
    lower.match_indices("issue").any(|(at, word)| {
        let before = lower[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            return false;
        }
        let rest = lower[at + word.len()..].trim_start_matches('s');
        let rest = rest.strip_prefix(' ').unwrap_or("");
        let rest = rest.strip_prefix('#').unwrap_or(rest);
        rest.starts_with(|c: char| c.is_ascii_digit())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tracker_references_and_helper_sections_are_found() {
        // Assembled here so that this file itself carries no note.
        let (entry, helper) = ("Issue", "integrator");
        let text = format!(
            "fine\n// {entry} 7: prompts\n# {helper}: bench\nsee {entry} #12\n{entry}s 5 and 6\n"
        );
        let text = text.as_str();
        assert_eq!(lines_with_notes(text), [2, 3, 4, 5]);
    }

    #[test]
    fn ordinary_words_are_not() {
        let text = "GitHub issue comments\nlist_issues 5 times\ntissue 3\nthe issue: none\n";
        assert!(lines_with_notes(text).is_empty());
    }
}
