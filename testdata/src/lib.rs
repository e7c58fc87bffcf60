//! The documents the tests, benchmarks and examples read, inside the repository.
//!
//! - [`openapi_dir`]: real OpenAPI documents (GitHub, Stripe, Kubernetes,
//!   Petstore, ...; sources and licences in `testdata/README.md`). The large
//!   ones are stored gzip-compressed; the build script writes every document
//!   as a plain file into this crate's `OUT_DIR`, so callers read them by path.
//! - [`mcp_schema`]: the official MCP JSON Schemas, one file per protocol
//!   version.
//! - [`discovery_tasks`]: task sets for discovery mode's ranking (requests
//!   and the tools that serve them, per document); [`CORPUS_DOCUMENTS`]: the
//!   documents of the corpus set, and whether the ranking was developed on
//!   each.
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

/// The corpus task set (`discovery_tasks_corpus.yaml`): requests for nine
/// documents, each document's odd tasks its development half and its even
/// ones its test half.
pub const CORPUS_TASKS: &str = "discovery_tasks_corpus.yaml";

/// A document of the corpus task set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CorpusDocument {
    /// Its key in the task set (`github`).
    pub label: &'static str,
    /// Its file among the OpenAPI documents (see [`openapi`]).
    pub file: &'static str,
    /// Whether the ranking was ever developed (tuned) on its development
    /// half; never on its test half.
    pub developed: bool,
}

/// The documents of the corpus task set, in its order.
///
/// ```
/// let never: Vec<&str> = testdata::CORPUS_DOCUMENTS
///     .iter()
///     .filter(|document| !document.developed)
///     .map(|document| document.label)
///     .collect();
/// assert_eq!(never, ["jira", "digitalocean", "openai", "slack"]);
/// for document in testdata::CORPUS_DOCUMENTS {
///     assert!(testdata::openapi(document.file).is_file(), "{}", document.file);
/// }
/// ```
pub const CORPUS_DOCUMENTS: [CorpusDocument; 9] = {
    const fn document(label: &'static str, file: &'static str, developed: bool) -> CorpusDocument {
        CorpusDocument {
            label,
            file,
            developed,
        }
    }
    [
        document("github", "github-api.github.com.json", true),
        document("stripe", "stripe-spec3.json", true),
        document("kubernetes", "kubernetes-apisguru.json", true),
        document("jira", "jira-apisguru.json", false),
        document("discord", "discord.json", true),
        document("box", "box.json", true),
        document("digitalocean", "digitalocean-apisguru.json", false),
        document("openai", "openai.yaml", false),
        document("slack", "slack-web-api.json", false),
    ]
};
