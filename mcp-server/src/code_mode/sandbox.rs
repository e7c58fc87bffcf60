//! The JavaScript sandbox a script of `execute` runs in.
//!
//! Every run gets a fresh QuickJS runtime on a thread of its own, so
//! nothing persists between runs (neither globals nor prototypes) and a
//! runaway script never holds an async worker. The runtime has no module
//! loader and none of QuickJS's `std`/`os` modules: no `fetch`, `require`,
//! `import()`, `process`, file system, timers or environment. A script
//! reaches the world only through `tools.<identifier>(input)` and
//! `callTool(name, input)`: each becomes a [`CallRequest`], which the
//! sandbox's own thread turns into the server's call (a [`Caller`]) and
//! polls, on the server's runtime, until its [`CallReply`] settles the
//! script's promise. A tool that answers at once is answered without the
//! thread ever waiting; one that waits on I/O wakes the thread when done.
//!
//! The [`Limits`] are enforced inside the runtime: an interrupt handler
//! stops the script at the deadline (time spent waiting on tools counts),
//! when the call limit is passed, or when the run is cancelled; QuickJS
//! itself bounds memory and stack.

mod calls;
mod engine;
mod host;
mod outcome;
mod pool;
mod script;

use std::sync::Arc;
use std::time::Duration;

use mcp_core::{BoxFuture, JsonObject};

pub(crate) use calls::Calls;
pub(crate) use engine::Job;
#[cfg(test)]
pub(crate) use engine::run;
pub(crate) use outcome::{Outcome, ScriptError};
pub(crate) use pool::{Pool, Start};

/// Makes the server's call a [`CallRequest`] asks for: a future, polled on
/// the sandbox's thread, that answers with its [`CallReply`].
pub(crate) type Caller = Arc<dyn Fn(CallRequest) -> BoxFuture<'static, CallReply> + Send + Sync>;

/// What one run may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Limits {
    /// Wall time from the start of the run, waiting on tools included.
    pub(crate) time: Duration,
    /// The bytes the runtime may allocate.
    pub(crate) memory_bytes: usize,
    /// The tool calls one run may make.
    pub(crate) calls: usize,
    /// The bytes of the returned value as JSON.
    pub(crate) result_bytes: usize,
    /// The bytes of native stack JavaScript may use.
    pub(crate) stack_bytes: usize,
    /// The bytes of captured console output.
    pub(crate) log_bytes: usize,
}

/// A tool call a script makes, for the server to run.
#[derive(Debug)]
pub(crate) struct CallRequest {
    /// The call's number within the run.
    pub(crate) id: u64,
    /// The tool as the script named it.
    pub(crate) tool: ToolRef,
    /// The input, when the script gave one.
    pub(crate) arguments: Option<JsonObject>,
}

/// How a script named a tool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ToolRef {
    /// `tools.<identifier>`.
    Identifier(String),
    /// `callTool(name, ...)`.
    Name(String),
}

/// The server's answer to a [`CallRequest`].
#[derive(Debug)]
pub(crate) struct CallReply {
    /// The number of the call answered.
    pub(crate) id: u64,
    /// The tool's value as JSON text, or the message of the error to throw.
    pub(crate) outcome: Result<String, String>,
    /// How the value departs from the tool's documented output schema, when
    /// the tool passed it on regardless.
    pub(crate) mismatch: Option<Mismatch>,
}

/// A value that does not match its tool's documented output schema: the
/// run's logs say so once per tool.
#[derive(Debug)]
pub(crate) struct Mismatch {
    /// The tool, as scripts call it.
    pub(crate) tool: String,
    /// Where and how the value departs from the schema.
    pub(crate) message: String,
}

#[cfg(test)]
mod tests;
