//! Schemas: the document's schemas converted to JSON Schema 2020-12 (3.0
//! and Swagger keywords normalized, every `$ref` turned into
//! `#/$defs/<Name>`), then copied into each tool with only the definitions
//! it reaches, or inlined, as the [`SchemaProfile`] says.
//!
//! [`ReferenceMetadata`] is the `summary` / `description` written beside a
//! `$ref`, and its precedence over the schema's own description.

pub(crate) mod convert;
pub(crate) mod defs;
pub(crate) mod normalize;
pub(crate) mod profile;
pub(crate) mod reference_metadata;
pub(crate) mod registry;

pub use profile::SchemaProfile;
pub use reference_metadata::ReferenceMetadata;
