//! Upstream responses become tool results.
//!
//! The mapping is listed in the [`call`](crate::call) module docs; a
//! success that does not match the declared output schema is passed on in
//! the envelope [`tolerant_output_schema`] declares.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use http::{HeaderMap, StatusCode};
use mcp_core::tool::unvalidated::{self, SCHEMA_VIOLATIONS, UNVALIDATED_RESPONSE};
use mcp_core::{CallToolResult, content::Content, resource::ResourceContents};
use serde_json::{Value, json};

use crate::ir::JsonObject;
use crate::media_type::is_json_media_type;

/// The most bytes of a failed response's body quoted in the error.
const ERROR_EXCERPT: usize = 2_048;

/// The names of the envelope's properties.
const UNVALIDATED: &str = UNVALIDATED_RESPONSE;
const VIOLATIONS: &str = SCHEMA_VIOLATIONS;

/// The output schema a generated tool declares for a documented output
/// schema `declared`.
///
/// Real APIs do not always match their documents, and a successful call is
/// never turned into a failure for it. Tool generation passes each output
/// schema `D` through this function, which declares
/// `{"type": "object", "anyOf": [D, envelope]}` (with `D`'s `$defs` hoisted
/// to the root; see [`mcp_core::tool::unvalidated`]). A response that
/// matches `D` is sent as is; one that does not (or whose media type is not
/// JSON) is sent as the envelope `{"unvalidatedResponse": <the response>,
/// "schemaViolations": ["<pointer>: <message>", ...]}`. Either way
/// `structuredContent` is valid against the tool's `outputSchema`, so
/// clients that check it (the official Python SDK does) accept the result,
/// and the model still gets every byte plus the list of mismatches in the
/// text block.
pub fn tolerant_output_schema(declared: &JsonObject) -> JsonObject {
    unvalidated::tolerant_output_schema(declared)
}

/// [`tolerant_output_schema`] of a schema given by value (nothing copied).
pub(crate) fn tolerant_of(inner: JsonObject) -> JsonObject {
    unvalidated::tolerant(inner)
}

/// The documented part of a tool's output schema and whether the tool
/// declares the tolerant envelope.
#[derive(Clone, Debug)]
pub(crate) struct OutputSchema {
    pub(crate) declared: Value,
    pub(crate) tolerant: bool,
}

impl OutputSchema {
    pub(crate) fn of(schema: &JsonObject) -> Self {
        match unvalidated::documented(schema) {
            Some(declared) => {
                let mut declared_root = schema.clone();
                declared_root.remove("anyOf");
                if let Value::Object(inner) = declared {
                    declared_root.extend(inner.clone());
                }
                Self {
                    declared: Value::Object(declared_root),
                    tolerant: true,
                }
            }
            None => Self {
                declared: Value::Object(schema.clone()),
                tolerant: false,
            },
        }
    }
}

/// A response as read (a failure's body possibly cut at the size cap).
#[derive(Debug)]
pub(crate) struct ReadResponse {
    pub(crate) status: StatusCode,
    pub(crate) headers: HeaderMap,
    pub(crate) body: Vec<u8>,
    /// `Some(cap)` when a failure's body was longer than `cap` bytes and
    /// was cut (a success that long is an error before mapping).
    pub(crate) truncated: Option<usize>,
}

/// Checks a candidate against the declared output schema: the violations.
pub(crate) type Check<'a> = &'a dyn Fn(&Value) -> Vec<String>;

/// How to map: the tool's wrapping, its output schema check, and the URI
/// named by embedded resources.
pub(crate) struct Mapping<'a> {
    pub(crate) wrapped: bool,
    /// The output check and whether the tool declares the tolerant envelope.
    pub(crate) check: Option<(Check<'a>, bool)>,
    pub(crate) resource_uri: &'a str,
}

impl std::fmt::Debug for Mapping<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mapping")
            .field("wrapped", &self.wrapped)
            .finish_non_exhaustive()
    }
}

