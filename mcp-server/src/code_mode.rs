//! Code mode: the model finds tools as TypeScript declarations and calls
//! them from a script.

#[allow(dead_code, reason = "the execute side calls these")]
pub(crate) mod search;
#[allow(dead_code, reason = "the execute side calls these")]
pub(crate) mod typescript;
