//! Transports: stdio, any byte stream, and Streamable HTTP.

#[cfg(feature = "http")]
mod http;
#[cfg(feature = "http")]
mod shutdown;
#[cfg(feature = "stdio")]
mod stdio;
#[cfg(feature = "testing")]
#[doc(hidden)]
pub mod testing;

#[cfg(feature = "http")]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub use self::http::auth;
#[cfg(feature = "http")]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub use self::http::{HttpConfig, HttpServer};
