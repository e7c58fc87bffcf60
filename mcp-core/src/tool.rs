//! Tools: the protocol value ([`Tool`] with its annotations, execution
//! support and name rule), the fluent [`tool`] builder, the handler a tool
//! runs, and the [`ToolDef`] a server hosts. The crate root re-exports all
//! of it.

pub(crate) mod annotations;
pub(crate) mod builder;
pub(crate) mod def;
pub(crate) mod execution;
pub(crate) mod handler;
pub(crate) mod input;
pub(crate) mod output;
pub(crate) mod schema;
pub(crate) mod value;

pub use annotations::{Hint, ToolAnnotations};
pub use builder::{ToolBuilder, tool};
pub use def::ToolDef;
pub use execution::{TaskSupport, ToolExecution};
pub use handler::{ToolFn, ToolHandler};
pub use input::ToolInput;
pub use output::{IntoToolResult, ToolOutput, Unstructured};
pub use schema::{SharedDef, ToolSchema};
pub use value::Tool;
