//! Resources: the protocol values ([`Resource`], [`ResourceTemplate`],
//! [`ResourceContents`], the result of `resources/read`), the fluent
//! [`resource`](fn@resource) and [`resource_template`] builders, RFC 6570
//! [`UriTemplate`]s, the handler that reads a resource and the
//! [`ResourceDef`] a server hosts.
//!
//! ```
//! use mcp_core::resource::{resource_template, ResourceDef, ResourceRequest};
//!
//! let user: ResourceDef = resource_template("users://{id}/profile", "user_profile")
//!     .mime_type("application/json")
//!     .read(|req: ResourceRequest| async move {
//!         format!(r#"{{"id":"{}"}}"#, req.variable("id").unwrap_or_default())
//!     })?;
//! let result = futures_executor::block_on(user.read_detached("users://7/profile"))?;
//! assert_eq!(
//!     serde_json::to_value(&result)?["contents"][0],
//!     serde_json::json!({"uri": "users://7/profile", "mimeType": "application/json", "text": r#"{"id":"7"}"#})
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub(crate) mod builder;
pub(crate) mod contents;
pub(crate) mod def;
pub(crate) mod error;
pub(crate) mod handler;
pub(crate) mod request;
pub(crate) mod result;
pub(crate) mod uri_template;
pub(crate) mod value;

pub use builder::{ResourceBuilder, resource, resource_template};
pub use contents::ResourceContents;
pub use def::{ResourceDef, ResourceKind};
pub use error::ResourceError;
pub use handler::{ResourceFn, ResourceHandler};
pub use request::ResourceRequest;
pub use result::{IntoReadResourceResult, ReadResourceResult};
pub use uri_template::{UriTemplate, UriTemplateError};
pub use value::{Resource, ResourceTemplate};
