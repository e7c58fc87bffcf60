//! Request building: a route, its argument binding and the call's
//! arguments become the exact HTTP request the document describes. Pure:
//! no IO, no clock, no randomness.

use http::header::{ACCEPT, CONTENT_TYPE, COOKIE};
use http::{HeaderMap, HeaderName, HeaderValue, Method};
use serde_json::Value;
use url::Url;

use crate::call::body::{encode_body, preferred_media_type};
use crate::call::error::CallError;
use crate::call::style::{cookie_pairs, encode_component, header_value, path_value, query_pairs};
use crate::ir::{
    HttpRoute, JsonObject, ParameterInfo, ParameterLocation, RequestBinding, RequestPart,
};
use crate::media_type::is_json_media_type;

/// An HTTP request ready to send.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PreparedRequest {
    /// The method.
    pub method: Method,
    /// The full URL: base, path with parameters, query.
    pub url: Url,
    /// Parameter headers, `Cookie` and `Content-Type`.
    pub headers: HeaderMap,
    /// The body, when the operation has one and arguments fill it.
    pub body: Option<Vec<u8>>,
}

/// Builds the request of `route` for `arguments`, sent to `base` (the
/// configured base URL, else the route's first server).
///
/// Absent and `null` arguments are left out. Path values are percent-encoded
/// so that they never leave their segment, and a value that would make a
/// `.`/`..` segment is refused; header values with CR, LF or other control
/// characters are refused.
pub fn build_request(
    route: &HttpRoute,
    binding: &RequestBinding,
    base: &Url,
    arguments: &JsonObject,
) -> Result<PreparedRequest, CallError> {
    let mut path_values: Vec<(&str, String)> = Vec::new();
    let mut query: Vec<String> = Vec::new();
    let mut cookies: Vec<String> = Vec::new();
    let mut headers = HeaderMap::new();
    let mut body_object = JsonObject::new();
    let mut whole_body: Option<&Value> = None;
    let mut chosen_media_type: Option<&str> = None;

    for argument in &binding.arguments {
        let Some(value) = arguments.get(&argument.property).filter(|v| !v.is_null()) else {
            continue;
        };
        match &argument.target {
            RequestPart::Parameter(index) => {
                let Some(parameter) = route.parameters.get(*index) else {
                    continue;
                };
                let encoded;
                let value = match parameter.content_type {
                    Some(_) if !value.is_string() => {
                        encoded = Value::String(value.to_string());
                        &encoded
                    }
                    _ => value,
                };
                place(
                    parameter,
                    value,
                    &mut path_values,
                    &mut query,
                    &mut cookies,
                    &mut headers,
                )?;
            }
            RequestPart::BodyProperty(name) => {
                body_object.insert(name.clone(), value.clone());
            }
            RequestPart::Body => whole_body = Some(value),
            RequestPart::BodyContentType => chosen_media_type = value.as_str(),
            // The handler's, never sent.
            RequestPart::ResultFields => {}
        }
    }

    let path = render_path(route, &path_values)?;
    let mut url = base.clone();
    let joined_path = format!("{}{path}", base.path().trim_end_matches('/'));
    url.set_path(&joined_path);
    if !query.is_empty() {
        let query = match base.query() {
            Some(existing) if !existing.is_empty() => format!("{existing}&{}", query.join("&")),
            _ => query.join("&"),
        };
        url.set_query(Some(&query));
    }
    if url.origin() != base.origin() || url.path() != joined_path {
        return Err(CallError::BaseUrl(
            "the request url would leave its base url".to_owned(),
        ));
    }
    if !cookies.is_empty() {
        let cookie = HeaderValue::from_str(&cookies.join("; "))
            .map_err(|_| CallError::InvalidHeader("cookie".to_owned()))?;
        headers.insert(COOKIE, cookie);
    }

    if let Some(accept) = accept(route) {
        headers.insert(ACCEPT, accept);
    }
    let body = body_bytes(
        route,
        binding,
        chosen_media_type,
        whole_body,
        body_object,
        &mut headers,
    )?;
    let method = Method::from_bytes(route.method.as_str().as_bytes()).map_err(|_| {
        CallError::BaseUrl(format!("unsupported method `{}`", route.method.as_str()))
    })?;
    Ok(PreparedRequest {
        method,
        url,
        headers,
        body,
    })
}

/// `Accept`: the media types of the documented success (and default)
/// responses, JSON first.
fn accept(route: &HttpRoute) -> Option<HeaderValue> {
    let mut types: Vec<&str> = Vec::new();
    let success = route
        .responses
        .iter()
        .filter(|r| r.status.starts_with('2') || r.status == "default");
    for media in success.flat_map(|r| &r.content) {
        if !types.contains(&media.media_type.as_str()) {
            types.push(&media.media_type);
        }
    }
    types.sort_by_key(|t| !is_json_media_type(t));
    HeaderValue::from_str(&types.join(", "))
        .ok()
        .filter(|_| !types.is_empty())
}

