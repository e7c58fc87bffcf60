//! Tasks: the engine that runs a tool call as a task for both protocol
//! generations ([`engine`], with the commands that reach a task wherever it
//! runs in [`commands`]), the record it keeps in the task store
//! ([`record`]), what a task's handler talks to ([`channel`]), this replica
//! among others sharing the store ([`replica`]), whether a call runs inline
//! or as a task ([`mode`]), the tasks a session may keep ([`limit`]) and a
//! 2026-07-28 call that starts inline and moves into a task
//! ([`escalation`]).
//!
//! The 2025-11-25 task requests are served in
//! [`v2025::tasks`](super::v2025::tasks) on this engine.

pub(crate) mod channel;
pub(crate) mod commands;
pub(crate) mod engine;
pub(crate) mod escalation;
pub(crate) mod limit;
pub(crate) mod mode;
pub(crate) mod record;
pub(crate) mod replica;
