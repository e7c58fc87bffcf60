//! The identifier of each tool in the sandbox: `tools.<identifier>`.

use std::collections::HashMap;

/// The identifier of each name, in order: the name with every character
/// outside `[A-Za-z0-9_$]` replaced by `_`, a leading digit prefixed with
/// `_`, and a later duplicate suffixed `_2`, `_3`, ...
///
/// `issues/list-for-repo` becomes `issues_list_for_repo`.
pub(crate) fn identifiers<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut taken: HashMap<String, usize> = HashMap::new();
    let mut identifiers = Vec::new();
    for name in names {
        let mut base: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' || c == '$' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        if base.is_empty() || base.starts_with(|c: char| c.is_ascii_digit()) {
            base.insert(0, '_');
        }
        let mut identifier = base.clone();
        let mut count = 1;
        while taken.contains_key(&identifier) {
            count += 1;
            identifier = format!("{base}_{count}");
        }
        taken.insert(identifier.clone(), identifiers.len());
        identifiers.push(identifier);
    }
    identifiers
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_identifiers_and_duplicates_are_numbered() {
        assert_eq!(
            identifiers([
                "issues/list-for-repo",
                "issues_list.for_repo",
                "a.b",
                "a-b",
                "a_b_2",
                "9lives",
                "$ok"
            ]),
            [
                "issues_list_for_repo",
                "issues_list_for_repo_2",
                "a_b",
                "a_b_2",
                "a_b_2_2",
                "_9lives",
                "$ok"
            ]
        );
    }
}
