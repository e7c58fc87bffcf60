//! Generation: each route becomes a tool (or, as the [`route_map`]s say, a
//! resource, a resource template, or nothing).
//!
//! A [`Generator`] names each tool, lowers the route's schemas to its input
//! and output schemas with the [`RequestBinding`](crate::ir::RequestBinding)
//! of its arguments, sets its annotations and `_meta`, and lets a
//! [`Customization`] hook have the last word; [`Generated::tool_defs`] and
//! [`Generated::resource_defs`] attach the HTTP handlers.
//! [`tool_stats`] measures what the tools cost a model's context.

pub(crate) mod customization;
pub(crate) mod generator;
pub(crate) mod lower;
pub(crate) mod names;
pub(crate) mod resource;
pub mod route_map;
pub(crate) mod stats;
pub(crate) mod tool_defs;

pub use customization::Customization;
pub use generator::{Generated, GeneratedTool, Generator};
pub use resource::{GeneratedResource, GeneratedResourceTemplate};
pub use stats::{ToolSize, ToolStats, tool_stats};
