//! Media type names: the essence of a `Content-Type` value and whether it
//! is JSON.

/// The media type without parameters, lower case (`Application/JSON;
/// charset=utf-8` is `application/json`).
pub(crate) fn essence(media_type: &str) -> String {
    media_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

/// Whether `media_type` is JSON (`application/json` or a `+json` type).
pub(crate) fn is_json_media_type(media_type: &str) -> bool {
    let essence = essence(media_type);
    essence == "application/json" || essence.ends_with("+json")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_types_by_essence() {
        assert_eq!(
            essence(" Application/JSON; charset=utf-8"),
            "application/json"
        );
        assert!(is_json_media_type("application/vnd.api+json"));
        assert!(is_json_media_type("application/json; charset=utf-8"));
        assert!(!is_json_media_type("text/json-ish"));
    }
}
