//! The 2025-11-25 compatibility shim. rmcp 3.11 models only the 2026-07-28
//! protocol, where tasks are an extension; this folder serves the older
//! generation on the same engine:
//!
//! - [`tasks`]: its task requests (`tools/call` with `params.task`,
//!   `tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel`);
//! - [`wire`]: its wire shapes (the `Task` object, `params.task`);
//! - [`park_in`]: what the transports rewrite as a message enters the
//!   process, so `params.task` and the 2025-11-25 `tasks/get` and
//!   `tasks/cancel` get past rmcp's parser;
//! - [`park_out`]: what they restore as a message leaves it: `Tool.execution`,
//!   the `tasks` server capability and a task's result.

pub(crate) mod park_in;
pub(crate) mod park_out;
pub(crate) mod tasks;
pub(crate) mod wire;
