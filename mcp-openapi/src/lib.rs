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

mod error;
mod ir;
mod load {
    pub(crate) mod fields;
    pub(crate) mod lazy_schemas;
    pub(crate) mod open_api;
    pub(crate) mod parse;
    pub(crate) mod refs;
    pub(crate) mod routes;
    pub(crate) mod skip_unread;
    pub(crate) mod swagger2;
}
mod schema {
    pub(crate) mod convert;
    pub(crate) mod defs;
    pub(crate) mod normalize;
    pub(crate) mod reference_metadata;
}
mod generate {
    pub(crate) mod generator;
    pub(crate) mod lower;
    pub(crate) mod names;
    pub(crate) mod resource;
    pub(crate) mod route_map;
    pub(crate) mod stats;
    pub(crate) mod tool_defs;
}
mod call {
    pub(crate) mod authorizer;
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
}

pub use call::body::{
    EncodedBody, decode_binary, encode_body, is_json_media_type, preferred_media_type,
};
pub use call::client_config::{
    ClientConfig, ClientConfigBuilder, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT, USER_AGENT,
};
pub use call::error::CallError;
pub use call::execute::HttpToolHandler;
pub use call::passthrough::with_incoming_authorization;
pub use call::request::{PreparedRequest, build_request};
pub use call::response::tolerant_output_schema;
pub use call::retry::{Attempt, RetryPolicy};
pub use call::security::{
    ApiKeyLocation, Credential, Credentials, Secret, SecurityScheme, SecuritySchemes,
};
pub use call::server_url::resolve_base_url;
pub use call::style::{cookie_pairs, encode_component, header_value, path_value, query_pairs};
pub use error::{SpecError, Warning};
pub use generate::generator::{
    Customization, CustomizeFn, DEFAULT_MAX_NAME_LEN, Generated, GeneratedTool, Generator,
    OPENAPI_META_KEY, SchemaProfile, TAGS_META_KEY,
};
pub use generate::resource::{GeneratedResource, GeneratedResourceTemplate, RESOURCE_SCHEME};
pub use generate::route_map::{
    McpType, RouteMap, RouteMapFn, route_maps_from_path, route_maps_from_toml, route_maps_from_yaml,
};
pub use generate::stats::{ToolSize, ToolStats, estimate_tokens, tool_stats};
pub use ir::*;
pub use load::open_api::{LoadOptions, OpenApi};
pub use load::parse::{SpecVersion, parse_path, parse_slice, parse_str};
pub use load::refs::{RemoteFetcher, RemoteRefs};
pub use schema::reference_metadata::ReferenceMetadata;
