//! No file of the repository names a path outside it: a test, bench or
//! document that reads `../<sibling>` works only on one machine.

use std::path::Path;

/// Every relative path in `text` (a file at `relative`, whose relative paths
/// are read from `base`, both relative to the repository root) that climbs
/// out of the repository.
pub(crate) fn escaping_paths(text: &str, base: &Path) -> Vec<String> {
    let depth = base.components().count();
    let mut found = Vec::new();
    let is_path_char = |c: char| c.is_ascii_alphanumeric() || "._-/".contains(c);
    let mut rest = text;
    while let Some(start) = rest.find("..") {
        let before = rest[..start].chars().next_back();
        let candidate = &rest[start..];
        let end = candidate
            .find(|c: char| !is_path_char(c))
            .unwrap_or(candidate.len());
        let token = &candidate[..end];
        rest = &candidate[end.max(2)..];
        if !token.starts_with("../") || before.is_some_and(is_path_char) {
            continue;
        }
        let mut level = depth as isize;
        for part in token.split('/') {
            match part {
                ".." => level -= 1,
                "" | "." => {}
                _ => level += 1,
            }
            if level < 0 {
                found.push(token.to_owned());
                break;
            }
        }
    }
    found
}

/// Whether `text` names `path` where Rust reads it from the naming file's
/// own folder: a `#[path = ".."]` attribute or an `include_str!`,
/// `include_bytes!` or `include!` of a literal.
pub(crate) fn is_read_from_its_folder(text: &str, path: &str) -> bool {
    let quoted = format!("\"{path}\"");
    ["#[path = ", "include_str!(", "include_bytes!(", "include!("]
        .iter()
        .any(|head| text.contains(&format!("{head}{quoted}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn climbing_above_the_root_is_found() {
        let up = "..";
        let sibling = format!("{up}/{up}/shared/corpus");
        let text = format!("join(\"{sibling}\") and \"{up}/target/peers\"");
        assert_eq!(
            escaping_paths(&text, Path::new("mcp-openapi")),
            [sibling.as_str()]
        );
        assert!(escaping_paths(&text, Path::new("a/b")).is_empty());
        assert_eq!(
            escaping_paths(&format!("see {up}/x"), Path::new("")),
            [format!("{up}/x")]
        );
    }

    #[test]
    fn module_paths_and_includes_are_read_from_the_files_folder() {
        let up = "..";
        let path = format!("{up}/{up}/src/bin/app.rs");
        let text = format!("#[path = \"{path}\"]\nmod app;");
        assert!(is_read_from_its_folder(&text, &path));
        let text = format!("include_str!(\"{path}\")");
        assert!(is_read_from_its_folder(&text, &path));
        let text = format!("Path::new(\"{path}\")");
        assert!(!is_read_from_its_folder(&text, &path));
    }

    #[test]
    fn ranges_and_dots_inside_words_are_no_paths() {
        assert!(escaping_paths("for i in 0..n { a[..2]; b[1..]; }", Path::new("")).is_empty());
        assert!(escaping_paths("..Default::default()", Path::new("x")).is_empty());
        assert!(escaping_paths("v1.2..v1.3", Path::new("")).is_empty());
    }
}
