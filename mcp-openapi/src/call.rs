//! Calling the API: the only part of this crate that touches the network.
//!
//! An [`HttpToolHandler`] is the handler of a generated tool: it validates
//! the arguments, builds the request ([`build_request`], pure: parameters
//! serialized per `style` / `explode`, the body encoded in its media type),
//! applies the credentials of the route's security schemes, sends it with
//! the [`RetryPolicy`], a timeout and cancellation, and maps the response
//! to a tool result (see [`tolerant_output_schema`]). Every tool of a
//! document shares one [`ClientConfig`]. Failures are [`CallError`]s,
//! reported to the model as error results.
//!
//! Each exchange (its retries included) runs in a `tracing` span named
//! `{METHOD} {path template}` with the OpenTelemetry HTTP client attributes
//! (`http.request.method`, `url.template`, `server.address`,
//! `http.response.status_code`, `http.request.resend_count`, `error.type`),
//! a child of the tool call's span; with the feature `otel` its trace
//! context is sent upstream as `traceparent`.
//!
//! # Request bodies
//!
//! A body argument is encoded in the media type the caller chose (among
//! those the operation offers), else the preferred one:
//!
//! | media type | argument |
//! | --- | --- |
//! | `application/json`, `*/*+json` | any JSON value, sent as is |
//! | `application/x-www-form-urlencoded` | an object; properties per their `encoding` (style, explode, allowReserved, contentType) |
//! | `multipart/form-data` | an object; file properties take base64, a `data:` URI or `{"data", "filename", "contentType"}` |
//! | `text/*` | a string (other values as JSON text) |
//! | XML (`*/xml`, `*+xml`) | the document as a string |
//! | `application/octet-stream` and other binary types | base64 or a `data:` URI |
//!
//! # Credentials
//!
//! Supported: `apiKey` (header, query, cookie), `http` `bearer` and
//! `basic`, `oauth2` with the client-credentials flow (the token is
//! fetched, cached until shortly before it expires, and fetched again), and
//! `oauth2` (any flow) or `openIdConnect` with an access token obtained
//! elsewhere (sent as a bearer token). `mutualTLS` and other `http` schemes
//! are recognised and skipped.
//!
//! Credentials come from code ([`Credentials::insert`]) or from environment
//! variables named after the scheme: the scheme name upper-cased with every
//! character other than `A-Z 0-9` turned into `_`, prefixed with
//! `MCP_OPENAPI_` (scheme `petstore_auth` -> `MCP_OPENAPI_PETSTORE_AUTH_`):
//!
//! | scheme | variables |
//! | --- | --- |
//! | `apiKey` | `…_API_KEY` |
//! | `http` bearer | `…_TOKEN` |
//! | `http` basic | `…_USERNAME`, `…_PASSWORD` |
//! | `oauth2` client credentials | `…_CLIENT_ID`, `…_CLIENT_SECRET`, optional `…_SCOPES` (space-separated) |
//! | `oauth2` (any flow), `openIdConnect` | `…_TOKEN` (an access token; wins over client credentials) |
//!
//! A secret is never printed: [`Secret`]'s `Debug` is `"***"`, errors name
//! the scheme only, and every secret sent is redacted from tool results.
//!
//! # Results
//!
//! Upstream responses become tool results:
//!
//! | response | result |
//! | --- | --- |
//! | 2xx JSON | `structuredContent` (wrapped as `{"result": ...}` when the tool's output is wrapped) plus a text block |
//! | 2xx with a JSON media type whose body is not JSON | `isError: true`: where parsing failed and an excerpt of the body |
//! | 2xx longer than the cap ([`ClientConfigBuilder::max_response_bytes`], 10 MiB by default) | `isError: true`, the body never held whole in memory |
//! | 2xx `text/*`, XML | a text block |
//! | 2xx `image/*` / `audio/*` | an image / audio block |
//! | 2xx other binary | an embedded blob resource |
//! | 204 or an empty body | an empty success |
//! | not 2xx | `isError: true`: status, reason, a bounded excerpt of the body (a JSON body kept structured) |
//! | a redirect to another origin | `isError: true`; not followed, so no credential reaches the other host |
//! | more than 10 redirects | `isError: true` |
//! | no answer, or an answer slower than the timeout ([`ClientConfigBuilder::timeout`], 30 s by default) | `isError: true` when the timeout ends the call |
//! | a connection reset before the body's end | `isError: true` |

pub(crate) mod authorizer;
pub(crate) mod binary;
pub(crate) mod body;
pub(crate) mod client_config;
pub(crate) mod error;
pub(crate) mod execute;
pub(crate) mod multipart;
pub(crate) mod passthrough;
pub(crate) mod request;
pub(crate) mod response;
pub(crate) mod retry;
pub(crate) mod security;
pub(crate) mod server_url;
pub(crate) mod style;
pub(crate) mod telemetry;
pub(crate) mod upstream_credentials;

pub use client_config::{
    ClientConfig, ClientConfigBuilder, DEFAULT_MAX_RESPONSE_BYTES, USER_AGENT,
};
pub use error::CallError;
pub use execute::{HttpToolHandler, KEPT_OUTPUT_SCHEMA_BYTES};
pub use passthrough::with_incoming_authorization;
pub use request::{PreparedRequest, build_request};
pub use response::tolerant_output_schema;
pub use retry::RetryPolicy;
pub use security::{
    ApiKeyLocation, Credential, Credentials, Secret, SecurityScheme, SecuritySchemes,
};
pub use upstream_credentials::UpstreamCredentials;
