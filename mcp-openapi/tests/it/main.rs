//! Integration tests of mcp-openapi (one binary).

mod handler;
mod http_fixtures;
mod recorder;
mod request;
mod security;
mod style_table;
