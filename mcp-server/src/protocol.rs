//! The MCP protocol on rmcp: our `ServerHandler` reads the server state and
//! answers every request, converting between `mcp_core` and `rmcp::model`
//! values. Only this module and [`transport`](crate::transport) name rmcp;
//! the server state knows nothing of it.

mod capabilities;
mod channel;
mod completion;
mod convert;
mod escalation;
pub(crate) mod handler;
mod input_round;
mod interaction;
mod listen;
mod prompts;
mod resources;
pub(crate) mod restore_execution;
mod session_state;
pub(crate) mod sse_stream;
pub(crate) mod task_limit;
pub(crate) mod task_param;
mod task_wire_2025;
mod tasks;
mod tasks_2025;
mod tasks_channel;
mod tasks_mode;
mod tasks_record;
mod tasks_replica;
mod tool_view;
mod tools;
mod traced;
mod wire_tools;
