//! OpenAPI documents (Swagger 2.0, OpenAPI 3.0 to 3.2) become MCP tools.
//!
//! This crate is being built: so far it holds the intermediate
//! representation ([`HttpRoute`] and friends) that parsing produces and tool
//! generation consumes.

mod ir;
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

pub use ir::*;
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
