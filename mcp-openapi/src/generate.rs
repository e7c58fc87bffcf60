//! Generation: each route becomes a tool (or, as the [`route_map`]s say, a
//! resource, a resource template, or nothing).
//!
//! A [`Generator`] names each tool, lowers the route's schemas to its input
//! and output schemas with the [`RequestBinding`](crate::ir::RequestBinding)
//! of its arguments, sets its annotations and `_meta`, and lets a
//! [`Customization`] hook have the last word; [`Generated::tool_defs`] and
//! [`Generated::resource_defs`] attach the HTTP handlers.
//! Output schemas larger than a budget ([`DEFAULT_OUTPUT_BUDGET`], set with
//! [`Generator::output_budget`]) are loosened until they fit
//! ([`trimmed_output_schema`]); input schemas are never trimmed.
//! [`tool_stats`] measures what the tools cost a model's context.

pub(crate) mod budget;
pub(crate) mod customization;
pub(crate) mod generator;
pub(crate) mod lower;
pub(crate) mod names;
pub(crate) mod resource;
pub mod route_map;
pub(crate) mod stats;
#[cfg(feature = "call")]
pub(crate) mod tool_defs;

pub use budget::{DEFAULT_OUTPUT_BUDGET, trimmed_output_schema};
pub use customization::Customization;
pub use generator::{Generated, GeneratedTool, Generator};
pub use resource::{GeneratedResource, GeneratedResourceTemplate};
pub use stats::{TOOL_SIZE_LIMIT, ToolSize, ToolStats, tool_stats};
