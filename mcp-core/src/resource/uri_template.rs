//! RFC 6570 URI templates, parsed once and matched against concrete URIs
//! (the direction `resources/read` needs: URI in, variables out).

use std::collections::{BTreeMap, HashSet};
use std::fmt;

/// The longest URI a template matches: matching tries the ways adjacent
/// expressions can split the text, which must stay cheap for any input.
const MAX_URI_BYTES: usize = 4 * 1024;

/// The most work one match does, counted in states (parts left, text left)
/// visited and bytes scanned for where a value may end: adjacent
/// expressions can split a text in as many ways as the product of their
/// lengths, so a URI the matcher cannot decide within this much is taken
/// as not matching. A template whose expressions are separated by literals
/// needs about one unit per byte of the URI.
const MAX_WORK: usize = 256 * 1024;

/// A parsed URI template such as `file:///logs/{date}/{+path}{?lines}`.
///
/// Matching supports every RFC 6570 operator: simple `{x}` (one value with
/// no `/`, `?`, `#` or `&`), reserved `{+x}` and fragment `{#x}` (any
/// characters), label `{.x}`, path segments `{/x}`, path parameters `{;x}`
/// and queries `{?x,y}` / `{&x}`. Values are percent-decoded.
///
/// ```
/// use mcp_core::resource::UriTemplate;
///
/// let template = UriTemplate::parse("test://template/{id}/data")?;
/// let vars = template.match_uri("test://template/123/data").unwrap();
/// assert_eq!(vars["id"], "123");
/// assert!(template.match_uri("test://template/1/2/data").is_none());
/// assert_eq!(template.variables().collect::<Vec<_>>(), ["id"]);
/// # Ok::<(), mcp_core::resource::UriTemplateError>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct UriTemplate {
    source: String,
    parts: Vec<Part>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    Literal(String),
    Expression {
        operator: Option<char>,
        names: Vec<String>,
    },
}

/// Why a string is not a URI template.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid URI template `{template}`: {reason}")]
pub struct UriTemplateError {
    /// The rejected template.
    pub template: String,
    /// What is wrong with it.
    pub reason: String,
}

impl UriTemplate {
    /// Parses `template`; unbalanced braces, empty expressions and invalid
    /// variable names are errors.
    pub fn parse(template: &str) -> Result<Self, UriTemplateError> {
        let fail = |reason: String| UriTemplateError {
            template: template.to_owned(),
            reason,
        };
        let mut parts = Vec::new();
        let mut rest = template;
        while !rest.is_empty() {
            match rest.find(['{', '}']) {
                None => {
                    parts.push(Part::Literal(rest.to_owned()));
                    rest = "";
                }
                Some(at) if rest.as_bytes()[at] == b'}' => {
                    return Err(fail(format!(
                        "unmatched `}}` at byte {}",
                        template.len() - rest.len() + at
                    )));
                }
                Some(at) => {
                    if at > 0 {
                        parts.push(Part::Literal(rest[..at].to_owned()));
                    }
                    let Some(end) = rest[at..].find('}') else {
                        return Err(fail("unclosed `{`".to_owned()));
                    };
                    parts.push(parse_expression(&rest[at + 1..at + end]).map_err(fail)?);
                    rest = &rest[at + end + 1..];
                }
            }
        }
        Ok(Self {
            source: template.to_owned(),
            parts,
        })
    }

    /// The template as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// The variable names, in order of appearance.
    pub fn variables(&self) -> impl Iterator<Item = &str> {
        self.parts
            .iter()
            .flat_map(|part| match part {
                Part::Literal(_) => [].iter(),
                Part::Expression { names, .. } => names.iter(),
            })
            .map(String::as_str)
    }

    /// The variables of `uri` when it matches the template (a URI longer
    /// than 4 KiB matches none, and so does one that adjacent expressions
    /// could split in more ways than matching tries within a bounded
    /// amount of work).
    pub fn match_uri(&self, uri: &str) -> Option<BTreeMap<String, String>> {
        if uri.len() > MAX_URI_BYTES {
            return None;
        }
        let mut vars = BTreeMap::new();
        let mut matcher = Matcher {
            failed: HashSet::new(),
            work: 0,
        };
        matcher.parts(&self.parts, uri, &mut vars).then_some(vars)
    }
}

impl fmt::Debug for UriTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("UriTemplate").field(&self.source).finish()
    }
}

impl fmt::Display for UriTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

fn parse_expression(body: &str) -> Result<Part, String> {
    let operator = body.chars().next().filter(|c| "+#./;?&".contains(*c));
    let list = operator.map_or(body, |op| &body[op.len_utf8()..]);
    let names: Vec<String> = list
        .split(',')
        .map(|spec| {
            spec.split(':')
                .next()
                .unwrap_or(spec)
                .trim_end_matches('*')
                .to_owned()
        })
        .collect();
    for name in &names {
        let valid = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '%');
        if !valid {
            return Err(format!("invalid variable name `{name}` in `{{{body}}}`"));
        }
    }
    Ok(Part::Expression { operator, names })
}

