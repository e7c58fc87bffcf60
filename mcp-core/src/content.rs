//! Content blocks: the text, images, audio and resources that tool
//! results, prompt messages and sampling messages carry, with their
//! audience and priority [`Annotations`], and the [`ResourceContents`] an
//! embedded resource (or a `resources/read`) carries.
//!
//! ```
//! use mcp_core::content::{Content, ResourceContents};
//! use serde_json::json;
//!
//! let image = Content::image("iVBORw0KGgo=", "image/png");
//! assert_eq!(
//!     serde_json::to_value(&image)?,
//!     json!({"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"})
//! );
//! let embedded = Content::resource(ResourceContents::text("file:///a.txt", None, "A"));
//! assert_eq!(
//!     serde_json::to_value(&embedded)?,
//!     json!({"type": "resource", "resource": {"uri": "file:///a.txt", "text": "A"}})
//! );
//! # Ok::<(), serde_json::Error>(())
//! ```

pub(crate) mod annotations;
pub(crate) mod block;
pub(crate) mod resource_contents;
pub(crate) mod role;

pub use annotations::Annotations;
pub use block::{Content, EmbeddedResource, MediaContent, TextContent};
pub use resource_contents::ResourceContents;
pub use role::Role;
