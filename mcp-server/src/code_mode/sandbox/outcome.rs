//! How a run ended, and the messages a model reads when it failed.

use std::fmt;
use std::time::Duration;

pub(crate) use crate::results::readable_size as size;

/// What a run gives back.
#[derive(Debug)]
pub(crate) struct Outcome {
    /// The returned value as JSON text (`None`: the script returned
    /// `undefined`), or why the run failed.
    pub(crate) result: Result<Option<String>, ScriptError>,
    /// What the script wrote with `console`, one entry a call.
    pub(crate) logs: Vec<String>,
    /// The tool calls the script made.
    pub(crate) calls: usize,
}

/// A place in the script, 1-based: the line, and the column when the
/// engine knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Position {
    /// The script's line.
    pub(crate) line: u32,
    /// The column on that line (in characters).
    pub(crate) column: Option<u32>,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(column) => write!(f, "line {}, column {column}", self.line),
            None => write!(f, "line {}", self.line),
        }
    }
}

/// Why a run failed. Each message names what happened and, where the
/// script is at fault, the line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ScriptError {
    /// The code does not parse.
    Syntax {
        /// Where in the script, when known.
        at: Option<Position>,
        /// The parser's message.
        message: String,
    },
    /// The script threw (or its promise was rejected) and nothing caught it.
    Uncaught {
        /// The error's name (`Error`, `TypeError`, ...), when it is an error.
        name: Option<String>,
        /// Where in the script it was thrown, when known.
        at: Option<Position>,
        /// The error's message, or the thrown value as text.
        message: String,
    },
    /// The wall-time limit passed.
    Time {
        /// The limit.
        limit: Duration,
        /// The calls made by then.
        calls: usize,
    },
    /// The runtime ran out of its memory.
    Memory {
        /// The limit in bytes.
        limit: usize,
    },
    /// The script made more calls than allowed.
    Calls {
        /// The limit.
        limit: usize,
    },
    /// The returned value is larger than allowed.
    ResultTooLarge {
        /// Its size as JSON.
        bytes: usize,
        /// The limit.
        limit: usize,
    },
    /// The returned value cannot be written as JSON (it holds a `Promise`,
    /// a cycle, a `BigInt`, ...).
    Unserializable {
        /// What JSON.stringify or the check said.
        message: String,
    },
    /// The script's promise can never settle: nothing is running and no
    /// call is outstanding.
    NeverSettled,
    /// The request was cancelled.
    Cancelled,
    /// The sandbox could not be set up (a thread or a runtime could not be
    /// made).
    Sandbox(String),
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Syntax { at, message } => {
                write!(f, "SyntaxError{}: {message}", place(*at))
            }
            Self::Uncaught { name, at, message } => {
                let name = name.as_deref().unwrap_or("a thrown value");
                write!(f, "uncaught {name}{}: {message}", place(*at))
            }
            Self::Time { limit, calls } => write!(
                f,
                "time limit of {} exceeded after {calls} call{}",
                seconds(*limit),
                plural(*calls)
            ),
            Self::Memory { limit } => write!(
                f,
                "memory limit of {} MiB exceeded: work on fewer or smaller values at once",
                limit / (1024 * 1024)
            ),
            Self::Calls { limit } => write!(
                f,
                "call limit of {limit} tool calls per run exceeded: fetch more per call (larger pages) or split the work over several runs"
            ),
            Self::ResultTooLarge { bytes, limit } => write!(
                f,
                "the returned value is {} as JSON, over the limit of {}: return only what the answer needs (filter, count or summarize in the script)",
                size(*bytes),
                size(*limit)
            ),
            Self::Unserializable { message } => {
                write!(f, "the returned value cannot be written as JSON: {message}")
            }
            Self::NeverSettled => f.write_str(
                "the script's promise never settles: nothing is running and no tool call is outstanding (a `new Promise` whose resolve is never called?)",
            ),
            Self::Cancelled => f.write_str("the run was cancelled"),
            Self::Sandbox(reason) => write!(f, "the sandbox could not start: {reason}"),
        }
    }
}

fn place(at: Option<Position>) -> String {
    at.map(|at| format!(" at {at}")).unwrap_or_default()
}

fn plural(count: usize) -> &'static str {
    if count == 1 { "" } else { "s" }
}

/// `30 s`, or `1.5 s` for limits that are not whole seconds.
fn seconds(duration: Duration) -> String {
    if duration.subsec_millis() == 0 {
        format!("{} s", duration.as_secs())
    } else {
        format!("{:.1} s", duration.as_secs_f64())
    }
}