/// Matches parts against text, remembering the states that failed: whether
/// the parts left match the text left does not depend on the variables
/// bound so far, so each state (parts left, text left) is tried once,
/// within [`MAX_WORK`].
struct Matcher {
    failed: HashSet<(usize, usize)>,
    work: usize,
}

impl Matcher {
    fn parts(&mut self, parts: &[Part], uri: &str, vars: &mut BTreeMap<String, String>) -> bool {
        let state = (parts.len(), uri.len());
        if self.work >= MAX_WORK || self.failed.contains(&state) {
            return false;
        }
        self.work += 1;
        let matched = self.first(parts, uri, vars);
        if !matched {
            self.failed.insert(state);
        }
        matched
    }

    fn first(&mut self, parts: &[Part], uri: &str, vars: &mut BTreeMap<String, String>) -> bool {
        let Some((first, rest)) = parts.split_first() else {
            return uri.is_empty();
        };
        match first {
            Part::Literal(literal) => uri
                .strip_prefix(literal.as_str())
                .is_some_and(|after| self.parts(rest, after, vars)),
            Part::Expression {
                operator: Some(op @ ('?' | '&')),
                names,
            } => self.query(*op, names, rest, uri, vars),
            Part::Expression { operator, names } => {
                let prefix = operator.filter(|op| *op != '+');
                let body = match prefix {
                    Some(p) => match uri.strip_prefix(p) {
                        Some(body) => body,
                        // An undefined variable expands to nothing.
                        None => return self.parts(rest, uri, vars),
                    },
                    None => uri,
                };
                // One value never holds its own separator; a list of several
                // values is split on it by `bind`.
                let single = names.len() == 1;
                let forbidden: &[char] = match operator {
                    None => &['/', '?', '#', '&'],
                    Some('.') if single => &['/', '?', '#', '&', '.'],
                    Some('.') => &['/', '?', '#', '&'],
                    Some('/' | ';') if single => &['/', '?', '#'],
                    Some('/' | ';') => &['?', '#'],
                    _ => &[],
                };
                let limit = body.find(forbidden).unwrap_or(body.len());
                self.work += limit;
                // What must follow the value, when that is known.
                let next = match rest.first() {
                    None => Some(""),
                    Some(Part::Literal(literal)) => Some(literal.as_str()),
                    Some(Part::Expression { .. }) => None,
                };
                // Each possible end of the value (a char boundary, the value
                // empty only when nothing is left) and the separators before it.
                let separator = separator(*operator);
                if body[..limit].matches(separator).count() + 1 < names.len() {
                    return false;
                }
                let mut ends = Vec::new();
                let mut separators = 0;
                for (at, c) in body[..limit].char_indices() {
                    if at > 0 {
                        ends.push((at, separators));
                    }
                    separators += usize::from(c == separator);
                }
                if limit > 0 || body.is_empty() {
                    ends.push((limit, separators));
                }
                for &(end, separators) in ends.iter().rev() {
                    if separators + 1 != names.len()
                        || next.is_some_and(|next| !body[end..].starts_with(next))
                    {
                        continue;
                    }
                    // The rest first: it does not depend on this value, and
                    // it is remembered when it fails. Later values win, as
                    // they would bound in order.
                    let mut later = BTreeMap::new();
                    let mut value = BTreeMap::new();
                    if self.parts(rest, &body[end..], &mut later)
                        && bind(*operator, names, &body[..end], &mut value)
                    {
                        vars.extend(value);
                        vars.extend(later);
                        return true;
                    }
                }
                false
            }
        }
    }

    fn query(
        &mut self,
        op: char,
        names: &[String],
        rest: &[Part],
        uri: &str,
        vars: &mut BTreeMap<String, String>,
    ) -> bool {
        let Some(query) = uri.strip_prefix(op) else {
            return self.parts(rest, uri, vars);
        };
        let end = query.find('#').unwrap_or(query.len());
        let mut attempt = vars.clone();
        for pair in query[..end].split('&') {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            if names.iter().any(|name| name == key) {
                attempt.insert(key.to_owned(), percent_decode(value));
            }
        }
        if self.parts(rest, &query[end..], &mut attempt) {
            *vars = attempt;
            return true;
        }
        false
    }
}

/// What separates the values of a list expanded with `operator`.
fn separator(operator: Option<char>) -> char {
    match operator {
        Some('.') => '.',
        Some('/') => '/',
        Some(';') => ';',
        _ => ',',
    }
}