fn place<'r>(
    parameter: &'r ParameterInfo,
    value: &Value,
    path_values: &mut Vec<(&'r str, String)>,
    query: &mut Vec<String>,
    cookies: &mut Vec<String>,
    headers: &mut HeaderMap,
) -> Result<(), CallError> {
    let name = parameter.name.as_str();
    match parameter.location {
        ParameterLocation::Path => {
            let rendered = path_value(name, value, parameter.style, parameter.explode);
            if rendered == "." || rendered == ".." {
                return Err(CallError::DotSegment(parameter.name.clone()));
            }
            path_values.push((name, rendered));
        }
        ParameterLocation::Query => query.extend(query_pairs(
            name,
            value,
            parameter.style,
            parameter.explode,
            parameter.allow_reserved,
        )),
        // The specification says these header parameters SHALL be ignored:
        // the media types and the credentials decide them.
        ParameterLocation::Header
            if ["accept", "content-type", "authorization"]
                .contains(&name.to_ascii_lowercase().as_str()) => {}
        ParameterLocation::Header => {
            let header = HeaderName::from_bytes(name.as_bytes())
                .map_err(|_| CallError::InvalidHeader(parameter.name.clone()))?;
            let text = header_value(value, parameter.explode);
            let header_value = HeaderValue::from_str(&text)
                .map_err(|_| CallError::InvalidHeader(parameter.name.clone()))?;
            headers.append(header, header_value);
        }
        ParameterLocation::Cookie => cookies.extend(cookie_pairs(name, value, parameter.explode)),
    }
    Ok(())
}

/// Substitutes `{name}` in the path template; literal text of the template
/// is encoded only where a path may not hold it.
fn render_path(route: &HttpRoute, values: &[(&str, String)]) -> Result<String, CallError> {
    let template = route.path.as_str();
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&literal(&rest[..open]));
        let Some(close) = rest[open..].find('}').map(|c| open + c) else {
            break;
        };
        let name = &rest[open + 1..close];
        match values.iter().find(|(n, _)| *n == name) {
            Some((_, value)) => out.push_str(value),
            None => return Err(CallError::MissingPathParameter(name.to_owned())),
        }
        rest = &rest[close + 1..];
    }
    out.push_str(&literal(rest));
    if !out.starts_with('/') {
        out.insert(0, '/');
    }
    // Two values side by side (`/{a}{b}`) could still form a dot segment.
    if out
        .split('/')
        .any(|segment| segment == "." || segment == "..")
    {
        let name = values
            .first()
            .map(|(n, _)| (*n).to_owned())
            .unwrap_or_default();
        return Err(CallError::DotSegment(name));
    }
    Ok(out)
}

fn literal(text: &str) -> String {
    text.split('/')
        .map(|piece| {
            if piece
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@%".contains(&b))
            {
                piece.to_owned()
            } else {
                encode_component(piece)
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

fn body_bytes(
    route: &HttpRoute,
    binding: &RequestBinding,
    chosen_media_type: Option<&str>,
    whole: Option<&Value>,
    object: JsonObject,
    headers: &mut HeaderMap,
) -> Result<Option<Vec<u8>>, CallError> {
    let Some(request_body) = &route.request_body else {
        return Ok(None);
    };
    let flattened = binding
        .arguments
        .iter()
        .any(|a| matches!(a.target, RequestPart::BodyProperty(_)));
    let value = match whole {
        Some(value) => value.clone(),
        None if !object.is_empty() || (flattened && request_body.required) => Value::Object(object),
        None => return Ok(None),
    };
    // The caller's choice (validated against the offered types), else the
    // type lowering chose, else the preferred one.
    let requested = match chosen_media_type {
        Some(chosen) if !request_body.content.iter().any(|m| m.media_type == chosen) => {
            return Err(CallError::Body {
                media_type: chosen.to_owned(),
                reason: "the operation does not accept a body of this media type".to_owned(),
            });
        }
        Some(chosen) => Some(chosen),
        None => binding.body_media_type.as_deref(),
    };
    let media = match requested {
        Some(media_type) => request_body
            .content
            .iter()
            .find(|m| m.media_type == media_type),
        None => preferred_media_type(&request_body.content),
    };
    let media_type = requested
        .or(media.map(|m| m.media_type.as_str()))
        .unwrap_or("application/json");
    let media_type = if media_type.contains('*') {
        "application/json"
    } else {
        media_type
    };
    let encoded = encode_body(media_type, media, &value)?;
    let content_type = HeaderValue::from_str(&encoded.content_type)
        .map_err(|_| CallError::InvalidHeader("content-type".to_owned()))?;
    headers.insert(CONTENT_TYPE, content_type);
    Ok(Some(encoded.bytes))
}
