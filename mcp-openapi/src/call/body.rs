//! Request bodies: a JSON argument value encoded in the operation's media
//! type (see the [`call`](crate::call) module docs for what each media type
//! takes).

use serde_json::{Map, Value};

use crate::call::binary::decode_binary;
use crate::call::error::CallError;
use crate::call::multipart;
use crate::call::style::{query_pairs, scalar_text};
use crate::ir::{EncodingInfo, MediaTypeInfo, ParameterStyle};
use crate::media_type::{essence, is_json_media_type};

/// An encoded body with its `Content-Type` header value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EncodedBody {
    /// The `Content-Type` to send (with the multipart boundary).
    pub(crate) content_type: String,
    /// The bytes.
    pub(crate) bytes: Vec<u8>,
}

/// The media type to send among those a body accepts: JSON first, then form,
/// multipart, text, and else the first one listed.
pub(crate) fn preferred_media_type(content: &[MediaTypeInfo]) -> Option<&MediaTypeInfo> {
    let rank = |media: &MediaTypeInfo| {
        let essence = essence(&media.media_type);
        match essence.as_str() {
            _ if is_json_media_type(&essence) => 0,
            "application/x-www-form-urlencoded" => 1,
            "multipart/form-data" => 2,
            _ if essence.starts_with("text/") => 3,
            _ => 4,
        }
    };
    content
        .iter()
        .enumerate()
        .min_by_key(|(index, media)| (rank(media), *index))
        .map(|(_, media)| media)
}

/// Encodes `value` as a body of `media_type`; `media` (the document's media
/// type object, if any) gives the schema and the `encoding` objects.
pub(crate) fn encode_body(
    media_type: &str,
    media: Option<&MediaTypeInfo>,
    value: &Value,
) -> Result<EncodedBody, CallError> {
    let essence = essence(media_type);
    let fail = |reason: String| CallError::Body {
        media_type: media_type.to_owned(),
        reason,
    };
    let bytes = match essence.as_str() {
        _ if is_json_media_type(&essence) => {
            serde_json::to_vec(value).map_err(|e| fail(e.to_string()))?
        }
        "application/x-www-form-urlencoded" => {
            form_urlencoded(media, fields(value).map_err(fail)?).into_bytes()
        }
        "multipart/form-data" => {
            let body = multipart::encode(media, fields(value).map_err(fail)?).map_err(fail)?;
            return Ok(EncodedBody {
                content_type: body.content_type(),
                bytes: body.bytes,
            });
        }
        _ if is_textual(&essence) => match value {
            Value::Object(_) | Value::Array(_) if !essence.starts_with("text/") => {
                return Err(fail(format!(
                    "a `{essence}` body takes the document as a string"
                )));
            }
            other => scalar_text(other).into_owned().into_bytes(),
        },
        _ => match value {
            Value::String(text) => decode_binary(text).map_err(fail)?.1,
            _ => {
                return Err(fail(
                    "a binary body takes a base64 string or a data uri".to_owned(),
                ));
            }
        },
    };
    Ok(EncodedBody {
        content_type: media_type.to_owned(),
        bytes,
    })
}

fn is_textual(essence: &str) -> bool {
    essence.starts_with("text/") || essence.ends_with("/xml") || essence.ends_with("+xml")
}

/// The properties of a form or multipart body.
fn fields(value: &Value) -> Result<&Map<String, Value>, String> {
    value
        .as_object()
        .ok_or_else(|| "the body must be an object".to_owned())
}

fn form_urlencoded(media: Option<&MediaTypeInfo>, fields: &Map<String, Value>) -> String {
    let mut pairs = Vec::new();
    for (name, inner) in fields {
        if inner.is_null() {
            continue;
        }
        let encoding = media.and_then(|m| m.encoding.get(name));
        let content_type = encoding.and_then(|e| e.content_type.as_deref());
        match content_type {
            Some(ct)
                if is_json_media_type(ct) || (!inner.is_string() && !is_textual(&essence(ct))) =>
            {
                pairs.extend(query_pairs(
                    name,
                    &Value::String(inner.to_string()),
                    ParameterStyle::Form,
                    true,
                    false,
                ));
            }
            _ => {
                let default = EncodingInfo::default();
                let encoding = encoding.unwrap_or(&default);
                let style = encoding.style.unwrap_or(ParameterStyle::Form);
                let explode = encoding.explode.unwrap_or(style == ParameterStyle::Form);
                pairs.extend(query_pairs(
                    name,
                    inner,
                    style,
                    explode,
                    encoding.allow_reserved,
                ));
            }
        }
    }
    pairs.join("&")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn xml_takes_a_string() {
        let xml = encode_body("application/xml", None, &json!("<pet/>")).map(|b| b.bytes);
        assert_eq!(xml.ok(), Some(b"<pet/>".to_vec()));
        assert!(encode_body("application/xml", None, &json!({"name": "x"})).is_err());
        let text = encode_body("text/plain", None, &json!({"a": 1})).map(|b| b.bytes);
        assert_eq!(text.ok(), Some(br#"{"a":1}"#.to_vec()));
    }

    #[test]
    fn prefers_json() {
        let media = |t: &str| MediaTypeInfo {
            media_type: t.to_owned(),
            schema: None,
            encoding: Default::default(),
        };
        let content = [
            media("application/xml"),
            media("application/x-www-form-urlencoded"),
            media("application/vnd.api+json"),
        ];
        assert_eq!(
            preferred_media_type(&content).map(|m| m.media_type.as_str()),
            Some("application/vnd.api+json")
        );
    }

    #[test]
    fn form_body_uses_encoding_objects() {
        let mut media = MediaTypeInfo {
            media_type: "application/x-www-form-urlencoded".to_owned(),
            schema: None,
            encoding: Default::default(),
        };
        media.encoding.insert(
            "meta".to_owned(),
            EncodingInfo {
                style: Some(ParameterStyle::DeepObject),
                explode: Some(true),
                ..EncodingInfo::default()
            },
        );
        media.encoding.insert(
            "json".to_owned(),
            EncodingInfo {
                content_type: Some("application/json".to_owned()),
                ..EncodingInfo::default()
            },
        );
        let value =
            json!({"name": "a b&c", "tags": ["x", "y"], "meta": {"k": "v"}, "json": {"a": 1}});
        let body = encode_body(&media.media_type, Some(&media), &value)
            .map(|b| String::from_utf8(b.bytes));
        assert_eq!(
            body.ok().and_then(Result::ok).as_deref(),
            Some("name=a%20b%26c&tags=x&tags=y&meta[k]=v&json=%7B%22a%22%3A1%7D")
        );
    }
}
