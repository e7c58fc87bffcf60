//! An error prints its cause once: a `thiserror` variant either shows its
//! cause in its message or returns it from `source()`, never both (a report
//! that walks the `source()` chain would print it twice).
//!
//! A variant's cause is the field marked `#[source]` or `#[from]`, or else
//! the field named `source`; its message formats that field when the
//! `#[error(..)]` string names it (`{source}`, `{0}`) or an argument after the
//! string does (`.source`, `.0`, `source`). `#[error(transparent)]` forwards
//! both to the cause and is fine.

use super::lexer::{Token, tokens};

/// One variant (or struct) whose message formats its cause.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Twice {
    /// The type, and the variant for an enum (`Error::Io`).
    pub(crate) item: String,
    /// The field that is both shown and returned (`source`, `0`).
    pub(crate) field: String,
}

/// Every `thiserror` variant of `source` that prints its cause twice.
pub(crate) fn printed_twice(source: &str) -> Vec<Twice> {
    let tokens = tokens(source);
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if !is_attribute(&tokens, i) {
            i += 1;
            continue;
        }
        let (attribute, after) = group(&tokens, i + 1);
        if !derives_error(attribute) {
            i = after;
            continue;
        }
        // The item's own attributes, then `struct` or `enum`.
        let mut attributes = Vec::new();
        let mut j = after;
        loop {
            if is_attribute(&tokens, j) {
                let (inner, next) = group(&tokens, j + 1);
                attributes.push(inner);
                j = next;
            } else if matches!(tokens.get(j), Some(Token::Ident(word)) if word == "struct" || word == "enum")
            {
                break;
            } else if j >= tokens.len() {
                return out;
            } else {
                j += 1;
            }
        }
        let keyword = ident(&tokens, j).unwrap_or_default();
        let name = ident(&tokens, j + 1).unwrap_or_default();
        let Some(open) =
            (j + 2..tokens.len()).find(|&k| matches!(tokens[k], Token::Punct('{' | '(' | ';')))
        else {
            return out;
        };
        let (body, end) = if tokens[open] == Token::Punct(';') {
            (&tokens[open..open], open + 1)
        } else {
            group(&tokens, open)
        };
        if keyword == "struct" {
            let fields = fields(body, tokens[open] == Token::Punct('('));
            if let Some(field) = twice(&attributes, &fields) {
                out.push(Twice {
                    item: name.clone(),
                    field,
                });
            }
        } else {
            for variant in split(body) {
                let (attributes, rest) = leading_attributes(variant);
                let Some(variant_name) = ident(rest, 0) else {
                    continue;
                };
                let fields = match rest.get(1) {
                    Some(Token::Punct(open @ ('{' | '('))) => {
                        fields(group(rest, 1).0, *open == '(')
                    }
                    _ => Vec::new(),
                };
                if let Some(field) = twice(&attributes, &fields) {
                    out.push(Twice {
                        item: format!("{name}::{variant_name}"),
                        field,
                    });
                }
            }
        }
        i = end;
    }
    out
}

/// One field: its name (or index), and whether it is marked as the cause.
struct Field {
    name: String,
    marked: bool,
}

/// The cause of `fields` when the `#[error]` among `attributes` formats it.
fn twice(attributes: &[&[Token]], fields: &[Field]) -> Option<String> {
    let cause = fields
        .iter()
        .find(|f| f.marked)
        .or_else(|| fields.iter().find(|f| f.name == "source"))?;
    let message = attributes
        .iter()
        .find(|a| ident(a, 0).as_deref() == Some("error"))?;
    let (inside, _) = group(message, 1);
    let Some(Token::Str(format)) = inside.first() else {
        return None; // `transparent`
    };
    let in_string = placeholders(format).any(|name| name == cause.name);
    let in_arguments = inside[1..].iter().enumerate().any(|(k, token)| {
        let named = match token {
            Token::Ident(word) | Token::Number(word) => word == &cause.name,
            _ => false,
        };
        // `.source`, `.0` or a bare `source`, but not `x.source`.
        let before = k.checked_sub(1).map(|b| &inside[1 + b]);
        let before_before = k.checked_sub(2).map(|b| &inside[1 + b]);
        named
            && match before {
                Some(Token::Punct('.')) => !matches!(
                    before_before,
                    Some(Token::Ident(_) | Token::Number(_) | Token::Punct(')'))
                ),
                Some(Token::PathSep) => false,
                _ => matches!(token, Token::Ident(_)),
            }
    });
    (in_string || in_arguments).then(|| cause.name.clone())
}

/// The argument names of the `{…}` placeholders of `format`.
fn placeholders(format: &str) -> impl Iterator<Item = &str> {
    let mut names = Vec::new();
    let mut rest = format;
    while let Some(at) = rest.find(['{', '}']) {
        let after = &rest[at + 1..];
        if after.starts_with(&rest[at..=at]) {
            rest = &after[1..]; // `{{` or `}}`
            continue;
        }
        if rest[at..].starts_with('}') {
            rest = after;
            continue;
        }
        let end = after.find('}').unwrap_or(after.len());
        let name = after[..end].split(':').next().unwrap_or("").trim();
        names.push(name);
        rest = &after[end.min(after.len())..];
    }
    names.into_iter()
}

