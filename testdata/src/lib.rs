//! The documents the tests, benchmarks and examples read, inside the repository.
//!
//! - [`openapi_dir`]: real OpenAPI documents (GitHub, Stripe, Kubernetes,
//!   Petstore, ...; sources and licences in `testdata/README.md`). The large
//!   ones are stored gzip-compressed; the build script writes every document
//!   as a plain file into this crate's `OUT_DIR`, so callers read them by path.
//! - [`mcp_schema`]: the official MCP JSON Schemas, one file per protocol
//!   version.
//! - [`discovery_tasks`]: task sets for discovery mode's ranking (requests
//!   and the tools that serve them, per document).
//! - `tools` (feature `tools`): the tools several crates' tests build the
//!   same way.
//!
//! ```
//! let petstore = std::fs::read_to_string(testdata::openapi("petstore.yaml")).unwrap();
//! assert!(petstore.starts_with("openapi: 3.0.0"));
//! assert!(testdata::openapi("github-api.github.com.json").is_file());
//! ```

use std::path::PathBuf;

#[cfg(feature = "tools")]
pub mod tools;

/// The folder holding every OpenAPI document, uncompressed.
pub fn openapi_dir() -> PathBuf {
    PathBuf::from(concat!(env!("OUT_DIR"), "/openapi"))
}

/// The path of the OpenAPI document `name` (for example `petstore.yaml`).
pub fn openapi(name: &str) -> PathBuf {
    openapi_dir().join(name)
}

/// The names of every OpenAPI document, sorted.
pub fn openapi_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(openapi_dir())
        .into_iter()
        .flatten()
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .collect();
    names.sort();
    names
}

/// The path of the official MCP JSON Schema of protocol `version`
/// (`2025-11-25` or `2026-07-28`).
///
/// ```
/// let schema = std::fs::read_to_string(testdata::mcp_schema("2025-11-25")).unwrap();
/// assert!(schema.contains("\"Tool\""));
/// ```
pub fn mcp_schema(version: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/mcp-schema"))
        .join(format!("schema-{version}.json"))
}

/// The path of the discovery task set `name` (for example
/// `discovery_tasks.yaml`): requests a user might make, with the tools that
/// serve each, per corpus document.
///
/// ```
/// assert!(testdata::discovery_tasks("discovery_tasks.yaml").is_file());
/// ```
pub fn discovery_tasks(name: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/discovery")).join(name)
}
