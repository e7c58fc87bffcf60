//! The edge to `rmcp`: our `ServerHandler`, the call channel on rmcp's peer,
//! and conversions between `mcp_core` and `rmcp::model` values. Only this
//! module and [`transport`](crate::transport) name rmcp.

mod channel;
mod convert;
mod handler;
mod resources;
// issue 7: prompts, completion, logging, subscriptions, sampling and elicitation
mod input_round;
mod interaction;
mod listen;
mod prompts;
mod session_state;
mod tasks;

pub(crate) use convert::WireTools;
pub(crate) use handler::Handler;
pub(crate) use tasks::Tasks;
