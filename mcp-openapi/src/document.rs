//! A document before it is loaded: bytes become a JSON value (JSON or YAML,
//! by content; [`parse_slice`] gives it whole), `$ref`s are followed across
//! files ([`RemoteRefs`]) and JSON pointers read, the OpenAPI version
//! recognized ([`SpecVersion`]), and [`Overlay`]s applied (see the
//! [`overlay`] module). The [`ReferenceMetadata`] written beside a `$ref` is
//! read here too.
//!
//! For loading, the document root is read without the parts generation
//! never reads (named examples, webhooks; the `skip_unread` module) and,
//! for JSON, without the component schemas no `$ref` reaches (the
//! `lazy_schemas` module): `parse_document` gives the same value as
//! [`parse_slice`] for what generation reads.

pub(crate) mod lazy_schemas;
pub mod overlay;
pub(crate) mod parse;
pub(crate) mod pointer;
pub(crate) mod reference_metadata;
pub(crate) mod refs;
pub(crate) mod skip_unread;
pub(crate) mod version;

use std::path::Path;

use self::lazy_schemas::{ParsedDocument, materialize};
use self::parse::{parse_as, read, sniff};
use self::skip_unread::{JsonRootWithRawSchemas, RootWithoutUnread};
use crate::error::SpecError;

pub use self::overlay::{Overlay, OverlaySource, OverlayVersion};
pub use self::parse::parse_slice;
pub use self::reference_metadata::ReferenceMetadata;
pub use self::refs::{RemoteFetcher, RemoteRefs};
pub use self::version::SpecVersion;

/// Parses a document root for loading.
pub(crate) fn parse_document(bytes: &[u8]) -> Result<ParsedDocument, SpecError> {
    let (bytes, json) = sniff(bytes);
    if json && let Ok(lazy) = serde_json::from_slice::<JsonRootWithRawSchemas>(bytes) {
        return materialize(lazy.value, lazy.raw_schemas);
    }
    // YAML, or JSON that did not parse: the same fallback and errors as
    // `parse_slice`.
    parse_as::<RootWithoutUnread>(bytes).map(|root| ParsedDocument::whole(root.0))
}

/// Reads and parses a document file for loading (see [`parse_document`]).
pub(crate) fn parse_document_path(path: &Path) -> Result<ParsedDocument, SpecError> {
    parse_document(&read(path)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn yaml_skips_unread_parts_and_aliases_into_them_resolve() {
        let text = "openapi: 3.1.0\n\
                    components:\n  examples:\n    e: &shared {value: 1}\n  schemas: {S: {type: string}}\n\
                    webhooks: {w: {post: {}}}\n\
                    paths:\n  /a: {x-copy: *shared}\n";
        let value = parse_document(text.as_bytes()).unwrap().value;
        assert_eq!(value["paths"]["/a"]["x-copy"], json!({"value": 1}));
        assert_eq!(
            value["components"],
            json!({"schemas": {"S": {"type": "string"}}})
        );
        assert!(value.get("webhooks").is_none());
    }
}
