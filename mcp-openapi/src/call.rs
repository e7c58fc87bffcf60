//! Calling the API: the only part of this crate that does I/O.
//!
//! An [`HttpToolHandler`] is the handler of a generated tool: it validates
//! the arguments, builds the request ([`build_request`], pure: parameters
//! serialized per `style` / `explode`, the body encoded in its media type),
//! applies the credentials of the route's security schemes, sends it with
//! the [`RetryPolicy`], a timeout and cancellation, and maps the response
//! to a tool result (see [`tolerant_output_schema`]). Every tool of a
//! document shares one [`ClientConfig`]. Failures are [`CallError`]s,
//! reported to the model as error results.

pub(crate) mod authorizer;
pub(crate) mod binary;
pub(crate) mod body;
pub(crate) mod client_config;
pub(crate) mod error;
pub(crate) mod execute;
pub(crate) mod multipart;
pub(crate) mod passthrough;
pub(crate) mod request;
pub(crate) mod response;
pub(crate) mod retry;
pub(crate) mod security;
pub(crate) mod server_url;
pub(crate) mod style;

pub use client_config::{ClientConfig, ClientConfigBuilder, USER_AGENT};
pub use error::CallError;
pub use execute::HttpToolHandler;
pub use passthrough::with_incoming_authorization;
pub use request::{PreparedRequest, build_request};
pub use response::tolerant_output_schema;
pub use retry::RetryPolicy;
pub use security::{
    ApiKeyLocation, Credential, Credentials, Secret, SecurityScheme, SecuritySchemes,
};
