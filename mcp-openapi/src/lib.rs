//! OpenAPI documents (Swagger 2.0, OpenAPI 3.0 to 3.2) become MCP tools.
//!
//! This crate is being built: so far it holds the intermediate
//! representation ([`HttpRoute`] and friends) that parsing produces and tool
//! generation consumes.

mod ir;

pub use ir::*;
