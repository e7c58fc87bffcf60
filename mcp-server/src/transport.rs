//! Transports: stdio, any byte stream, and Streamable HTTP.

mod http;
mod io;
mod lift;
mod shutdown;

pub use self::http::{HttpConfig, HttpServer};
