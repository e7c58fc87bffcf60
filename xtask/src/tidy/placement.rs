//! Which files may name a crate: `rmcp` only in `mcp-server`'s protocol
//! adapter and transports, the network crates only in `mcp-openapi`'s call
//! path, and in `mcp-server` the HTTP client and JOSE crates only in the
//! HTTP transport's authorization (key discovery, token checks), and the
//! Redis client only in the shared store. Comments
//! and string literals do not count.

use std::path::Path;

use super::lexer::{Token, tokens};

/// A crate that only some folders may name.
pub(crate) struct Rule {
    /// The crates (path roots) the rule is about.
    pub(crate) names: &'static [&'static str],
    /// The source folders checked, relative to the workspace root.
    pub(crate) checked: &'static [&'static str],
    /// Where naming them is allowed, relative to the workspace root.
    pub(crate) allowed: &'static [&'static str],
}

pub(crate) const RULES: &[Rule] = &[
    Rule {
        names: &["rmcp"],
        checked: &[
            "mcp-core/src",
            "mcp-macros/src",
            "mcp-openapi/src",
            "mcp-server/src",
            "cli/src",
            "examples/src",
        ],
        allowed: &["mcp-server/src/protocol", "mcp-server/src/transport"],
    },
    Rule {
        names: &["reqwest", "http", "hyper", "tokio", "httpdate"],
        checked: &["mcp-openapi/src"],
        allowed: &["mcp-openapi/src/call"],
    },
    Rule {
        names: &["reqwest", "jsonwebtoken"],
        checked: &["mcp-server/src"],
        allowed: &[
            "mcp-server/src/transport/http/auth.rs",
            "mcp-server/src/transport/http/auth",
        ],
    },
    Rule {
        names: &["redis"],
        checked: &["mcp-server/src"],
        allowed: &["mcp-server/src/store.rs", "mcp-server/src/store"],
    },
];

/// The crates of `names` that `source` names as the start of a path
/// (`reqwest::Client`, `use tokio;`, `extern crate http`).
pub(crate) fn named_crates(source: &str, names: &[&str]) -> Vec<String> {
    let tokens = tokens(source);
    let mut found = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let Token::Ident(word) = token else { continue };
        if !names.contains(&word.as_str()) || found.contains(word) {
            continue;
        }
        let before = i.checked_sub(1).map(|j| &tokens[j]);
        let after = tokens.get(i + 1);
        let starts_path = after == Some(&Token::PathSep)
            && !matches!(before, Some(Token::PathSep) | Some(Token::Punct('.')));
        let imported = matches!(before, Some(Token::Ident(k)) if k == "use" || k == "crate");
        if starts_path || imported {
            found.push(word.clone());
        }
    }
    found
}

/// Every breach of `rule` under `root`, one line each.
pub(crate) fn breaches(root: &Path, rule: &Rule) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for checked in rule.checked {
        for file in super::rust_files(&root.join(checked))? {
            let relative = file.strip_prefix(root).unwrap_or(&file);
            if rule.allowed.iter().any(|a| relative.starts_with(a)) {
                continue;
            }
            let source = std::fs::read_to_string(&file)
                .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
            for name in named_crates(&source, rule.names) {
                out.push(format!(
                    "{} names `{name}` (allowed only under {})",
                    relative.display(),
                    rule.allowed.join(", ")
                ));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_imports_count_comments_strings_and_fields_do_not() {
        let names = ["rmcp", "http"];
        assert_eq!(named_crates("use rmcp::model::Tool;", &names), ["rmcp"]);
        assert_eq!(
            named_crates("fn f() { http::Method::GET }", &names),
            ["http"]
        );
        assert_eq!(named_crates("extern crate rmcp;", &names), ["rmcp"]);
        assert!(named_crates("// rmcp::model\n/// [`rmcp`]\n", &names).is_empty());
        assert!(named_crates(r#"#[cfg(feature = "rmcp")] let s = "http::x";"#, &names).is_empty());
        assert!(
            named_crates(
                "self.http.get(); crate::http::call(); let http = 1;",
                &names
            )
            .is_empty()
        );
    }
}
