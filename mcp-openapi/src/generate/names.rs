//! Tool names: `operationId` or `{method}_{path}`, sanitized to the MCP
//! charset, truncated with a short stable suffix, unique per document.

use std::collections::HashSet;

use crate::ir::HttpRoute;

/// The name before sanitizing: `operationId`, else `{method}_{path}` slugged.
pub(crate) fn base_name(route: &HttpRoute) -> String {
    match &route.operation_id {
        Some(id) => id.clone(),
        None => format!(
            "{}_{}",
            route.method.as_str().to_ascii_lowercase(),
            route.path
        ),
    }
}

/// Replaces characters outside `A-Z a-z 0-9 _ - .` by `_`, collapsing runs
/// and trimming `_` at both ends.
pub(crate) fn sanitize(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        let c = if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
            c
        } else {
            '_'
        };
        if c == '_' && out.ends_with('_') {
            continue;
        }
        out.push(c);
    }
    let trimmed = out.trim_matches('_');
    if trimmed.is_empty() {
        "tool".to_owned()
    } else {
        trimmed.to_owned()
    }
}

/// FNV-1a, 32 bits: stable across runs and platforms.
fn fnv1a(text: &str) -> u32 {
    text.bytes().fold(0x811c_9dc5_u32, |hash, byte| {
        (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193)
    })
}

/// Cuts `name` to `max` characters, ending in `_` + 8 hex digits of a hash of
/// the whole name so that different long names stay different.
fn truncate(name: &str, max: usize) -> String {
    if name.len() <= max {
        return name.to_owned();
    }
    let suffix = format!("_{:08x}", fnv1a(name));
    let keep = max.saturating_sub(suffix.len());
    let prefix: String = name.chars().take(keep).collect();
    let mut out = prefix.trim_end_matches('_').to_owned();
    out.push_str(&suffix);
    out
}

/// Hands out names, never the same one twice.
#[derive(Debug, Default)]
pub(crate) struct Names {
    taken: HashSet<String>,
}

impl Names {
    /// A unique name within `max` characters for `wanted` (already sanitized).
    pub(crate) fn unique(&mut self, wanted: &str, max: usize) -> String {
        let first = truncate(wanted, max);
        if self.taken.insert(first.clone()) {
            return first;
        }
        let mut n = 2_u32;
        loop {
            let suffix = format!("_{n}");
            let keep = max.saturating_sub(suffix.len());
            let mut candidate: String = first.chars().take(keep).collect();
            candidate.push_str(&suffix);
            if self.taken.insert(candidate.clone()) {
                return candidate;
            }
            n += 1;
        }
    }

    /// Marks a name as taken (an explicit `mcp_names` entry).
    pub(crate) fn take(&mut self, name: &str) -> bool {
        self.taken.insert(name.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitizing() {
        assert_eq!(sanitize("repos/get-content"), "repos_get-content");
        assert_eq!(sanitize("get_/pets/{petId}"), "get_pets_petId");
        assert_eq!(sanitize("{}"), "tool");
    }

    #[test]
    fn truncation_is_stable_and_distinct() {
        let a = "a".repeat(70);
        let b = format!("{}b", "a".repeat(69));
        let ta = truncate(&a, 64);
        assert_eq!(ta.len(), 64);
        assert_eq!(ta, truncate(&a, 64));
        assert_ne!(ta, truncate(&b, 64));
        assert_eq!(truncate("short", 64), "short");
    }

    #[test]
    fn uniqueness() {
        let mut names = Names::default();
        assert_eq!(names.unique("x", 64), "x");
        assert_eq!(names.unique("x", 64), "x_2");
        assert_eq!(names.unique("x", 64), "x_3");
        let long = "y".repeat(64);
        assert_eq!(names.unique(&long, 64), long);
        let second = names.unique(&long, 64);
        assert_eq!(second.len(), 64);
        assert!(second.ends_with("_2"));
    }
}
