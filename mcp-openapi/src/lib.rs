//! OpenAPI documents (Swagger 2.0, OpenAPI 3.0 to 3.2) become MCP tools.
//!
//! This crate is being built: so far it holds the intermediate
//! representation ([`HttpRoute`] and friends) that parsing produces and tool
//! generation consumes.

mod ir;
// issue 5: request building and execution
mod body;
mod http_error;
mod request;
mod retry;
mod server_url;
mod style;

pub use ir::*;
// issue 5: request building and execution
pub use body::{EncodedBody, decode_binary, encode_body, is_json_media_type, preferred_media_type};
pub use http_error::CallError;
pub use request::{PreparedRequest, build_request};
pub use retry::{Attempt, RetryPolicy};
pub use server_url::resolve_base_url;
pub use style::{cookie_pairs, encode_component, header_value, path_value, query_pairs};
