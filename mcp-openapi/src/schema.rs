//! Schemas: the document's schemas converted to JSON Schema 2020-12 (3.0
//! and Swagger keywords normalized, every `$ref` turned into
//! `#/$defs/<Name>`), then copied into each tool with only the definitions
//! it reaches, or inlined, as the [`SchemaProfile`] says.
//!
//! The [`ReferenceMetadata`](crate::document::ReferenceMetadata) written
//! beside a `$ref` takes precedence over the schema's own description.
//!
//! Schemas read the [`document`](crate::document) (its pointers and
//! `$ref`s); loading and generation use them, never the other way round.

pub(crate) mod convert;
pub(crate) mod defs;
pub(crate) mod normalize;
pub(crate) mod profile;
pub(crate) mod registry;

pub use profile::SchemaProfile;
