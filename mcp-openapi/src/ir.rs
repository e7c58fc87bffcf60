//! The intermediate representation: one [`HttpRoute`] per operation,
//! normalized across Swagger 2.0 and OpenAPI 3.0 / 3.1 / 3.2, and the
//! [`RequestBinding`] that maps a generated tool's input properties onto
//! the request of its route.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A JSON object.
pub type JsonObject = serde_json::Map<String, Value>;

/// One HTTP operation of a document, ready to become a tool.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct HttpRoute {
    /// The HTTP method, upper case (`GET`, `POST`, ...).
    pub method: HttpMethod,
    /// The path template as written in the document (`/pets/{petId}`).
    pub path: String,
    /// The JSON pointer of the operation (`#/paths/~1pets~1{petId}/get`).
    pub pointer: String,
    /// `operationId`, when the document has one.
    pub operation_id: Option<String>,
    /// `summary` of the operation.
    pub summary: Option<String>,
    /// `description` of the operation.
    pub description: Option<String>,
    /// `tags` of the operation.
    pub tags: Vec<String>,
    /// Whether the operation is marked deprecated.
    pub deprecated: bool,
    /// Parameters, path-level ones merged in (the operation wins on name + location).
    pub parameters: Vec<ParameterInfo>,
    /// The request body, if the operation takes one.
    pub request_body: Option<RequestBodyInfo>,
    /// Responses by status code (`"200"`, `"2XX"`, `"default"`), in document order.
    pub responses: Vec<ResponseInfo>,
    /// Security requirements in force (operation-level, else document-level).
    pub security: Vec<SecurityRequirement>,
    /// Servers in force (operation, else path, else document).
    pub servers: Vec<ServerInfo>,
    /// `x-` extensions of the operation.
    pub extensions: JsonObject,
}

/// An HTTP method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum HttpMethod {
    /// GET
    Get,
    /// PUT
    Put,
    /// POST
    Post,
    /// DELETE
    Delete,
    /// OPTIONS
    Options,
    /// HEAD
    Head,
    /// PATCH
    Patch,
    /// TRACE
    Trace,
    /// QUERY (OpenAPI 3.2)
    Query,
}

impl HttpMethod {
    /// The method's name in upper case.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Get => "GET",
            Self::Put => "PUT",
            Self::Post => "POST",
            Self::Delete => "DELETE",
            Self::Options => "OPTIONS",
            Self::Head => "HEAD",
            Self::Patch => "PATCH",
            Self::Trace => "TRACE",
            Self::Query => "QUERY",
        }
    }

    /// Whether HTTP defines the method as idempotent (GET, HEAD, OPTIONS, PUT, DELETE, TRACE, QUERY).
    pub const fn is_idempotent(self) -> bool {
        !matches!(self, Self::Post | Self::Patch)
    }
}

/// Where a parameter goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ParameterLocation {
    /// A path template variable.
    Path,
    /// The query string.
    Query,
    /// A request header.
    Header,
    /// A cookie.
    Cookie,
}

impl ParameterLocation {
    /// The OpenAPI spelling (`path`, `query`, `header`, `cookie`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Path => "path",
            Self::Query => "query",
            Self::Header => "header",
            Self::Cookie => "cookie",
        }
    }

    /// The default `style` for this location.
    pub const fn default_style(self) -> ParameterStyle {
        match self {
            Self::Path | Self::Header => ParameterStyle::Simple,
            Self::Query | Self::Cookie => ParameterStyle::Form,
        }
    }
}

/// How a parameter value is serialized (OpenAPI `style`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ParameterStyle {
    /// `;name=value` path style.
    Matrix,
    /// `.value` path style.
    Label,
    /// `value` / `a,b` (path and header default).
    Simple,
    /// `name=value` (query and cookie default).
    Form,
    /// `a%20b` joined arrays in the query.
    SpaceDelimited,
    /// `a|b` joined arrays in the query.
    PipeDelimited,
    /// `name[key]=value` objects in the query.
    DeepObject,
}

