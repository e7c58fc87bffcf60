//! The edge to `rmcp`: our `ServerHandler`, the call channel on rmcp's peer,
//! and conversions between `mcp_core` and `rmcp::model` values. Only this
//! module and [`transport`](crate::transport) name rmcp.

mod channel;
mod convert;
mod handler;
mod resources;

pub(crate) use convert::WireTools;
pub(crate) use handler::Handler;
