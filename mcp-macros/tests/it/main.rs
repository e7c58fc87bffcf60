//! Integration tests of `#[tool]` and `#[toolbox]`: parity with the builder,
//! calls through `ToolDef`, toolboxes and contexts.

// Tests state their expectations with `unwrap`.
#![allow(clippy::unwrap_used)]

mod args;
mod calls;
mod parity;
mod prompt;
mod resource;
mod toolbox;
