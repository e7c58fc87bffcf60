//! Tools from `--openapi` documents (through crate `mcp-openapi`).

use std::path::Path;

use mcp_server::ToolSource;

use super::CliError;
use super::args::SpecArgs;

/// One `--openapi [NAME=]SPEC` argument.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct SpecRef<'a> {
    /// The tool-name prefix (`NAME_`), when given.
    pub(crate) name: Option<&'a str>,
    /// The document's path.
    pub(crate) path: &'a str,
}

/// Splits `NAME=SPEC`; a `=` inside a path (no valid name before it) is part
/// of the path.
pub(crate) fn spec_ref(raw: &str) -> SpecRef<'_> {
    match raw.split_once('=') {
        Some((name, path))
            if !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') =>
        {
            SpecRef {
                name: Some(name),
                path,
            }
        }
        _ => SpecRef {
            name: None,
            path: raw,
        },
    }
}

fn readable(path: &str) -> Result<(), CliError> {
    std::fs::metadata(Path::new(path))
        .and_then(|meta| {
            if meta.is_file() {
                Ok(())
            } else {
                Err(std::io::Error::other("not a file"))
            }
        })
        .map_err(|source| CliError::Read {
            path: path.to_owned(),
            source,
        })
}

/// The tool sources of every `--openapi` document.
///
/// OpenAPI generation lives in `mcp-openapi`, which has no generator in this
/// build: a document is checked for readability and then refused, never
/// served with made-up tools.
pub(crate) fn sources(specs: &SpecArgs) -> Result<Vec<ToolSource>, CliError> {
    if let Some(route_map) = &specs.route_map {
        readable(&route_map.to_string_lossy())?;
    }
    match specs.openapi.first() {
        None => Ok(Vec::new()),
        Some(raw) => {
            let spec = spec_ref(raw);
            readable(spec.path)?;
            Err(CliError::OpenApiUnavailable {
                spec: spec.path.to_owned(),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_optional_prefixes() {
        assert_eq!(
            spec_ref("gh=api.json"),
            SpecRef {
                name: Some("gh"),
                path: "api.json"
            }
        );
        assert_eq!(
            spec_ref("api.json"),
            SpecRef {
                name: None,
                path: "api.json"
            }
        );
        assert_eq!(
            spec_ref("./a=b.json"),
            SpecRef {
                name: None,
                path: "./a=b.json"
            }
        );
    }
}
