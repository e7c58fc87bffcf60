//! Integration tests of mcp-core.

mod annotations_laws;
mod builder;
mod middleware_order;
#[cfg(feature = "rmcp")]
mod rmcp_roundtrip;
mod server_surface;
mod spec_schema;
mod wire;
