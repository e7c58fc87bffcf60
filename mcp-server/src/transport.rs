//! Transports: stdio, any byte stream, and Streamable HTTP.

mod http;
mod io;
mod shutdown;

pub use self::http::{HttpConfig, HttpServer};