/// The fields of a `{…}` (named) or `(…)` (tuple) body.
fn fields(body: &[Token], tuple: bool) -> Vec<Field> {
    split(body)
        .into_iter()
        .enumerate()
        .filter_map(|(index, field)| {
            let (attributes, rest) = leading_attributes(field);
            let marked = attributes
                .iter()
                .any(|a| matches!(ident(a, 0).as_deref(), Some("source" | "from")));
            let name = if tuple {
                index.to_string()
            } else {
                // `pub(crate) name: Type`: the identifier before the first `:`.
                let colon = rest.iter().position(|t| *t == Token::Punct(':'))?;
                ident(rest, colon.checked_sub(1)?)?
            };
            Some(Field { name, marked })
        })
        .collect()
}

/// The attributes (their insides) at the start of `tokens`, and the rest.
fn leading_attributes(tokens: &[Token]) -> (Vec<&[Token]>, &[Token]) {
    let mut attributes = Vec::new();
    let mut i = 0;
    while is_attribute(tokens, i) {
        let (inner, next) = group(tokens, i + 1);
        attributes.push(inner);
        i = next;
    }
    (attributes, &tokens[i..])
}

/// `tokens` split at its top-level commas (empty parts left out).
fn split(tokens: &[Token]) -> Vec<&[Token]> {
    let mut parts = Vec::new();
    let mut depth = 0_i32;
    let mut start = 0;
    for (i, token) in tokens.iter().enumerate() {
        match token {
            Token::Punct('(' | '[' | '{' | '<') => depth += 1,
            Token::Punct(')' | ']' | '}' | '>') => depth -= 1,
            Token::Punct(',') if depth == 0 => {
                parts.push(&tokens[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&tokens[start..]);
    parts.into_iter().filter(|p| !p.is_empty()).collect()
}

/// `#[` (or `#![`) at `i`.
fn is_attribute(tokens: &[Token], i: usize) -> bool {
    tokens.get(i) == Some(&Token::Punct('#')) && tokens.get(i + 1) == Some(&Token::Punct('['))
}

/// The tokens inside the bracketed group opening at `open`, and the index
/// after it.
fn group(tokens: &[Token], open: usize) -> (&[Token], usize) {
    let mut depth = 0;
    for (offset, token) in tokens[open..].iter().enumerate() {
        match token {
            Token::Punct('(' | '[' | '{') => depth += 1,
            Token::Punct(')' | ']' | '}') => {
                depth -= 1;
                if depth == 0 {
                    let end = open + offset;
                    return (&tokens[open + 1..end], end + 1);
                }
            }
            _ => {}
        }
    }
    (&tokens[(open + 1).min(tokens.len())..], tokens.len())
}

/// `derive(…)` naming `Error` (thiserror's derive).
fn derives_error(attribute: &[Token]) -> bool {
    ident(attribute, 0).as_deref() == Some("derive")
        && attribute
            .iter()
            .any(|t| matches!(t, Token::Ident(word) if word == "Error"))
}

fn ident(tokens: &[Token], i: usize) -> Option<String> {
    match tokens.get(i) {
        Some(Token::Ident(word)) => Some(word.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The findings in `source`, where the fixtures write `CAUSE` for the
    /// cause field's name (so this file holds no message that prints one).
    fn found(source: &str) -> Vec<String> {
        printed_twice(&source.replace("CAUSE", "source"))
            .into_iter()
            .map(|t| format!("{}.{}", t.item, t.field))
            .collect()
    }

    #[test]
    fn a_message_formatting_its_cause_is_found() {
        let source = r#"
            #[derive(Debug, thiserror::Error)]
            pub enum E {
                #[error("cannot read {path}: {CAUSE}")]
                Read { path: String, #[source] source: std::io::Error },
                #[error("bad json: {0}")]
                Json(#[from] serde_json::Error),
                #[error("cannot open `{}`: {}", path.display(), .source)]
                Open { path: PathBuf, source: std::io::Error },
                #[error("plain {0:?}")]
                Debugged(#[source] Inner),
            }
            #[derive(Debug, Error)]
            #[error("sealed: {0}")]
            pub struct Sealed(#[from] Inner);
        "#;
        assert_eq!(
            found(source),
            [
                "E::Read.source",
                "E::Json.0",
                "E::Open.source",
                "E::Debugged.0",
                "Sealed.0"
            ]
        );
    }

    #[test]
    fn a_cause_shown_or_returned_once_is_fine() {
        let source = r#"
            #[derive(Debug, thiserror::Error)]
            pub enum E {
                #[error("cannot read {path}")]
                Read { path: String, #[source] source: std::io::Error },
                #[error(transparent)]
                Json(#[from] serde_json::Error),
                #[error("invalid: {0}")]
                Invalid(String),
                #[error("{message} ({})", overlay_place(.file.as_deref(), .pointer))]
                Overlay { message: String, file: Option<String>, pointer: String },
                #[error("the store {0}")]
                Store(String, #[source] Inner),
                #[error("{{0}} and {{CAUSE}}")]
                Braces(#[from] Inner),
            }
            #[derive(Debug, Clone)]
            pub struct NotAnError { source: String }
        "#;
        assert!(found(source).is_empty(), "{:?}", found(source));
    }
}
