//! The `_meta` key rule, checked at compile time so a bad key in
//! `meta("k" = v)` is an error at the key.
//!
//! This mirrors `mcp_core::validate_meta_key` (which the builder applies at
//! run time, so a divergence could only make the macro stricter than the
//! builder, never looser); a `const fn` in `mcp-core` has been requested so
//! that the rule lives in one place.

/// Why a key is refused.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum KeyProblem {
    /// The prefix has a `modelcontextprotocol` or `mcp` label.
    Reserved {
        /// The prefix with its trailing slash.
        prefix: String,
    },
    /// The key breaks the `[prefix/]name` grammar.
    Malformed(String),
}

/// Checks `key` against the MCP `_meta` key rule.
pub(crate) fn check(key: &str) -> Result<(), KeyProblem> {
    let (prefix, name) = match key.rsplit_once('/') {
        Some((prefix, name)) => (Some(prefix), name),
        None => (None, key),
    };
    if let Some(prefix) = prefix {
        for label in prefix.split('.') {
            check_label(label).map_err(|reason| {
                KeyProblem::Malformed(format!("prefix label `{label}` {reason}"))
            })?;
        }
        if prefix.split('.').any(|label| {
            label.eq_ignore_ascii_case("modelcontextprotocol") || label.eq_ignore_ascii_case("mcp")
        }) {
            return Err(KeyProblem::Reserved {
                prefix: format!("{prefix}/"),
            });
        }
    }
    check_name(name).map_err(|reason| KeyProblem::Malformed(format!("name `{name}` {reason}")))
}

/// The compile error message for a refused key.
pub(crate) fn message(key: &str, problem: &KeyProblem) -> String {
    match problem {
        KeyProblem::Reserved { prefix } => format!(
            "`_meta` key `{key}` uses the reserved prefix `{prefix}` (labels `modelcontextprotocol` and `mcp` belong to the MCP specification); use your own reverse-DNS prefix such as `com.example/`"
        ),
        KeyProblem::Malformed(reason) => {
            format!(
                "invalid `_meta` key `{key}`: {reason}; a key is `[prefix/]name`, e.g. `com.example.acme/audit-tier`"
            )
        }
    }
}

fn check_label(label: &str) -> Result<(), &'static str> {
    let bytes = label.as_bytes();
    match (bytes.first(), bytes.last()) {
        (None, _) | (_, None) => Err("is empty"),
        (Some(first), _) if !first.is_ascii_alphabetic() => Err("must start with a letter"),
        (_, Some(last)) if !last.is_ascii_alphanumeric() => Err("must end with a letter or digit"),
        _ if !bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'-') =>
        {
            Err("may only contain letters, digits and hyphens")
        }
        _ => Ok(()),
    }
}

fn check_name(name: &str) -> Result<(), &'static str> {
    let bytes = name.as_bytes();
    match (bytes.first(), bytes.last()) {
        (None, _) | (_, None) => Ok(()),
        (Some(first), Some(last))
            if !first.is_ascii_alphanumeric() || !last.is_ascii_alphanumeric() =>
        {
            Err("must begin and end with a letter or digit")
        }
        _ if !bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.')) =>
        {
            Err("may only contain letters, digits, `-`, `_` and `.`")
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_what_mcp_core_accepts() {
        for key in [
            "a",
            "com.example/x",
            "com.example.acme/audit-tier",
            "x1/a.b_c-d",
            "com.example/",
            "mcpx.dev/y",
        ] {
            assert_eq!(check(key), Ok(()), "{key}");
        }
    }

    #[test]
    fn refuses_reserved_and_malformed_keys() {
        for key in [
            "io.modelcontextprotocol/x",
            "dev.mcp/x",
            "mcp.dev/x",
            "api.MCP/x",
        ] {
            assert!(
                matches!(check(key), Err(KeyProblem::Reserved { .. })),
                "{key}"
            );
        }
        for key in [
            "1com.example/x",
            "com-/x",
            "com..example/x",
            "co_m/x",
            "com.example/-x",
            "com.example/a b",
        ] {
            assert!(matches!(check(key), Err(KeyProblem::Malformed(_))), "{key}");
        }
    }
}
