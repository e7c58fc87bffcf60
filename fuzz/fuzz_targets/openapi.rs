//! Any bytes as an OpenAPI document (JSON or YAML, by content): load the
//! routes and the tags, generate the tools in both schema profiles, and the
//! resources.
//! Errors are fine; panics, hangs and aborts are bugs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_openapi::{OpenApi, schema::SchemaProfile};

fuzz_target!(|data: &[u8]| {
    if let Ok(api) = OpenApi::from_slice(data) {
        let _ = api.tags();
        let _ = api.generator().generate();
        let _ = api.generator().profile(SchemaProfile::Inline).generate();
    }
});
