//! Bytes to a document root for loading: the same value as
//! [`parse_slice`](crate::load::parse::parse_slice) without the parts
//! generation never reads (see the `skip_unread` module) and, for JSON,
//! without the component schemas no `$ref` reaches (see the `lazy_schemas`
//! module).

use std::path::Path;

use crate::error::SpecError;
use crate::load::lazy_schemas::{ParsedDocument, materialize};
use crate::load::parse::{parse_as, read, sniff};
use crate::load::skip_unread::{JsonRootWithRawSchemas, RootWithoutUnread};

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
