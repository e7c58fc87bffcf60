//! `multipart/form-data` bodies: one part per property (per item for
//! arrays of files or scalars); file properties take base64, a `data:` URI
//! or `{"data", "filename", "contentType"}`; objects go as JSON parts.

use serde_json::{Map, Value};

use crate::call::binary::decode_binary;
use crate::call::style::scalar_text;
use crate::ir::{EncodingInfo, MediaTypeInfo};
use crate::media_type::{essence, is_json_media_type};

/// An encoded `multipart/form-data` body.
#[derive(Debug)]
pub(crate) struct Multipart {
    /// The boundary between parts (it occurs in no part).
    pub(crate) boundary: String,
    /// The parts, each after a boundary line, then the closing boundary.
    pub(crate) bytes: Vec<u8>,
}

impl Multipart {
    /// The `Content-Type` header value, with the boundary.
    pub(crate) fn content_type(&self) -> String {
        format!("multipart/form-data; boundary={}", self.boundary)
    }
}

/// Whether a multipart property is a file: its schema says binary content
/// or its encoding names a non-text content type.
fn is_file(schema: Option<&Value>, encoding: Option<&EncodingInfo>) -> bool {
    let binary_schema = schema.is_some_and(|s| {
        let items = s.get("items").unwrap_or(s);
        matches!(
            items.get("format").and_then(Value::as_str),
            Some("binary" | "byte")
        ) || items.get("contentEncoding").is_some()
            || items.get("contentMediaType").is_some()
    });
    let binary_encoding = encoding
        .and_then(|e| e.content_type.as_deref())
        .is_some_and(|ct| {
            let ct = essence(ct);
            !(ct.starts_with("text/") || is_json_media_type(&ct))
        });
    binary_schema || binary_encoding
}

struct Part {
    name: String,
    filename: Option<String>,
    content_type: Option<String>,
    bytes: Vec<u8>,
}

fn file_part(name: &str, value: &Value, declared: Option<&str>) -> Result<Part, String> {
    let (data, filename, content_type) = match value {
        Value::String(data) => (data.as_str(), None, None),
        Value::Object(file) => {
            let data = ["data", "content", "base64"]
                .iter()
                .find_map(|k| file.get(*k).and_then(Value::as_str))
                .ok_or_else(|| {
                    format!("file `{name}` needs a `data` string (base64 or data uri)")
                })?;
            let filename = file
                .get("filename")
                .and_then(Value::as_str)
                .map(str::to_owned);
            let content_type = ["contentType", "content_type", "mimeType"]
                .iter()
                .find_map(|k| file.get(*k).and_then(Value::as_str))
                .map(str::to_owned);
            (data, filename, content_type)
        }
        _ => {
            return Err(format!(
                "file `{name}` takes base64, a data uri or an object with `data`"
            ));
        }
    };
    let (uri_type, bytes) =
        decode_binary(data).map_err(|reason| format!("file `{name}`: {reason}"))?;
    let content_type = content_type
        .or(uri_type)
        .or(declared.map(str::to_owned))
        .unwrap_or_else(|| "application/octet-stream".to_owned());
    Ok(Part {
        name: name.to_owned(),
        filename: Some(filename.unwrap_or_else(|| name.to_owned())),
        content_type: Some(content_type),
        bytes,
    })
}

fn field_part(name: &str, value: &Value, declared: Option<&str>) -> Part {
    let (content_type, bytes) = match value {
        Value::Object(_) | Value::Array(_) => (
            Some(declared.unwrap_or("application/json").to_owned()),
            value.to_string(),
        ),
        other => (declared.map(str::to_owned), scalar_text(other).into_owned()),
    };
    Part {
        name: name.to_owned(),
        filename: None,
        content_type,
        bytes: bytes.into_bytes(),
    }
}

/// Encodes the properties of a body as parts; `media` (the document's
/// media type object, if any) gives the schema and the `encoding` objects.
pub(crate) fn encode(
    media: Option<&MediaTypeInfo>,
    fields: &Map<String, Value>,
) -> Result<Multipart, String> {
    let properties = media
        .and_then(|m| m.schema.as_ref())
        .and_then(|s| s.get("properties"));
    let mut parts = Vec::new();
    for (name, inner) in fields {
        if inner.is_null() {
            continue;
        }
        let encoding = media.and_then(|m| m.encoding.get(name));
        let declared = encoding.and_then(|e| e.content_type.as_deref());
        let file = is_file(properties.and_then(|p| p.get(name)), encoding);
        let items: Vec<&Value> = match inner {
            Value::Array(items)
                if file || items.iter().all(|i| !i.is_object() && !i.is_array()) =>
            {
                items.iter().collect()
            }
            other => vec![other],
        };
        for item in items {
            parts.push(if file {
                file_part(name, item, declared)?
            } else {
                field_part(name, item, declared)
            });
        }
    }
    let boundary = boundary_for(&parts);
    let mut bytes = Vec::new();
    for part in &parts {
        bytes.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
        let name = quote(&part.name);
        match &part.filename {
            Some(filename) => bytes.extend_from_slice(
                format!(
                    "Content-Disposition: form-data; name=\"{name}\"; filename=\"{}\"\r\n",
                    quote(filename)
                )
                .as_bytes(),
            ),
            None => bytes.extend_from_slice(
                format!("Content-Disposition: form-data; name=\"{name}\"\r\n").as_bytes(),
            ),
        }
        if let Some(content_type) = &part.content_type {
            bytes
                .extend_from_slice(format!("Content-Type: {}\r\n", quote(content_type)).as_bytes());
        }
        bytes.extend_from_slice(b"\r\n");
        bytes.extend_from_slice(&part.bytes);
        bytes.extend_from_slice(b"\r\n");
    }
    bytes.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    Ok(Multipart { boundary, bytes })
}

/// Header-safe text: quotes, CR and LF percent-encoded (as browsers do), so
/// a name or filename cannot break out of its header.
fn quote(text: &str) -> String {
    text.replace('"', "%22")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A boundary that occurs in no part: deterministic, so request building
/// stays a pure function.
fn boundary_for(parts: &[Part]) -> String {
    let occurs = |candidate: &str| {
        parts.iter().any(|p| {
            p.bytes
                .windows(candidate.len())
                .any(|w| w == candidate.as_bytes())
        })
    };
    (0u32..)
        .map(|n| format!("mcp-openapi-boundary-{n:08x}"))
        .find(|candidate| !occurs(candidate))
        .unwrap_or_default()
}
