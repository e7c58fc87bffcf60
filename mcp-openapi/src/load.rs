//! Loading: a parsed [`document`](crate::document) becomes its routes.
//! Every operation becomes an [`HttpRoute`](crate::ir::HttpRoute) with its
//! schemas converted (see [`schema`](crate::schema)); what cannot be read
//! becomes a warning, or in strict mode the error.
//!
//! [`OpenApi`] is a loaded document, made with the [`LoadOptions`]: the
//! walk over `paths` (`paths`), what OpenAPI 3.x and Swagger 2.0 operations
//! share (`route_reader`, `fields`), each version's operations (`openapi3`,
//! `swagger2`), and the inline schemas of request bodies and responses,
//! moved out of the document before its routes are read (`inline_schemas`).
//! The document's top-level `tags` are read as [`Tag`]s (`tags`).

pub(crate) mod fields;
pub(crate) mod inline_schemas;
pub(crate) mod open_api;
pub(crate) mod openapi3;
pub(crate) mod paths;
pub(crate) mod route_reader;
pub(crate) mod swagger2;
pub(crate) mod tags;

pub use open_api::{LoadOptions, OpenApi};
pub use tags::Tag;
