//! Parameter serialization exactly as the OpenAPI 3.1 `style` / `explode`
//! tables say, with percent-encoding that keeps every value inside its path
//! segment or query component.
//!
//! Values are rendered from JSON: strings as they are, numbers and booleans
//! in their JSON spelling, `null` as the empty string, and values nested
//! deeper than a style can express (an object inside an array for `form`)
//! as compact JSON text. `deepObject` renders nested objects and arrays as
//! `name[key][sub]=v` and `name[key][0]=v` (the bracket-index convention of
//! Rails, Stripe and `qs`).

use std::borrow::Cow;
use std::fmt::Write as _;

use percent_encoding::{AsciiSet, CONTROLS, NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::Value;

use crate::ir::ParameterStyle;

/// Everything but RFC 3986 unreserved characters (`A-Z a-z 0-9 - . _ ~`).
const COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// `allowReserved`: RFC 3986 reserved characters pass, except `#` (it would
/// end the query) and `%` (handled separately: only valid triples pass).
const RESERVED_ALLOWED: &AsciiSet = &COMPONENT
    .remove(b':')
    .remove(b'/')
    .remove(b'?')
    .remove(b'[')
    .remove(b']')
    .remove(b'@')
    .remove(b'!')
    .remove(b'$')
    .remove(b'&')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')')
    .remove(b'*')
    .remove(b'+')
    .remove(b',')
    .remove(b';')
    .remove(b'=');

/// Bytes a cookie value may not hold (RFC 6265 `cookie-octet`), plus `%`.
const COOKIE: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b',')
    .add(b';')
    .add(b'\\')
    .add(b'%')
    .add(b'=');

/// Percent-encodes `text` so that it is one opaque URL component: `/`, `?`,
/// `#`, `%`, `;`, `,`, `=` and `&` are all encoded.
pub(crate) fn encode_component(text: &str) -> String {
    utf8_percent_encode(text, COMPONENT).to_string()
}

fn encode_query(text: &str, allow_reserved: bool) -> String {
    if !allow_reserved {
        return encode_component(text);
    }
    // Reserved characters and valid percent-triples pass; everything else
    // (including a `%` that starts no triple) is encoded.
    let mut out = String::with_capacity(text.len());
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%' {
            out.extend(utf8_percent_encode(&text[start..index], RESERVED_ALLOWED));
            let triple = bytes
                .get(index + 1..index + 3)
                .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit));
            out.push_str(if triple { "%" } else { "%25" });
            start = index + 1;
        }
        index += 1;
    }
    out.extend(utf8_percent_encode(&text[start..], RESERVED_ALLOWED));
    out
}

fn encode_cookie(text: &str) -> String {
    utf8_percent_encode(text, COOKIE).to_string()
}

/// The text of a scalar (and the JSON text of anything nested).
pub(crate) fn scalar_text(value: &Value) -> Cow<'_, str> {
    match value {
        Value::String(text) => Cow::Borrowed(text),
        Value::Null => Cow::Borrowed(""),
        Value::Bool(flag) => Cow::Borrowed(if *flag { "true" } else { "false" }),
        Value::Number(number) => Cow::Owned(number.to_string()),
        other => Cow::Owned(other.to_string()),
    }
}

/// A value as the tables see it.
enum Shape<'a> {
    Scalar(Cow<'a, str>),
    Array(Vec<Cow<'a, str>>),
    Object(Vec<(&'a str, Cow<'a, str>)>),
}

fn shape(value: &Value) -> Shape<'_> {
    match value {
        Value::Array(items) => Shape::Array(items.iter().map(scalar_text).collect()),
        Value::Object(map) => Shape::Object(
            map.iter()
                .map(|(k, v)| (k.as_str(), scalar_text(v)))
                .collect(),
        ),
        other => Shape::Scalar(scalar_text(other)),
    }
}

