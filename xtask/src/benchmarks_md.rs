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

/// `benchmarks` with its section headed like `text` replaced by `text`,
/// or `text` added before the closing `## Reproduce` section (at the end
/// when there is none).
pub(crate) fn with_section(benchmarks: &str, heading: &str, text: &str) -> String {
    match section(benchmarks, heading) {
        Some(old) => benchmarks.replacen(old, text, 1),
        None => match benchmarks.find("\n## Reproduce\n") {
            Some(at) => format!("{}\n{text}{}", &benchmarks[..at], &benchmarks[at + 1..]),
            None => format!("{benchmarks}\n{text}"),
        },
    }
}

/// Writes `text` as the section headed `heading` of `root`'s
/// `BENCHMARKS.md` (see [`with_section`]).
pub(crate) fn write_section(
    root: &std::path::Path,
    heading: &str,
    text: &str,
) -> Result<(), String> {
    let path = root.join("BENCHMARKS.md");
    let benchmarks = std::fs::read_to_string(&path).unwrap_or_default();
    std::fs::write(&path, with_section(&benchmarks, heading, text))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
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

    #[test]
    fn a_section_is_replaced_or_added_before_reproduce() {
        let text = "# B\n\n## A\n\na\n\n## Reproduce\n\nr\n";
        let added = with_section(text, "## Soak", "## Soak\n\ns\n\n");
        assert_eq!(
            added,
            "# B\n\n## A\n\na\n\n## Soak\n\ns\n\n## Reproduce\n\nr\n"
        );
        let replaced = with_section(&added, "## Soak", "## Soak\n\nt\n\n");
        assert_eq!(
            replaced,
            "# B\n\n## A\n\na\n\n## Soak\n\nt\n\n## Reproduce\n\nr\n"
        );
    }
}
