//! Text to search terms: identifiers split into words (`_ - . /` and
//! camelCase), markup and links left out, stop words dropped, each word
//! stemmed (Snowball English, so plurals and verb forms fold together).

use rust_stemmers::{Algorithm, Stemmer};

/// Words too common in requests and API prose to tell tools apart.
const STOP_WORDS: &[&str] = &[
    "a",
    "about",
    "all",
    "also",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "been",
    "but",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "for",
    "from",
    "had",
    "has",
    "have",
    "here",
    "how",
    "am",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "just",
    "let",
    "much",
    "many",
    "of",
    "on",
    "or",
    "our",
    "please",
    "right",
    "should",
    "so",
    "some",
    "than",
    "that",
    "the",
    "their",
    "them",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "to",
    "us",
    "was",
    "we",
    "were",
    "what",
    "when",
    "where",
    "which",
    "will",
    "with",
    "would",
    "you",
    "your",
    "now",
    "want",
    "need",
    "currently",
    "using",
    "via",
    // What is left of contractions and possessives (`payment's`, `don't`).
    "s",
    "t",
    "d",
    "ll",
    "m",
    "re",
    "ve",
];

/// Splits text into search terms, reusing one stemmer.
pub(crate) struct Words {
    stemmer: Stemmer,
}

impl Words {
    pub(crate) fn new() -> Self {
        Self {
            stemmer: Stemmer::create(Algorithm::English),
        }
    }

    /// The stemmed terms of `text`, in order, stop words left out.
    pub(crate) fn terms(&self, text: &str) -> Vec<String> {
        let mut terms = Vec::new();
        for_each_word(&strip_markup(text), |word| {
            if let Some(term) = self.term(word) {
                terms.push(term);
            }
        });
        terms
    }

    /// The search term of one lowercase word, or `None` for a stop word or a
    /// bare number.
    pub(crate) fn term(&self, word: &str) -> Option<String> {
        if word.is_empty() || STOP_WORDS.contains(&word) || word.chars().all(|c| c.is_ascii_digit())
        {
            return None;
        }
        Some(self.stemmer.stem(word).into_owned())
    }
}

/// Calls `visit` with each lowercase word of `text`: runs of letters and
/// digits, split further at camelCase humps (`listStargazers`,
/// `HTTPServer` gives `http`, `server`).
pub(crate) fn for_each_word(text: &str, mut visit: impl FnMut(&str)) {
    let chars: Vec<char> = text.chars().collect();
    let mut word = String::new();
    for (index, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            flush(&mut word, &mut visit);
            continue;
        }
        let previous = index.checked_sub(1).map(|i| chars[i]);
        let next = chars.get(index + 1).copied();
        let hump = c.is_uppercase()
            && previous.is_some_and(|p| {
                p.is_lowercase()
                    || p.is_ascii_digit() && !word.chars().all(|w| w.is_ascii_digit())
                    || p.is_uppercase() && next.is_some_and(char::is_lowercase)
            });
        if hump {
            flush(&mut word, &mut visit);
        }
        word.extend(c.to_lowercase());
    }
    flush(&mut word, &mut visit);
}

fn flush(word: &mut String, visit: &mut impl FnMut(&str)) {
    if !word.is_empty() {
        visit(word);
        word.clear();
    }
}

/// `text` without HTML tags, URLs and the targets of Markdown links, which
/// say nothing about what a tool does.
pub(crate) fn strip_markup(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '<'
            && let Some(end) = rest.find('>')
        {
            out.push(' ');
            rest = &rest[end + 1..];
            continue;
        }
        if rest.starts_with("http://") || rest.starts_with("https://") {
            let end = rest
                .find(|c: char| c.is_whitespace() || c == ')' || c == '"')
                .unwrap_or(rest.len());
            out.push(' ');
            rest = &rest[end..];
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_split_into_stemmed_words() {
        let words = Words::new();
        assert_eq!(
            words.terms("activity/list-stargazers-for-repo"),
            ["activ", "list", "stargaz", "repo"]
        );
        assert_eq!(
            words.terms("GetCustomersCustomerPaymentMethods"),
            ["get", "custom", "custom", "payment", "method"]
        );
        assert_eq!(
            words.terms("HTTPServer v2 userID"),
            ["http", "server", "v2", "user", "id"]
        );
        assert_eq!(
            words.terms("Who has starred the repositories?"),
            ["who", "star", "repositori"]
        );
    }

    #[test]
    fn markup_and_links_are_left_out() {
        let words = Words::new();
        assert_eq!(
            words.terms("<p>Lists <a href=\"/docs\">charges</a>.</p> See [docs](https://docs.example.com/x)."),
            ["list", "charg", "see", "doc"]
        );
    }
}
