//! RFC 6570 URI templates, parsed once and matched against concrete URIs
//! (the direction `resources/read` needs: URI in, variables out).

use std::collections::BTreeMap;
use std::fmt;

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

    /// The variables of `uri` when it matches the template.
    pub fn match_uri(&self, uri: &str) -> Option<BTreeMap<String, String>> {
        let mut vars = BTreeMap::new();
        match_parts(&self.parts, uri, &mut vars).then_some(vars)
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

fn match_parts(parts: &[Part], uri: &str, vars: &mut BTreeMap<String, String>) -> bool {
    let Some((first, rest)) = parts.split_first() else {
        return uri.is_empty();
    };
    match first {
        Part::Literal(literal) => uri
            .strip_prefix(literal.as_str())
            .is_some_and(|after| match_parts(rest, after, vars)),
        Part::Expression {
            operator: Some(op @ ('?' | '&')),
            names,
        } => match_query(*op, names, rest, uri, vars),
        Part::Expression { operator, names } => {
            let prefix = operator.filter(|op| *op != '+');
            let body = match prefix {
                Some(p) => match uri.strip_prefix(p) {
                    Some(body) => body,
                    // An undefined variable expands to nothing.
                    None => return match_parts(rest, uri, vars),
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
            let mut ends: Vec<usize> = body
                .char_indices()
                .map(|(i, _)| i)
                .skip(1)
                .chain([body.len()])
                .take_while(|&end| !body[..end].contains(forbidden))
                .collect();
            ends.reverse();
            for end in ends {
                let mut attempt = vars.clone();
                if bind(*operator, names, &body[..end], &mut attempt)
                    && match_parts(rest, &body[end..], &mut attempt)
                {
                    *vars = attempt;
                    return true;
                }
            }
            false
        }
    }
}

fn bind(
    operator: Option<char>,
    names: &[String],
    text: &str,
    vars: &mut BTreeMap<String, String>,
) -> bool {
    let separator = match operator {
        Some('.') => '.',
        Some('/') => '/',
        Some(';') => ';',
        _ => ',',
    };
    let values: Vec<&str> = text.split(separator).collect();
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

fn match_query(
    op: char,
    names: &[String],
    rest: &[Part],
    uri: &str,
    vars: &mut BTreeMap<String, String>,
) -> bool {
    let Some(query) = uri.strip_prefix(op) else {
        return match_parts(rest, uri, vars);
    };
    let end = query.find('#').unwrap_or(query.len());
    let mut attempt = vars.clone();
    for pair in query[..end].split('&') {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        if names.iter().any(|name| name == key) {
            attempt.insert(key.to_owned(), percent_decode(value));
        }
    }
    if match_parts(rest, &query[end..], &mut attempt) {
        *vars = attempt;
        return true;
    }
    false
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