fn media_type(headers: &HeaderMap) -> String {
    headers
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

/// Maps a response to a tool result.
pub(crate) fn map_response(response: &ReadResponse, mapping: &Mapping<'_>) -> CallToolResult {
    if !response.status.is_success() {
        return failure(response);
    }
    let media_type = media_type(&response.headers);
    if is_json_media_type(&media_type) && !response.body.trim_ascii().is_empty() {
        return match serde_json::from_slice::<Value>(&response.body) {
            Ok(value) => json_success(value, mapping),
            Err(error) => not_json(response, &media_type, &error),
        };
    }
    let mut content = Vec::new();
    let text_body = media_type.is_empty()
        || media_type.starts_with("text/")
        || is_json_media_type(&media_type)
        || media_type.ends_with("/xml")
        || media_type.ends_with("+xml")
        || media_type == "application/javascript";
    let unvalidated = if response.body.is_empty() {
        Value::Null
    } else if text_body {
        let text = String::from_utf8_lossy(&response.body).into_owned();
        content.push(Content::text(text.clone()));
        Value::String(text)
    } else {
        let data = STANDARD.encode(&response.body);
        content.push(if media_type.starts_with("image/") {
            Content::image(data, media_type.clone())
        } else if media_type.starts_with("audio/") {
            Content::audio(data, media_type.clone())
        } else {
            Content::resource(ResourceContents::blob(
                mapping.resource_uri,
                Some(media_type.clone()),
                data,
            ))
        });
        Value::Null
    };
    let mut result = CallToolResult::success(content);
    if let Some((_, true)) = mapping.check {
        let reason = match (response.body.is_empty(), media_type.as_str()) {
            (true, _) => "the response has no content".to_owned(),
            (false, "") => "the response has no content type".to_owned(),
            (false, other) => format!("the response is `{other}`, not the documented JSON"),
        };
        result.structured_content = Some(json!({ UNVALIDATED: unvalidated, VIOLATIONS: [reason] }));
    }
    result
}

/// A success whose body says it is JSON and is not: an error quoting where
/// parsing failed and the start of the body.
fn not_json(
    response: &ReadResponse,
    media_type: &str,
    error: &serde_json::Error,
) -> CallToolResult {
    let status = response.status;
    let body = String::from_utf8_lossy(&response.body);
    let excerpt: String = body.chars().take(ERROR_EXCERPT).collect();
    let more = if excerpt.len() < body.len() {
        " [...]"
    } else {
        ""
    };
    CallToolResult::error(format!(
        "the upstream API answered {} {} with `{media_type}` content that is not valid JSON \
         ({error}):\n{excerpt}{more}",
        status.as_u16(),
        status.canonical_reason().unwrap_or("unknown status"),
    ))
}

fn json_success(value: Value, mapping: &Mapping<'_>) -> CallToolResult {
    let candidate = if mapping.wrapped {
        json!({ "result": value })
    } else {
        value.clone()
    };
    let Some((check, tolerant)) = mapping.check else {
        return match candidate {
            Value::Object(_) => CallToolResult::structured(candidate),
            other => CallToolResult::text(other.to_string()),
        };
    };
    let violations = check(&candidate);
    match (violations.is_empty(), tolerant, candidate.is_object()) {
        (true, _, _) | (false, false, true) => CallToolResult::structured(candidate),
        (false, false, false) => CallToolResult::text(value.to_string()),
        (false, true, _) => {
            let text = format!(
                "{value}\n\n[the response does not match the documented output schema: {}]",
                violations.join("; ")
            );
            let mut result = CallToolResult::text(text);
            result.structured_content = Some(json!({ UNVALIDATED: value, VIOLATIONS: violations }));
            result
        }
    }
}

fn failure(response: &ReadResponse) -> CallToolResult {
    let status = response.status;
    let reason = status.canonical_reason().unwrap_or("unknown status");
    let mut text = format!("the upstream API answered {} {reason}", status.as_u16());
    if status.is_redirection() {
        text.push_str(" (a redirect to another origin is not followed)");
    }
    let json = if is_json_media_type(&media_type(&response.headers)) && response.truncated.is_none()
    {
        serde_json::from_slice::<Value>(&response.body).ok()
    } else {
        None
    };
    let body_text = String::from_utf8_lossy(&response.body);
    if !body_text.trim().is_empty() {
        let excerpt: String = body_text.chars().take(ERROR_EXCERPT).collect();
        let more = if excerpt.len() < body_text.len() || response.truncated.is_some() {
            " [...]"
        } else {
            ""
        };
        text.push_str(&format!(":\n{excerpt}{more}"));
    }
    let mut result = CallToolResult::error(text);
    if let Some(body) = json.filter(|b| b.to_string().len() <= ERROR_EXCERPT * 8) {
        result.structured_content =
            Some(json!({"status": status.as_u16(), "reason": reason, "body": body}));
    }
    result
}

/// Replaces every occurrence of each secret in the result's texts and
/// structured strings with `[redacted]`.
pub(crate) fn redact(result: &mut CallToolResult, secrets: &[String]) {
    if secrets.is_empty() {
        return;
    }
    let scrub = |text: &mut String| {
        for secret in secrets {
            if text.contains(secret.as_str()) {
                *text = text.replace(secret.as_str(), "[redacted]");
            }
        }
    };
    for content in &mut result.content {
        if let Content::Text(block) = content {
            scrub(&mut block.text);
        }
    }
    if let Some(value) = &mut result.structured_content {
        scrub_value(value, &scrub);
    }
}

fn scrub_value(value: &mut Value, scrub: &impl Fn(&mut String)) {
    match value {
        Value::String(text) => scrub(text),
        Value::Array(items) => items.iter_mut().for_each(|v| scrub_value(v, scrub)),
        Value::Object(map) => map.values_mut().for_each(|v| scrub_value(v, scrub)),
        _ => {}
    }
}
