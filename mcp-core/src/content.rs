//! Content blocks: the text, images, audio and resources that tool
//! results, prompt messages and sampling messages carry, with their
//! audience and priority [`Annotations`].
//!
//! A block may link or embed a resource, so content uses the
//! [`resource`](mod@crate::resource) values; resources and prompt messages
//! share [`Annotations`] and [`Role`] with content blocks, which are
//! re-exported here.
//!
//! ```
//! use mcp_core::content::Content;
//! use mcp_core::resource::ResourceContents;
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

pub(crate) mod block;

pub use crate::annotations::Annotations;
pub use crate::role::Role;
pub use block::{Content, EmbeddedResource, MediaContent, TextContent};
