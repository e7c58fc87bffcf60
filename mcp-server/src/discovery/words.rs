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
/// `HTTPServer` gives `http`, `server`). A word already in lowercase is
/// visited as a slice of `text`; only the others are copied.
pub(crate) fn for_each_word(text: &str, mut visit: impl FnMut(&str)) {
    let mut word = Word::default();
    let mut chars = text.char_indices().peekable();
    let mut previous: Option<char> = None;
    while let Some((at, c)) = chars.next() {
        if !c.is_alphanumeric() {
            word.flush(text, at, &mut visit);
            previous = Some(c);
            continue;
        }
        let hump = c.is_uppercase()
            && previous.is_some_and(|p| {
                p.is_lowercase()
                    || p.is_ascii_digit() && !word.digits
                    || p.is_uppercase() && chars.peek().is_some_and(|&(_, n)| n.is_lowercase())
            });
        if hump {
            word.flush(text, at, &mut visit);
        }
        word.push(text, at, c);
        previous = Some(c);
    }
    word.flush(text, text.len(), &mut visit);
}

/// The word [`for_each_word`] is reading: where it starts in the text, and
/// its lowercase copy once one of its characters is not lowercase.
struct Word {
    start: Option<usize>,
    /// Whether the word is read into `lowered` (else it is a slice of the
    /// text).
    lowering: bool,
    lowered: String,
    /// Whether every character so far is an ASCII digit.
    digits: bool,
}

impl Default for Word {
    fn default() -> Self {
        Self {
            start: None,
            lowering: false,
            lowered: String::new(),
            digits: true,
        }
    }
}

impl Word {
    /// Adds `c`, at byte `at` of `text`, to the word.
    fn push(&mut self, text: &str, at: usize, c: char) {
        let start = *self.start.get_or_insert(at);
        self.digits &= c.is_ascii_digit();
        if self.lowering {
            self.lowered.extend(c.to_lowercase());
        } else if !(c.is_ascii_lowercase() || c.is_ascii_digit()) {
            self.lowered.clear();
            self.lowered.push_str(&text[start..at]);
            self.lowered.extend(c.to_lowercase());
            self.lowering = true;
        }
    }

    /// Visits the word (when there is one), which ends at byte `end` of
    /// `text`, and makes ready for the next.
    fn flush(&mut self, text: &str, end: usize, visit: &mut impl FnMut(&str)) {
        if let Some(start) = self.start.take() {
            if self.lowering {
                visit(&self.lowered);
            } else {
                visit(&text[start..end]);
            }
        }
        self.lowering = false;
        self.digits = true;
    }
}

/// `text` without HTML tags, URLs and the targets of Markdown links, which
/// say nothing about what a tool does.
pub(crate) fn strip_markup(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    // Only a `<` or an `h` may start what is left out; the text between
    // is copied whole.
    while let Some(at) = memchr::memchr2(b'<', b'h', rest.as_bytes()) {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        if rest.starts_with('<')
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
        // `<` and `h` are one byte each.
        out.push_str(&rest[..1]);
        rest = &rest[1..];
    }
    out.push_str(rest);
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
