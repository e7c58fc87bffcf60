//! `--transform FILE`: tool transformations read from TOML or YAML and
//! applied to the tools of every document at once.

use std::path::Path;

use mcp_core::ToolDef;
use mcp_core::transform::TransformFile;
use serde_json::Value;

use super::error::CliError;

/// The formats a transformation file may have, by extension.
const FORMATS: &str = "`.toml` (TOML), `.yaml`, `.yml` or `.json` (YAML)";

/// Reads the transformation file at `path`.
pub(crate) fn read(path: &Path) -> Result<TransformFile, CliError> {
    let fail = |reason: String| CliError::TransformFile {
        path: path.display().to_string(),
        reason,
    };
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let toml = match extension.as_deref() {
        Some("toml") => true,
        Some("yaml" | "yml" | "json") => false,
        _ => {
            return Err(fail(format!(
                "the format is told by the extension: {FORMATS}"
            )));
        }
    };
    let text =
        std::fs::read_to_string(path).map_err(|error| fail(format!("cannot read it: {error}")))?;
    let value = if toml {
        parse_toml(&text)
    } else {
        parse_yaml(&text)
    }
    .map_err(fail)?;
    if value.is_null() {
        return Ok(TransformFile::default());
    }
    TransformFile::from_value(value).map_err(|error| CliError::Transform {
        path: path.display().to_string(),
        error: Box::new(error),
    })
}

fn parse_toml(text: &str) -> Result<Value, String> {
    toml::from_str::<Value>(text).map_err(|error| {
        let message = error.message().trim_end().replace('\n', "; ");
        match error.span() {
            Some(span) => {
                let (line, column) = line_and_column(text, span.start);
                format!("TOML syntax, line {line}, column {column}: {message}")
            }
            None => format!("TOML syntax: {message}"),
        }
    })
}

fn parse_yaml(text: &str) -> Result<Value, String> {
    match serde_saphyr::from_str::<Option<Value>>(text) {
        Ok(value) => Ok(value.unwrap_or(Value::Null)),
        Err(error) => {
            // The first line says what and where; the others quote the input.
            let rendered = error.to_string();
            let first = rendered
                .lines()
                .map(str::trim)
                .find(|line| !line.is_empty());
            let message = first.unwrap_or("unreadable YAML");
            Err(format!(
                "YAML syntax: {}",
                message.strip_prefix("error: ").unwrap_or(message)
            ))
        }
    }
}

/// The 1-based line and column of byte `offset` of `text`.
fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before
        .rsplit('\n')
        .next()
        .map_or(0, |last| last.chars().count())
        + 1;
    (line, column)
}

/// Applies `file` to the tools of every group at once (a name must be found
/// in some group), keeping each tool in its group and place.
pub(crate) fn apply(
    path: &Path,
    file: &TransformFile,
    groups: Vec<Vec<ToolDef>>,
) -> Result<Vec<Vec<ToolDef>>, CliError> {
    let sizes: Vec<usize> = groups.iter().map(Vec::len).collect();
    let all: Vec<ToolDef> = groups.into_iter().flatten().collect();
    let mut transformed = file
        .apply(all)
        .map_err(|error| CliError::Transform {
            path: path.display().to_string(),
            error: Box::new(error),
        })?
        .into_iter();
    Ok(sizes
        .into_iter()
        .map(|size| transformed.by_ref().take(size).collect())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_errors_say_where_on_one_line() {
        let error = parse_toml("[tools.a]\nname = \n").unwrap_err();
        assert!(error.starts_with("TOML syntax, line 2, column "), "{error}");
        assert!(!error.contains('\n'), "{error}");
    }

    #[test]
    fn yaml_errors_are_one_line() {
        let error = parse_yaml("tools: [a\n").unwrap_err();
        assert!(error.starts_with("YAML syntax: "), "{error}");
        assert!(!error.contains('\n'), "{error}");
        assert_eq!(parse_yaml("").unwrap(), Value::Null);
    }

    #[test]
    fn lines_and_columns_count_from_one() {
        assert_eq!(line_and_column("ab\ncd", 4), (2, 2));
        assert_eq!(line_and_column("ab", 0), (1, 1));
    }
}
