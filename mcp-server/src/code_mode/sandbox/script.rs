//! The code of `execute` as QuickJS compiles it, and the lines its errors
//! point at.
//!
//! A script is either an expression (an async arrow function, which is
//! then called, or any other expression, whose value is the result) or a
//! function body that may `await` and `return`. Both are wrapped in an
//! async arrow function that is compiled without running any of the
//! script: the expression form first, the body form when that does not
//! parse. Each wrapper adds exactly one line before the script, so a
//! line in an error is the script's line plus [`LINE_OFFSET`], and a column
//! is the script's own.

use super::outcome::{Position, ScriptError};

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

/// The place in the script an error's `stack` points at first, when it
/// points into the script. The wrappers put a line of their own before
/// the script and leave its lines as they are, so columns need no change;
/// a place on the wrapper's first line (where the engine puts errors of
/// the expression form it cannot place) is the first line, column unknown.
pub(crate) fn position_of(stack: &str) -> Option<Position> {
    let marker = format!("{FILE_NAME}:");
    stack.match_indices(&marker).find_map(|(at, _)| {
        let rest = &stack[at + marker.len()..];
        let (line, rest) = number(rest)?;
        let column = rest
            .strip_prefix(':')
            .and_then(number)
            .map(|(column, _)| column);
        match line.checked_sub(LINE_OFFSET).filter(|line| *line > 0) {
            Some(line) => Some(Position { line, column }),
            None => Some(Position {
                line: 1,
                column: None,
            }),
        }
    })
}

/// The digits at the start of `text` as a number, and the rest.
fn number(text: &str) -> Option<(u32, &str)> {
    let end = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    Some((text[..end].parse().ok()?, &text[end..]))
}

/// A syntax error found at `at` in `code`, with `message`, as the script's
/// author reads it: an error on the wrapper's closing line (the parser
/// reached the end of the script still expecting more) is the end of the
/// script's last line, and says so instead of naming the wrapper's token.
pub(crate) fn syntax_error(code: &str, at: Option<Position>, message: String) -> ScriptError {
    let code = code.trim_end();
    let lines = u32::try_from(code.lines().count().max(1)).unwrap_or(u32::MAX);
    match at {
        Some(position) if position.line > lines => {
            let last = code.lines().last().unwrap_or("");
            let column = u32::try_from(last.chars().count() + 1).unwrap_or(u32::MAX);
            ScriptError::Syntax {
                at: Some(Position {
                    line: lines,
                    column: Some(column),
                }),
                message: "unexpected end of the script".to_owned(),
            }
        }
        at => ScriptError::Syntax { at, message },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: u32, column: Option<u32>) -> Option<Position> {
        Some(Position { line, column })
    }

    #[test]
    fn positions_are_the_scripts_own() {
        assert_eq!(position_of("    at script:3:9\n"), at(2, Some(9)));
        assert_eq!(
            position_of("    at <anonymous> (script:4:1)\n    at <eval> (script:9:1)\n"),
            at(3, Some(1))
        );
        assert_eq!(position_of("    at script:1:1\n"), at(1, None));
        assert_eq!(position_of("    at script:2\n"), at(1, None));
        assert_eq!(position_of("    at <native>\n"), None);
        assert_eq!(position_of(""), None);
        assert_eq!(
            at(2, Some(9)).map(|p| p.to_string()).as_deref(),
            Some("line 2, column 9")
        );
    }

    #[test]
    fn a_syntax_error_past_the_script_is_at_its_end() {
        let error = syntax_error(
            "return 1 +\n",
            at(2, Some(1)),
            "unexpected token in expression: '}'".to_owned(),
        );
        assert_eq!(
            error.to_string(),
            "SyntaxError at line 1, column 11: unexpected end of the script"
        );
        let error = syntax_error("x y", at(1, Some(3)), "expecting ';'".to_owned());
        assert_eq!(
            error.to_string(),
            "SyntaxError at line 1, column 3: expecting ';'"
        );
    }

    #[test]
    fn wrappers_add_one_line() {
        assert!(as_expression("async () => 1;;\n").starts_with("(async () => (\nasync () => 1\n"));
        assert_eq!(as_body("return 1").lines().nth(1), Some("return 1"));
    }
}
