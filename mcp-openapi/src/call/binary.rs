//! Binary argument values: base64 (standard or URL-safe, padded or not)
//! or a `data:` URI, as file parts and binary bodies take them.

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD_NO_PAD, URL_SAFE_NO_PAD};

/// Decodes base64 (standard or URL-safe, padded or not) or a `data:` URI;
/// gives the data URI's media type too.
pub(crate) fn decode_binary(text: &str) -> Result<(Option<String>, Vec<u8>), String> {
    let (media_type, payload) = match text
        .strip_prefix("data:")
        .and_then(|rest| rest.split_once(','))
    {
        Some((header, payload)) => {
            let Some(media_type) = header.strip_suffix(";base64") else {
                let decoded = percent_encoding::percent_decode_str(payload).collect();
                return Ok((Some(header.to_owned()).filter(|h| !h.is_empty()), decoded));
            };
            (
                Some(media_type.to_owned()).filter(|m| !m.is_empty()),
                payload,
            )
        }
        None => (None, text),
    };
    let compact: String = payload
        .chars()
        .filter(|c| !c.is_ascii_whitespace())
        .collect();
    let trimmed = compact.trim_end_matches('=');
    [STANDARD_NO_PAD, URL_SAFE_NO_PAD]
        .iter()
        .find_map(|engine| engine.decode(trimmed).ok())
        .map(|bytes| (media_type, bytes))
        .ok_or_else(|| "the value is neither base64 nor a data uri".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_base64_variants_and_data_uris() {
        assert_eq!(decode_binary("aGk=").map(|r| r.1), Ok(b"hi".to_vec()));
        assert_eq!(decode_binary("aGk").map(|r| r.1), Ok(b"hi".to_vec()));
        assert_eq!(
            decode_binary("data:text/plain;base64,aGk="),
            Ok((Some("text/plain".to_owned()), b"hi".to_vec()))
        );
        assert_eq!(decode_binary("data:,a%20b"), Ok((None, b"a b".to_vec())));
        assert!(decode_binary("not base64!").is_err());
    }
}
