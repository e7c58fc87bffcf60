//! OpenAPI documents (Swagger 2.0, OpenAPI 3.0 to 3.2) become MCP tools.
//!
//! Pipeline: bytes are parsed ([`parse_slice`]) into a JSON value, loaded as
//! an [`OpenApi`] (one [`HttpRoute`] per operation, schemas normalized to
//! JSON Schema 2020-12 with `$ref`s turned into `$defs`).

mod api;
mod defs;
mod error;
mod generator;
mod ir;
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