fn join(items: &[Cow<'_, str>], encode: impl Fn(&str) -> String, separator: &str) -> String {
    items
        .iter()
        .map(|item| encode(item))
        .collect::<Vec<_>>()
        .join(separator)
}

fn join_pairs(
    pairs: &[(&str, Cow<'_, str>)],
    encode: impl Fn(&str) -> String,
    inner: &str,
    separator: &str,
) -> String {
    let rendered: Vec<String> = pairs
        .iter()
        .map(|(key, value)| format!("{}{inner}{}", encode(key), encode(value)))
        .collect();
    rendered.join(separator)
}

/// Renders a path parameter (`simple`, `label`, `matrix`) as the encoded
/// text that replaces `{name}` in the path template. Other styles fall back
/// to `simple`. The result never contains `/`, `?` or `#`.
pub(crate) fn path_value(
    name: &str,
    value: &Value,
    style: ParameterStyle,
    explode: bool,
) -> String {
    let name = encode_component(name);
    let e = |text: &str| encode_component(text);
    match (style, shape(value)) {
        (ParameterStyle::Label, Shape::Scalar(text)) => format!(".{}", e(&text)),
        (ParameterStyle::Label, Shape::Array(items)) => {
            format!(".{}", join(&items, e, if explode { "." } else { "," }))
        }
        (ParameterStyle::Label, Shape::Object(pairs)) if explode => {
            format!(".{}", join_pairs(&pairs, e, "=", "."))
        }
        (ParameterStyle::Label, Shape::Object(pairs)) => {
            format!(".{}", join_pairs(&pairs, e, ",", ","))
        }
        (ParameterStyle::Matrix, Shape::Scalar(text)) if text.is_empty() => format!(";{name}"),
        (ParameterStyle::Matrix, Shape::Scalar(text)) => format!(";{name}={}", e(&text)),
        (ParameterStyle::Matrix, Shape::Array(items)) if items.is_empty() => format!(";{name}"),
        (ParameterStyle::Matrix, Shape::Array(items)) if explode => {
            items.iter().fold(String::new(), |mut out, item| {
                let _ = write!(out, ";{name}={}", e(item));
                out
            })
        }
        (ParameterStyle::Matrix, Shape::Array(items)) => {
            format!(";{name}={}", join(&items, e, ","))
        }
        (ParameterStyle::Matrix, Shape::Object(pairs)) if pairs.is_empty() => format!(";{name}"),
        (ParameterStyle::Matrix, Shape::Object(pairs)) if explode => {
            format!(";{}", join_pairs(&pairs, e, "=", ";"))
        }
        (ParameterStyle::Matrix, Shape::Object(pairs)) => {
            format!(";{name}={}", join_pairs(&pairs, e, ",", ","))
        }
        (_, shape) => simple(shape, explode, e),
    }
}

fn simple(shape: Shape<'_>, explode: bool, encode: impl Fn(&str) -> String) -> String {
    match shape {
        Shape::Scalar(text) => encode(&text),
        Shape::Array(items) => join(&items, encode, ","),
        Shape::Object(pairs) if explode => join_pairs(&pairs, encode, "=", ","),
        Shape::Object(pairs) => join_pairs(&pairs, encode, ",", ","),
    }
}

/// Renders a header parameter (`simple`): raw text, not percent-encoded. The
/// caller must still check that it is a valid header value.
pub(crate) fn header_value(value: &Value, explode: bool) -> String {
    simple(shape(value), explode, str::to_owned)
}

/// Renders a query parameter as encoded `key=value` pieces, to be joined
/// with `&`. `form` (default), `spaceDelimited`, `pipeDelimited` and
/// `deepObject` follow the tables; path styles fall back to `form`.
pub(crate) fn query_pairs(
    name: &str,
    value: &Value,
    style: ParameterStyle,
    explode: bool,
    allow_reserved: bool,
) -> Vec<String> {
    let e = |text: &str| encode_query(text, allow_reserved);
    let key = e(name);
    match (style, value) {
        (ParameterStyle::DeepObject, Value::Object(_)) => {
            let mut out = Vec::new();
            deep(&key, value, &e, &mut out);
            out
        }
        (
            ParameterStyle::SpaceDelimited | ParameterStyle::PipeDelimited,
            Value::Array(_) | Value::Object(_),
        ) if !explode => {
            let separator = if style == ParameterStyle::SpaceDelimited {
                "%20"
            } else {
                "|"
            };
            let joined = match shape(value) {
                Shape::Array(items) => join(&items, e, separator),
                Shape::Object(pairs) => join_pairs(&pairs, e, separator, separator),
                Shape::Scalar(text) => e(&text),
            };
            vec![format!("{key}={joined}")]
        }
        _ => form(&key, value, explode, e),
    }
}

fn form(key: &str, value: &Value, explode: bool, e: impl Fn(&str) -> String) -> Vec<String> {
    match shape(value) {
        Shape::Scalar(text) => vec![format!("{key}={}", e(&text))],
        Shape::Array(items) if items.is_empty() => vec![format!("{key}=")],
        Shape::Array(items) if explode => items
            .iter()
            .map(|item| format!("{key}={}", e(item)))
            .collect(),
        Shape::Array(items) => vec![format!("{key}={}", join(&items, e, ","))],
        Shape::Object(pairs) if pairs.is_empty() => vec![format!("{key}=")],
        Shape::Object(pairs) if explode => pairs
            .iter()
            .map(|(k, v)| format!("{}={}", e(k), e(v)))
            .collect(),
        Shape::Object(pairs) => vec![format!("{key}={}", join_pairs(&pairs, e, ",", ","))],
    }
}

fn deep(prefix: &str, value: &Value, e: &impl Fn(&str) -> String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                deep(&format!("{prefix}[{}]", e(key)), inner, e, out);
            }
        }
        Value::Array(items) => {
            for (index, inner) in items.iter().enumerate() {
                deep(&format!("{prefix}[{index}]"), inner, e, out);
            }
        }
        scalar => out.push(format!("{prefix}={}", e(&scalar_text(scalar)))),
    }
}

