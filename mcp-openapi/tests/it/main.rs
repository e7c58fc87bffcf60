//! Integration tests of mcp-openapi (one binary).

mod http_fixtures;
mod recorder;
mod request;
mod style_table;