/// One parameter of an operation, with every default filled in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ParameterInfo {
    /// The parameter's name as the API expects it.
    pub name: String,
    /// Where it goes.
    pub location: ParameterLocation,
    /// Whether it must be given (path parameters always are).
    pub required: bool,
    /// Serialization style (default per location).
    pub style: ParameterStyle,
    /// Whether arrays/objects explode (default: true for `form`, else false).
    pub explode: bool,
    /// Whether reserved characters pass unencoded (query only; default false).
    pub allow_reserved: bool,
    /// The JSON Schema of the value (2020-12, normalized).
    pub schema: Value,
    /// The parameter's description.
    pub description: Option<String>,
    /// Whether the parameter is deprecated.
    pub deprecated: bool,
    /// For `content`-encoded parameters, the media type (the value is sent serialized in it).
    pub content_type: Option<String>,
}

/// The request body of an operation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RequestBodyInfo {
    /// Whether a body must be sent.
    pub required: bool,
    /// The body's description.
    pub description: Option<String>,
    /// Every media type the operation accepts, in document order.
    pub content: Vec<MediaTypeInfo>,
}

/// One media type of a body or response.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct MediaTypeInfo {
    /// The media type (`application/json`, `multipart/form-data`, ...).
    pub media_type: String,
    /// Its schema (2020-12, normalized), if any; shared by every route
    /// whose body or response is the same `$ref`.
    pub schema: Option<Arc<Value>>,
    /// `encoding` objects per property (form and multipart bodies).
    pub encoding: BTreeMap<String, EncodingInfo>,
}

/// How one property of a form or multipart body is encoded.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct EncodingInfo {
    /// The property's content type.
    pub content_type: Option<String>,
    /// Its style (form bodies).
    pub style: Option<ParameterStyle>,
    /// Whether it explodes.
    pub explode: Option<bool>,
    /// Whether reserved characters pass unencoded.
    pub allow_reserved: bool,
}

/// One response of an operation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ResponseInfo {
    /// The status key (`"200"`, `"2XX"`, `"default"`).
    pub status: String,
    /// The response's description.
    pub description: Option<String>,
    /// Media types and schemas, in document order.
    pub content: Vec<MediaTypeInfo>,
}

/// One security requirement: all of its schemes apply together.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SecurityRequirement {
    /// Scheme name (key of `components.securitySchemes`) to scopes.
    pub schemes: BTreeMap<String, Vec<String>>,
}

/// A server URL template with its variables.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ServerInfo {
    /// The URL template (`https://{region}.example.com/v1`), possibly relative.
    pub url: String,
    /// The server's description.
    pub description: Option<String>,
    /// Variables with their defaults and allowed values.
    pub variables: BTreeMap<String, ServerVariable>,
}

/// A server URL variable.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ServerVariable {
    /// The default value.
    pub default: String,
    /// The allowed values, when restricted.
    pub allowed: Vec<String>,
    /// The variable's description.
    pub description: Option<String>,
}

/// How the input properties of a generated tool map onto the HTTP request
/// of its route: made by lowering, used by request building.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RequestBinding {
    /// One entry per property of the tool's input schema.
    pub arguments: Vec<ArgumentBinding>,
    /// The media type the body is sent as (the preferred one of the route's
    /// request body), when there is a body.
    pub body_media_type: Option<String>,
    /// Whether the tool's output schema wraps the response as `{"result": ...}`.
    pub output_wrapped: bool,
}

/// Where one input property goes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ArgumentBinding {
    /// The property's name in the tool's input schema (`id__path` after a collision).
    pub property: String,
    /// The part of the request it fills.
    pub target: RequestPart,
}

/// The part of an HTTP request an input property fills.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum RequestPart {
    /// The route parameter at this index of `HttpRoute::parameters`.
    Parameter(usize),
    /// A property (this name) of an object body, flattened into the input.
    BodyProperty(String),
    /// The whole body (a non-object body, under the `body` property).
    Body,
    /// The media type the caller chose for the body, among those the
    /// operation offers with the same schema (see [`RequestBinding::body_media_type`]
    /// for the default).
    BodyContentType,
    /// Not part of the request: the fields of the result the caller wants
    /// (a list of top-level names or dotted paths), which the handler keeps
    /// of the response (see
    /// [`Generator::result_fields`](crate::Generator::result_fields)).
    ResultFields,
}
