//! OpenAPI documents (Swagger 2.0, OpenAPI 3.0 to 3.2) become MCP tools.
//!
//! Pipeline: bytes are parsed (JSON or YAML by content) into a JSON value,
//! leaving out what generation never reads (named examples, webhooks and, in
//! JSON, the component schemas no `$ref` reaches; [`parse_slice`] gives the
//! whole document), loaded as an [`OpenApi`] (one [`HttpRoute`] per operation,
//! path-level parameters merged, schemas normalized to JSON Schema 2020-12
//! with every `$ref` turned into `#/$defs/<Name>`), then a [`Generator`]
//! lowers each route to a [`GeneratedTool`]: the `mcp_core::Tool`, its
//! `Arc<HttpRoute>` and the [`RequestBinding`] of its arguments;
//! [`Generated::tool_defs`] attaches the [`HttpToolHandler`].
//!
//! ```
//! use mcp_openapi::OpenApi;
//!
//! let api: OpenApi = r#"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
//!   "paths": {"/pets/{id}": {"delete": {"operationId": "deletePet",
//!     "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
//!     "responses": {"204": {"description": "gone"}}}}}}"#.parse().unwrap();
//! let generated = api.generator().generate().unwrap();
//! let tool = &generated.tools[0].tool;
//! assert_eq!(tool.name, "deletePet");
//! assert_eq!(tool.annotations.as_ref().unwrap().destructive_hint, Some(true));
//! ```
//!
//! # Generated tools
//!
//! - **Name**: `operationId`, else `{method}_{path}`, sanitized to
//!   `A-Z a-z 0-9 _ - .`, cut to 64 characters (configurable) with a stable
//!   `_xxxxxxxx` hash suffix, made unique with `_2`, `_3`; `mcp_names`
//!   overrides by `operationId`.
//! - **Input schema**: parameters, then the properties of an object request
//!   body (a non-object body goes under `body`); a parameter whose name
//!   collides with a body property or another parameter becomes
//!   `{name}__{location}` (`id__path`). `readOnly` properties are left out.
//! - **Output schema**: the first 2xx JSON response; a non-object one is
//!   wrapped as `{"result": ...}` and `_meta["rs.mcp-toolkit/output-wrapped"]`
//!   is `true`. `writeOnly` properties are left out.
//! - **`_meta`**: `rs.mcp-toolkit/openapi` = `{"method", "path", "operationId"}`,
//!   and `rs.mcp-toolkit/tags` with the route map's `mcp_tags`.
//! - **Schemas** are JSON Schema 2020-12: 3.0 `nullable`, boolean
//!   `exclusiveMinimum`/`exclusiveMaximum` and `example` are rewritten; `xml`,
//!   `externalDocs` and `x-*` extension keywords are left out of schemas
//!   (operation extensions stay on [`HttpRoute::extensions`]).
//! - **Schema profiles** ([`SchemaProfile`]): `standard` (2020-12, `$schema`,
//!   only the `$defs` the tool reaches) or `inline` (no `$schema`, no `$defs`).
//!
//! # Annotations and `x-mcp-annotations`
//!
//! Every tool gets all four hints from its method: GET/HEAD/OPTIONS read-only,
//! not destructive, idempotent; POST not read-only, not destructive, not
//! idempotent; PUT and DELETE destructive and idempotent; PATCH destructive,
//! not idempotent; all open-world; `title` from the summary. An operation may
//! override any of them with the extension `x-mcp-annotations`, an object in
//! MCP's `ToolAnnotations` spelling:
//!
//! ```yaml
//! delete:
//!   operationId: archiveThing
//!   x-mcp-annotations: {destructiveHint: false, openWorldHint: false, title: Archive}
//! ```
//!
//! Precedence: the [`Generator::customize`] hook, then `x-mcp-annotations`,
//! then the method default.

mod api;
mod defs;
mod error;
mod fields;
mod generator;
mod ir;
mod lazy_schemas;
mod lean;
mod lower;
mod names;
mod normalize;
mod parse;
mod reference_metadata;
mod refs;
mod resource;
mod route_map;
mod routes;
mod schema;
mod stats;
mod swagger2;
mod tool_defs;
// issue 5: request building and execution
mod auth;
mod authorizer;
mod body;
mod client_config;
mod execute;
mod http_error;
mod multipart;
mod passthrough;
mod request;
mod response;
mod retry;
mod server_url;
mod style;

pub use api::{LoadOptions, OpenApi};
pub use error::{SpecError, Warning};
pub use generator::{
    Customization, CustomizeFn, DEFAULT_MAX_NAME_LEN, Generated, GeneratedTool, Generator,
    OPENAPI_META_KEY, SchemaProfile, TAGS_META_KEY,
};
pub use ir::*;
pub use parse::{SpecVersion, parse_path, parse_slice, parse_str};
pub use reference_metadata::ReferenceMetadata;
pub use refs::{RemoteFetcher, RemoteRefs};
pub use resource::{GeneratedResource, GeneratedResourceTemplate, RESOURCE_SCHEME};
pub use route_map::{
    McpType, RouteMap, RouteMapFn, route_maps_from_path, route_maps_from_toml, route_maps_from_yaml,
};
pub use stats::{ToolSize, ToolStats, estimate_tokens, tool_stats};
// issue 5: request building and execution
pub use auth::{ApiKeyLocation, Credential, Credentials, Secret, SecurityScheme, SecuritySchemes};
pub use body::{EncodedBody, decode_binary, encode_body, is_json_media_type, preferred_media_type};
pub use client_config::{
    ClientConfig, ClientConfigBuilder, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT, USER_AGENT,
};
pub use execute::HttpToolHandler;
pub use http_error::CallError;
pub use passthrough::with_incoming_authorization;
pub use request::{PreparedRequest, build_request};
pub use response::tolerant_output_schema;
pub use retry::{Attempt, RetryPolicy};
pub use server_url::resolve_base_url;
pub use style::{cookie_pairs, encode_component, header_value, path_value, query_pairs};
