//! Loading: bytes become a JSON value (JSON or YAML, by content), `$ref`s
//! are resolved, and every operation becomes an
//! [`HttpRoute`](crate::ir::HttpRoute) with its schemas normalized.
//!
//! [`OpenApi`] is a loaded document; [`parse_slice`] gives a document's
//! JSON value whole. Loading skips what generation never reads (named
//! examples, webhooks) and, in JSON, parses only the component schemas that
//! some `$ref` reaches. [`Overlay`]s given in [`LoadOptions`] reshape the
//! whole document first (see the [`overlay`] module).

pub(crate) mod document;
pub(crate) mod fields;
pub(crate) mod inline_schemas;
pub(crate) mod lazy_schemas;
pub(crate) mod open_api;
pub mod overlay;
pub(crate) mod parse;
pub(crate) mod paths;
pub(crate) mod pointer;
pub(crate) mod refs;
pub(crate) mod route_reader;
pub(crate) mod routes;
pub(crate) mod skip_unread;
pub(crate) mod swagger2;
pub(crate) mod version;

pub use open_api::{LoadOptions, OpenApi};
pub use overlay::{Overlay, OverlaySource, OverlayVersion};
pub use parse::parse_slice;
pub use refs::{RemoteFetcher, RemoteRefs};
pub use version::SpecVersion;