fn bind(
    operator: Option<char>,
    names: &[String],
    text: &str,
    vars: &mut BTreeMap<String, String>,
) -> bool {
    let values: Vec<&str> = text.split(separator(operator)).collect();
    if values.len() != names.len() {
        return false;
    }
    for (name, value) in names.iter().zip(values) {
        let value = match operator {
            Some(';') => match value.split_once('=') {
                Some((key, value)) if key == name => value,
                None if value == name => "",
                _ => return false,
            },
            _ => value,
        };
        vars.insert(name.clone(), percent_decode(value));
    }
    true
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).copied().and_then(hex),
            bytes.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(high), Some(low)) => {
                out.push((high * 16 + low) as u8);
                i += 3;
            }
            (byte, _, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(template: &str, uri: &str) -> Option<Vec<(String, String)>> {
        UriTemplate::parse(template)
            .unwrap()
            .match_uri(uri)
            .map(|v| v.into_iter().collect())
    }

    fn pairs(list: &[(&str, &str)]) -> Option<Vec<(String, String)>> {
        Some(
            list.iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
        )
    }

    #[test]
    fn adjacent_expressions_match_without_trying_every_split_again() {
        // Found by the `uri_template` fuzz target: trying every split of
        // every expression again took exponential time.
        let fuzzed = "\n\0\0a\n\0{xa,\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0}y}\n\n\0\0e.example.org\0\0\0ef";
        assert_eq!(vars("{var:3}{x,y}{Xar:3}{x,y}", fuzzed), None);
        let long = "x".repeat(MAX_URI_BYTES - 1);
        assert_eq!(vars("{a}{b,c}{d}{e,f}", &format!("{long}!")), None);
        let three = vars("{a}{b}{c}", &long).unwrap();
        let lengths: Vec<usize> = three.iter().map(|(_, value)| value.len()).collect();
        assert_eq!(lengths, [MAX_URI_BYTES - 1, 0, 0]);
    }

    #[test]
    fn many_adjacent_expressions_give_up_within_the_state_bound() {
        // Found by the `uri_template` fuzz target: 70 adjacent expressions
        // matched against the template's own text took 30 s.
        let template = "{vb}{usr}{vaue}{1s}{useer}{uuee}{user}{uva}{usa}{usse1}".repeat(8);
        let parsed = UriTemplate::parse(&template).unwrap();
        let mut matcher = Matcher {
            failed: HashSet::new(),
            work: 0,
        };
        let mut bound = BTreeMap::new();
        matcher.parts(&parsed.parts, &template, &mut bound);
        assert!(
            matcher.work <= MAX_WORK + template.len(),
            "{}",
            matcher.work
        );
        // A 4 KiB URI against a few adjacent expressions: bounded too.
        let uri = format!("{}/", "x".repeat(MAX_URI_BYTES - 1));
        assert_eq!(vars("{a}{b}{c}{d}", &uri), None);
        // Ordinary templates still match.
        assert_eq!(vars("{a}{b}{c}", "xyz").map(|vars| vars.len()), Some(3));
    }

    #[test]
    fn a_uri_longer_than_the_limit_matches_nothing() {
        let path = "a".repeat(MAX_URI_BYTES);
        assert_eq!(vars("{+path}", &path[1..]), pairs(&[("path", &path[1..])]));
        assert_eq!(vars("{+path}", &path), pairs(&[("path", &path)]));
        assert_eq!(vars("{+path}", &format!("{path}a")), None);
    }

    #[test]
    fn operators_match_their_expansions() {
        assert_eq!(
            vars("file:///{+path}", "file:///a/b%20c.txt"),
            pairs(&[("path", "a/b c.txt")])
        );
        assert_eq!(
            vars("x://{a}/{b}", "x://1/2"),
            pairs(&[("a", "1"), ("b", "2")])
        );
        assert_eq!(vars("x://{a}", "x://1/2"), None);
        assert_eq!(
            vars("x://s{?q,n}", "x://s?q=rust&n=3"),
            pairs(&[("n", "3"), ("q", "rust")])
        );
        assert_eq!(vars("x://s{?q}", "x://s"), pairs(&[]));
        assert_eq!(vars("x://f{.ext}", "x://f.json"), pairs(&[("ext", "json")]));
        assert_eq!(
            vars("x://r{/a,b}", "x://r/1/2"),
            pairs(&[("a", "1"), ("b", "2")])
        );
        assert_eq!(vars("x://m{;k}", "x://m;k=v"), pairs(&[("k", "v")]));
        assert_eq!(vars("x://d{#frag}", "x://d#top"), pairs(&[("frag", "top")]));
        assert_eq!(
            vars("x://{a},{b}", "x://1,2"),
            pairs(&[("a", "1"), ("b", "2")])
        );
    }

    #[test]
    fn malformed_templates_are_errors() {
        for bad in ["x://{a", "x://a}", "x://{}", "x://{a b}"] {
            let error = UriTemplate::parse(bad).unwrap_err();
            assert_eq!(error.template, bad);
        }
    }
}
