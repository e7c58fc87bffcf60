//! Rust source as a list of tokens, without comments: just enough to
//! follow paths (`crate::a::B`), `use` trees and `mod` items, and to read
//! the format strings of attributes.

/// One token of Rust code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Token {
    /// An identifier or keyword (`crate`, `use`, `r#type` as `type`).
    Ident(String),
    /// `::`
    PathSep,
    /// Any other punctuation character.
    Punct(char),
    /// A string literal (`"…"`, `r#"…"#`): its text between the quotes, escapes
    /// as written.
    Str(String),
    /// A number literal, as written (`0`, `1_000u32`).
    Number(String),
    /// A byte string, C string or character literal (its text is not kept).
    Literal,
}

/// The tokens of `source`; comments vanish, strings and numbers keep their
/// text, other literals become [`Token::Literal`].
pub(crate) fn tokens(source: &str) -> Vec<Token> {
    let chars: Vec<char> = source.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c.is_whitespace() {
            i += 1;
        } else if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i = skip_block_comment(&chars, i);
        } else if let Some(end) = raw_string_end(&chars, i) {
            out.push(if c == 'r' {
                raw_string_text(&chars[i..end])
            } else {
                Token::Literal
            });
            i = end;
        } else if c == '"' {
            let end = skip_quoted(&chars, i, '"');
            let text = chars[i + 1..end.saturating_sub(1).max(i + 1)]
                .iter()
                .collect();
            out.push(Token::Str(text));
            i = end;
        } else if (c == 'b' || c == 'c') && next == Some('"') {
            i = skip_quoted(&chars, i + 1, '"');
            out.push(Token::Literal);
        } else if c == '\'' || (c == 'b' && next == Some('\'')) {
            let start = if c == '\'' { i } else { i + 1 };
            match char_literal_end(&chars, start) {
                Some(end) => {
                    out.push(Token::Literal);
                    i = end;
                }
                // A lifetime or label: `'a`.
                None => {
                    out.push(Token::Punct('\''));
                    i = start + 1;
                }
            }
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Token::Number(chars[start..i].iter().collect()));
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let mut word: String = chars[start..i].iter().collect();
            if word == "r" && chars.get(i) == Some(&'#') {
                // A raw identifier: `r#type`.
                let rest = i + 1;
                let mut end = rest;
                while end < chars.len() && (chars[end].is_alphanumeric() || chars[end] == '_') {
                    end += 1;
                }
                word = chars[rest..end].iter().collect();
                i = end;
            }
            out.push(Token::Ident(word));
        } else if c == ':' && next == Some(':') {
            out.push(Token::PathSep);
            i += 2;
        } else {
            out.push(Token::Punct(c));
            i += 1;
        }
    }
    out
}

/// The index after a (possibly nested) `/* */` comment starting at `i`.
fn skip_block_comment(chars: &[char], mut i: usize) -> usize {
    let mut depth = 0;
    while i < chars.len() {
        if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
            depth += 1;
            i += 2;
        } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    i
}

/// The index after a literal quoted by `quote` whose opening quote is at `i`.
fn skip_quoted(chars: &[char], mut i: usize, quote: char) -> usize {
    i += 1;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    i
}

/// The index after a raw string (`r"…"`, `r#"…"#`, `br#"…"#`) starting at `i`.
fn raw_string_end(chars: &[char], i: usize) -> Option<usize> {
    let mut j = i;
    if matches!(chars.get(j), Some('b' | 'c')) {
        j += 1;
    }
    if chars.get(j) != Some(&'r') {
        return None;
    }
    if i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_') {
        return None;
    }
    j += 1;
    let mut hashes = 0;
    while chars.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    if chars.get(j) != Some(&'"') {
        return None;
    }
    j += 1;
    while j < chars.len() {
        if chars[j] == '"' && (1..=hashes).all(|k| chars.get(j + k) == Some(&'#')) {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(j)
}

/// The text of the raw string `literal` (`r#"…"#`) between its quotes.
fn raw_string_text(literal: &[char]) -> Token {
    let hashes = literal.iter().skip(1).take_while(|&&c| c == '#').count();
    let start = 2 + hashes;
    let end = literal.len().saturating_sub(1 + hashes).max(start);
    Token::Str(literal[start.min(end)..end].iter().collect())
}

/// The index after a character literal opening at `i`, or `None` for a lifetime.
fn char_literal_end(chars: &[char], i: usize) -> Option<usize> {
    match chars.get(i + 1)? {
        '\\' => Some(skip_quoted(chars, i, '\'')),
        _ if chars.get(i + 2) == Some(&'\'') => Some(i + 3),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn idents(source: &str) -> Vec<String> {
        tokens(source)
            .into_iter()
            .filter_map(|t| match t {
                Token::Ident(word) => Some(word),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn comments_and_literals_hide_their_words() {
        let source = r##"
            // use crate::a;
            /* crate::b /* nested */ crate::c */
            let s = "crate::d \" crate::e";
            let r = r#"crate::f"#;
            let c = '"'; let l: &'static str = x;
            use crate::g;
        "##;
        assert_eq!(
            idents(source),
            [
                "let", "s", "let", "r", "let", "c", "let", "l", "static", "str", "x", "use",
                "crate", "g"
            ]
        );
    }

    #[test]
    fn strings_and_numbers_keep_their_text() {
        assert_eq!(
            tokens(r##"("a {b}", r#"c "d""#, b"e", 12u8, 'f')"##),
            [
                Token::Punct('('),
                Token::Str("a {b}".into()),
                Token::Punct(','),
                Token::Str("c \"d\"".into()),
                Token::Punct(','),
                Token::Literal,
                Token::Punct(','),
                Token::Number("12u8".into()),
                Token::Punct(','),
                Token::Literal,
                Token::Punct(')'),
            ]
        );
    }

    #[test]
    fn paths_keep_their_separators() {
        assert_eq!(
            tokens("crate::a::B"),
            [
                Token::Ident("crate".into()),
                Token::PathSep,
                Token::Ident("a".into()),
                Token::PathSep,
                Token::Ident("B".into()),
            ]
        );
    }
}
