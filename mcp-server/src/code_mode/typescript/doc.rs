//! The JSDoc comment above a declaration: descriptions as plain one-line
//! text (no HTML tags, Markdown links reduced to their text), cut at a
//! sentence or a word, and never closing the comment early.

use crate::sentence::sentence_ends;

/// Text cut to at most `chars` characters: after its last whole sentence
/// that fits, else at a word, with `…`.
pub(crate) fn cut(text: &str, chars: usize) -> String {
    if text.chars().count() <= chars {
        return text.to_owned();
    }
    let end = text
        .char_indices()
        .nth(chars)
        .map_or(text.len(), |(index, _)| index);
    // The last sentence end that fits (a period right at the cut counts
    // only when a space follows it in the whole text).
    if let Some(sentence) = sentence_ends(text).take_while(|&at| at < end).last() {
        return text[..sentence].to_owned();
    }
    let head = &text[..end];
    let head = head.rfind(' ').map_or(head, |space| &head[..space]);
    format!("{}…", head.trim_end_matches([',', ';', ':', '.']))
}

/// The first paragraph of `description` as plain one-line text.
pub(crate) fn first_paragraph(description: &str) -> String {
    let text = description.trim();
    let end = [text.find("\n\n"), text.find("\r\n\r\n"), text.find("</p>")]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(text.len());
    plain(&text[..end])
}

/// `text` without HTML tags, with Markdown links `[label](target)` as their
/// label, whitespace collapsed to single spaces.
fn plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '<'
            && let Some(end) = rest.find('>')
            && rest[1..].starts_with(|next: char| next.is_ascii_alphabetic() || next == '/')
        {
            out.push(' ');
            rest = &rest[end + 1..];
            continue;
        }
        if c == ']'
            && rest[1..].starts_with('(')
            && let Some(close) = rest.find(')')
        {
            // The end of a link's label: drop its target, then its `[`.
            if let Some(open) = out.rfind('[') {
                out.remove(open);
            }
            rest = &rest[close + 1..];
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    let mut joined = String::with_capacity(out.len());
    for word in out.split_whitespace() {
        // Punctuation that followed a removed tag stays with its word.
        let punctuation = word
            .chars()
            .all(|c| matches!(c, '.' | ',' | ';' | ':' | '!' | '?' | ')'));
        if !joined.is_empty() && !punctuation {
            joined.push(' ');
        }
        joined.push_str(word);
    }
    joined
}

/// A JSDoc comment of `lines` (one line each), indented by nothing:
/// `/** one */` for a single line, a block otherwise; `None` without
/// lines. `*/` inside a line is written `*\/`, and a line starting with
/// `@` that is not a tag of ours is escaped.
pub(crate) fn comment(summary: Option<&str>, tags: &[String]) -> Option<String> {
    let mut lines: Vec<String> = Vec::new();
    if let Some(summary) = summary.filter(|summary| !summary.is_empty()) {
        let safe = escape(summary);
        lines.push(match safe.strip_prefix('@') {
            Some(rest) => format!("\\@{rest}"),
            None => safe,
        });
    }
    lines.extend(tags.iter().map(|tag| escape(tag)));
    match lines.as_slice() {
        [] => None,
        [line] => Some(format!("/** {line} */")),
        lines => {
            let mut block = String::from("/**");
            for line in lines {
                block.push_str("\n * ");
                block.push_str(line);
            }
            block.push_str("\n */");
            Some(block)
        }
    }
}

fn escape(line: &str) -> String {
    line.replace("*/", "*\\/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_lose_markup_and_keep_link_labels() {
        assert_eq!(
            first_paragraph(
                "<p>Returns a list of your <a href=\"/x\">customers</a>.</p><p>More</p>"
            ),
            "Returns a list of your customers."
        );
        assert_eq!(
            first_paragraph(
                "See \"[Media types](https://docs.github.com/rest)\" and `a<b`.\n\nMore."
            ),
            "See \"Media types\" and `a<b`."
        );
        assert_eq!(
            first_paragraph("List\n  repository issues\r\n\r\nRest"),
            "List repository issues"
        );
    }

    #[test]
    fn cuts_end_at_a_sentence_or_a_word() {
        assert_eq!(cut("short", 10), "short");
        assert_eq!(cut("One two. Three four five six", 15), "One two.");
        assert_eq!(
            cut("One, e.g. two. Three. Four five six", 24),
            "One, e.g. two. Three."
        );
        assert_eq!(cut("one two three four", 12), "one two…");
    }

    #[test]
    fn comments_never_close_early() {
        assert_eq!(
            comment(Some("Lists pets."), &[]).as_deref(),
            Some("/** Lists pets. */")
        );
        assert_eq!(
            comment(
                Some("Globs like a/*/b or */"),
                &["@param input.x Say @me.".to_owned()]
            )
            .as_deref(),
            Some("/**\n * Globs like a/*\\/b or *\\/\n * @param input.x Say @me.\n */")
        );
        assert_eq!(
            comment(Some("@deprecated soon"), &[]).as_deref(),
            Some("/** \\@deprecated soon */")
        );
        assert_eq!(comment(None, &[]), None);
    }
}
