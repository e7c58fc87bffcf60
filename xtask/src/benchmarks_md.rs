//! Sections of `BENCHMARKS.md` that commands other than `cargo xtask bench`
//! write (build cost, load), found by their `## ` heading so that `bench`
//! keeps them when it rewrites the file.

/// The section of `benchmarks` (the text of `BENCHMARKS.md`) headed
/// `heading`, up to the next `## ` heading, if it has one.
pub(crate) fn section<'a>(benchmarks: &'a str, heading: &str) -> Option<&'a str> {
    let start = benchmarks.find(&format!("\n{heading}\n"))? + 1;
    let rest = &benchmarks[start..];
    let end = rest[heading.len()..]
        .find("\n## ")
        .map_or(rest.len(), |at| heading.len() + at + 1);
    Some(&rest[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_section_runs_to_the_next_heading() {
        let text = "# B\n\n## A\n\na\n\n## Build cost\n\nx\n### y\n\n## Reproduce\n\nr\n";
        assert_eq!(
            section(text, "## Build cost"),
            Some("## Build cost\n\nx\n### y\n\n")
        );
        assert_eq!(
            section("# B\n\n## Build cost\n\nx\n", "## Build cost"),
            Some("## Build cost\n\nx\n")
        );
        assert_eq!(section("# B\n", "## Build cost"), None);
    }
}
