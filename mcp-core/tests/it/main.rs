//! Integration tests of mcp-core.

mod annotations_laws;
mod builder;
mod middleware_order;
#[cfg(feature = "rmcp")]
mod rmcp_roundtrip;
mod spec_schema;
mod wire;
