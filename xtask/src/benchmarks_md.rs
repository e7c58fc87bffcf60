//! Sections of `BENCHMARKS.md` that commands other than `cargo xtask bench`
//! write (build cost, load, the big documents of `bench big-documents`),
//! found by their `## ` heading so that `bench` keeps them when it rewrites
//! the file, and rows of its tables.

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

/// `benchmarks` with its section headed like `text` replaced by `text`, or
/// `text` added right after the section headed `after` (as [`with_section`]
/// adds it when there is no such section).
pub(crate) fn with_section_after(
    benchmarks: &str,
    heading: &str,
    text: &str,
    after: &str,
) -> String {
    if section(benchmarks, heading).is_none()
        && let Some(before) = section(benchmarks, after)
    {
        return benchmarks.replacen(before, &format!("{before}{text}"), 1);
    }
    with_section(benchmarks, heading, text)
}

/// `benchmarks` with the table row of the section headed `heading` that
/// starts with `key` replaced by `row`, or `row` added after the section's
/// last table row; unchanged when the section has no table.
pub(crate) fn with_table_row(benchmarks: &str, heading: &str, key: &str, row: &str) -> String {
    let Some(old) = section(benchmarks, heading) else {
        return benchmarks.to_owned();
    };
    let mut lines: Vec<String> = old.split_inclusive('\n').map(str::to_owned).collect();
    let row = format!("{row}\n");
    if let Some(at) = lines.iter().position(|line| line.starts_with(key)) {
        lines[at] = row;
    } else if let Some(last) = lines.iter().rposition(|line| line.starts_with('|')) {
        lines.insert(last + 1, row);
    } else {
        return benchmarks.to_owned();
    }
    benchmarks.replacen(old, &lines.concat(), 1)
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
    fn a_new_section_goes_after_the_one_named() {
        let text = "# B\n\n## A\n\na\n\n## C\n\nc\n";
        let added = with_section_after(text, "## N", "## N\n\nn\n\n", "## A");
        assert_eq!(added, "# B\n\n## A\n\na\n\n## N\n\nn\n\n## C\n\nc\n");
        let replaced = with_section_after(&added, "## N", "## N\n\nm\n\n", "## C");
        assert_eq!(replaced, "# B\n\n## A\n\na\n\n## N\n\nm\n\n## C\n\nc\n");
        let missing = with_section_after(text, "## N", "## N\n\nn\n", "## Z");
        assert_eq!(missing, "# B\n\n## A\n\na\n\n## C\n\nc\n\n## N\n\nn\n");
    }

    #[test]
    fn a_table_row_is_replaced_or_added_after_the_last() {
        let text = "# B\n\n## T\n\n| m | t |\n|---|---|\n| a | 1 |\n\nnote\n\n## U\n\n| a | 9 |\n";
        let added = with_table_row(text, "## T", "| b |", "| b | 2 |");
        assert_eq!(
            added,
            "# B\n\n## T\n\n| m | t |\n|---|---|\n| a | 1 |\n| b | 2 |\n\nnote\n\n## U\n\n| a | 9 |\n"
        );
        let replaced = with_table_row(&added, "## T", "| a |", "| a | 3 |");
        assert_eq!(
            replaced,
            "# B\n\n## T\n\n| m | t |\n|---|---|\n| a | 3 |\n| b | 2 |\n\nnote\n\n## U\n\n| a | 9 |\n"
        );
        assert_eq!(with_table_row(text, "## V", "| a |", "| a | 3 |"), text);
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
