//! A source file a reader can hold: at most [`MAX_LINES`] lines of code,
//! not counting its inline `#[cfg(test)]` module. Test files (a `tests`
//! folder or a `tests.rs`) are not measured.

use std::path::Path;

/// The most lines a source file may have outside its tests.
pub(crate) const MAX_LINES: usize = 500;

/// Whether `file` (a path inside a crate's `src/`) is a test file.
pub(crate) fn is_test_file(file: &Path) -> bool {
    file.components().any(|c| c.as_os_str() == "tests")
        || file.file_name().is_some_and(|name| name == "tests.rs")
}

/// The lines of `text` outside its top-level `#[cfg(test)]` modules (the
/// attribute, the `mod … {` line and everything to the `}` that closes it
/// at the start of a line).
pub(crate) fn lines_outside_tests(text: &str) -> usize {
    let lines: Vec<&str> = text.lines().collect();
    let mut counted = 0;
    let mut i = 0;
    while i < lines.len() {
        let opens_tests = lines[i].trim_end() == "#[cfg(test)]"
            && lines
                .get(i + 1)
                .is_some_and(|next| next.starts_with("mod ") && next.trim_end().ends_with('{'));
        if opens_tests {
            i += 2;
            while i < lines.len() && !lines[i].starts_with('}') {
                i += 1;
            }
            i += 1;
        } else {
            counted += 1;
            i += 1;
        }
    }
    counted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_test_module_is_not_counted() {
        let text =
            "fn a() {}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {}\n}\nfn b() {}\n";
        assert_eq!(lines_outside_tests(text), 3);
    }

    #[test]
    fn a_test_module_in_a_file_of_its_own_is_counted_where_it_is_declared() {
        assert_eq!(
            lines_outside_tests("#[cfg(test)]\nmod tests;\nfn a() {}\n"),
            3
        );
        assert!(is_test_file(Path::new(
            "code_mode/typescript/tests/fixtures.rs"
        )));
        assert!(is_test_file(Path::new("generate/tests.rs")));
        assert!(!is_test_file(Path::new("generate/budget.rs")));
    }
}
