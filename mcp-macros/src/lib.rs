//! Attribute macros for `mcp-core` (`#[tool]`, `#[toolbox]`).
//!
//! This crate is being built; it exports no macro yet. Use the fluent
//! builder `mcp_core::tool(..)` meanwhile: the macros will expand to exactly
//! that builder chain.
