//! Integration tests of `mcp-openapi` (one binary).

mod content_type;
mod corpus;
mod fixtures;
mod handler;
mod hostile_upstream;
mod http_fixtures;
mod output_budget;
mod overlay;
mod prism;
mod recorder;
mod request;
mod request_snapshots;
mod resource_defs;
mod sample_args;
mod security;
mod shared_defs;
mod snapshots;
mod style_table;

use std::path::PathBuf;

/// `tests/fixtures/<name>`.
pub(crate) fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// The OpenAPI document `name` of the repository's test data.
pub(crate) fn corpus(name: &str) -> PathBuf {
    testdata::openapi(name)
}
