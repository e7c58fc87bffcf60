//! The MCP protocol on rmcp: our `ServerHandler` reads the server state and
//! answers every request, converting between `mcp_core` and `rmcp::model`
//! values. Only this module and [`transport`](crate::transport) name rmcp;
//! the server state knows nothing of it.
//!
//! The files here answer one request family each (`tools`, `prompts`,
//! `resources`, `completion`, `listen`) from the [`handler`]; the folders
//! hold what several of them share:
//!
//! - `channel/`: the way back to the client during a request (the peer,
//!   server-to-client requests and log messages, 2026-07-28 input rounds);
//! - `task/`: the task engine (its records, the task's channel, the replica's
//!   heartbeat and commands, how a call runs, the per-session limit, a call
//!   escalating into a task) and its requests;
//! - `v2025/`: the 2025-11-25 compatibility shim (that generation's task
//!   requests and wire shapes, and the private fields parked on the way in
//!   and out past rmcp, which models only 2026-07-28).

mod capabilities;
mod channel;
mod completion;
pub(crate) mod convert;
pub(crate) mod handler;
mod listen;
mod prompts;
mod resources;
mod session_state;
pub(crate) mod sse_stream;
pub(crate) mod task;
mod tool_view;
mod tools;
mod traced;
pub(crate) mod v2025;
mod version;
mod wire_tools;