/// Renders a cookie parameter (`form`) as `name=value` pieces, to be joined
/// with `; `. Values are percent-encoded where a cookie value may not hold
/// the byte.
pub(crate) fn cookie_pairs(name: &str, value: &Value, explode: bool) -> Vec<String> {
    form(&encode_cookie(name), value, explode, encode_cookie)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn allow_reserved_keeps_reserved_and_triples_but_not_hash() {
        assert_eq!(
            encode_query("a/b?c=d&e#f %41 %zz", true),
            "a/b?c=d&e%23f%20%41%20%25zz"
        );
        assert_eq!(encode_query("a/b?c=d&e#f", false), "a%2Fb%3Fc%3Dd%26e%23f");
    }

    #[test]
    fn nested_deep_object() {
        let value = json!({"a": {"b": 1, "c": [true, "x y"]}, "d": null});
        let pairs = query_pairs("f", &value, ParameterStyle::DeepObject, true, false);
        assert_eq!(
            pairs,
            ["f[a][b]=1", "f[a][c][0]=true", "f[a][c][1]=x%20y", "f[d]="]
        );
    }

    #[test]
    fn traversal_stays_in_segment() {
        for attack in [
            "../admin",
            "a/b",
            "%2e%2e",
            "?x=1",
            "#frag",
            "http://evil.example/x",
        ] {
            let rendered = path_value("p", &json!(attack), ParameterStyle::Simple, false);
            assert!(!rendered.contains(['/', '?', '#']), "{rendered}");
            assert!(!rendered.contains("%2e"), "{rendered}");
        }
    }

    #[test]
    fn cookie_values_are_encoded() {
        assert_eq!(
            cookie_pairs("s", &json!("a; b=c"), true),
            ["s=a%3B%20b%3Dc"]
        );
    }
}
