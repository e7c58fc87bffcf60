//! Code mode: the model finds tools as TypeScript declarations and chains
//! any number of calls in one JavaScript script, run in a sandbox; only
//! the script's answer comes back.
//!
//! `tools/list` shows `search_tools` and `execute` (plus pinned tools), and
//! every tool stays callable directly.
//!
//! - `search_tools` takes discovery mode's arguments and ranking and
//!   answers with each hit's `name` and `typescript` declaration, the
//!   signature a script codes against (`detail: true` adds the full input
//!   schema). Every name its answers show (hits, `more`, category
//!   listings) and the `catalog` shows is a tool's identifier, callable as
//!   `tools.<name>`, with the tool's own name beside it as `tool` where the
//!   two differ; a search for an identifier finds its tool first.
//! - `execute` takes `code`: an async arrow function, or a body that may
//!   `await` and `return`. Inside, `await tools.<identifier>(input)` (the
//!   name with every character outside `[A-Za-z0-9_$]` as `_`) and
//!   `await callTool(name, input)` (a tool's name, or its identifier) call
//!   tools through the same path as a direct `tools/call` (middleware,
//!   argument checks, the session's OAuth scopes, a span per call,
//!   cancellation). A call resolves to the tool's value (structured
//!   content, unwrapped from a `{"result": ...}` envelope, or its text
//!   parsed as JSON) and a failed call throws an `Error` with the tool's
//!   message. A value a tool passes on although it does not match its
//!   documented output schema (a generated tool's `unvalidatedResponse`)
//!   is the value as the API sent it, and the run's `logs` say once per
//!   tool where it departs from the schema; a direct `tools/call` still
//!   answers with the envelope. `catalog` holds every tool as data;
//!   `console` output is captured. The answer's `structuredContent` is
//!   `{"result", "logs", "calls"}` and its text the result as JSON.
//!
//! Each run gets a fresh QuickJS runtime on a thread of its own (a bounded
//! number at once), with limits on wall time (waiting on tools included),
//! memory, stack, calls and result size ([`CodeMode`]). That thread makes
//! the script's calls itself, on the server's runtime, so a call costs no
//! hop between threads. The sandbox has no `fetch`, `require`, `import()`,
//! `process`, file system, timers or environment: tools are its only way
//! out.
//!
//! ```
//! use mcp_server::{CodeMode, Server};
//! use serde_json::json;
//!
//! /// Adds two numbers.
//! #[mcp_core::tool]
//! async fn add(a: i64, b: i64) -> i64 {
//!     a + b
//! }
//!
//! let server = Server::builder().tool(add_tool()?).code_mode(CodeMode::new()).build()?;
//!
//! let execute = server.tool("execute").expect("code mode's execute");
//! let script = "const sums = await Promise.all([1, 2, 3].map((n) => tools.add({ a: n, b: 10 })));
//! return sums.reduce((total, sum) => total + sum, 0);";
//! # tokio::runtime::Runtime::new()?.block_on(async {
//! let result = execute.call_detached(json!({ "code": script })).await;
//! assert_eq!(result.structured_content, Some(json!({ "result": 36, "logs": [], "calls": 3 })));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! # })?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod catalog;
mod execute;
mod execute_example;
mod execute_tool;
mod identifiers;
pub(crate) mod invoke;
mod sandbox;
pub(crate) mod search;
mod settings;
mod state;
pub(crate) mod typescript;
mod value;
pub(crate) mod view;

pub use execute_tool::EXECUTE;
pub use settings::CodeMode;
pub(crate) use state::CodeModeState;
