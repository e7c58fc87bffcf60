//! Names and literals as TypeScript spells them: string literals, property
//! keys (quoted unless identifiers) and type names.

use std::borrow::Cow;

use serde_json::Value;

/// `text` as a TypeScript string literal: JSON's escaping (quotes,
/// backslashes, control characters), which TypeScript reads the same.
pub(crate) fn string_literal(text: &str) -> String {
    Value::String(text.to_owned()).to_string()
}

/// Whether `name` is an identifier TypeScript reads without quotes
/// (ASCII letters, digits, `_` and `$`, not starting with a digit).
pub(crate) fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == '_' || first == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// `name` as a property key: as it is when it is an identifier (reserved
/// words included, which TypeScript accepts as keys), else quoted.
pub(crate) fn property_key(name: &str) -> Cow<'_, str> {
    if is_identifier(name) {
        Cow::Borrowed(name)
    } else {
        Cow::Owned(string_literal(name))
    }
}

/// The type name of the definition `key` (`simple-user` is `SimpleUser`):
/// words split at non-alphanumeric characters, each capitalized, `_` in
/// front when it would start with a digit or be empty.
pub(crate) fn type_name(key: &str) -> String {
    let mut name = String::with_capacity(key.len());
    for word in key.split(|c: char| !c.is_ascii_alphanumeric()) {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            name.push(first.to_ascii_uppercase());
            name.extend(chars);
        }
    }
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        name.insert(0, '_');
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_escape_quotes_backslashes_and_controls() {
        assert_eq!(string_literal("say \"hi\""), r#""say \"hi\"""#);
        assert_eq!(string_literal("a\\b\nc\u{1}"), r#""a\\b\nc\u0001""#);
        assert_eq!(string_literal("*/ é"), "\"*/ é\"");
    }

    #[test]
    fn keys_are_quoted_unless_identifiers() {
        assert_eq!(property_key("per_page"), "per_page");
        assert_eq!(property_key("$ref"), "$ref");
        assert_eq!(property_key("default"), "default");
        assert_eq!(property_key("+1"), "\"+1\"");
        assert_eq!(property_key("2fa"), "\"2fa\"");
        assert_eq!(property_key("content-type"), "\"content-type\"");
        assert_eq!(property_key(""), "\"\"");
        assert_eq!(property_key("naïve"), "\"naïve\"");
    }

    #[test]
    fn type_names_are_pascal_case_identifiers() {
        assert_eq!(type_name("simple-user"), "SimpleUser");
        assert_eq!(type_name("payment_intent"), "PaymentIntent");
        assert_eq!(type_name("issue"), "Issue");
        assert_eq!(type_name("3d_secure"), "_3dSecure");
        assert_eq!(type_name("Foo.Bar"), "FooBar");
        assert_eq!(type_name("–"), "_");
    }
}
