//! Transports: stdio, any byte stream, and Streamable HTTP.

mod http;
mod shutdown;
mod stdio;

pub use self::http::auth;
pub use self::http::{HttpConfig, HttpServer};
