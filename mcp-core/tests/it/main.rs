//! Integration tests of mcp-core.

mod annotations_laws;
mod builder;
mod middleware_order;
mod server_surface;
mod spec_schema;
mod transform;
mod wire;
