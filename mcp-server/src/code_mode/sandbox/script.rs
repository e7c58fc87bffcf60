//! The code of `execute` as QuickJS compiles it, and the lines its errors
//! point at.
//!
//! A script is either an expression (an async arrow function, which is
//! then called, or any other expression, whose value is the result) or a
//! function body that may `await` and `return`. Both are wrapped in an
//! async arrow function that is compiled without running any of the
//! script: the expression form first, the body form when that does not
//! parse. Each wrapper adds exactly one line before the script, so a
//! line in an error is the script's line plus [`LINE_OFFSET`].

/// The file name errors name for the script.
pub(crate) const FILE_NAME: &str = "script";

/// The lines a wrapper puts before the script.
const LINE_OFFSET: u32 = 1;

/// `code` as an expression: an async arrow function returning its value.
pub(crate) fn as_expression(code: &str) -> String {
    let trimmed = code.trim_end().trim_end_matches(';');
    format!("(async () => (\n{trimmed}\n))")
}

/// `code` as the body of an async arrow function.
pub(crate) fn as_body(code: &str) -> String {
    format!("(async () => {{\n{code}\n}})")
}

/// The script's line an error's `stack` points at first, when it points
/// into the script.
pub(crate) fn line_of(stack: &str) -> Option<u32> {
    let marker = format!("{FILE_NAME}:");
    stack.match_indices(&marker).find_map(|(at, _)| {
        let rest = &stack[at + marker.len()..];
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        let line: u32 = digits.parse().ok()?;
        // A line inside the wrapper (before the script) counts as the first.
        Some(line.saturating_sub(LINE_OFFSET).max(1))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_the_scripts_own() {
        assert_eq!(line_of("    at script:3:9\n"), Some(2));
        assert_eq!(
            line_of("    at <anonymous> (script:4:1)\n    at <eval> (script:9:1)\n"),
            Some(3)
        );
        assert_eq!(line_of("    at script:1:1\n"), Some(1));
        assert_eq!(line_of("    at <native>\n"), None);
        assert_eq!(line_of(""), None);
    }

    #[test]
    fn wrappers_add_one_line() {
        assert!(as_expression("async () => 1;;\n").starts_with("(async () => (\nasync () => 1\n"));
        assert_eq!(as_body("return 1").lines().nth(1), Some("return 1"));
    }
}
