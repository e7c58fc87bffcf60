//! Items the `#[tool]` and `#[toolbox]` macros expand to. Not public API:
//! anything here may change in any release (`mcp-core` pins `mcp-macros`).

mod args;
mod checks;
mod output;

pub use schemars;
pub use serde;
pub use serde_json;

pub use args::{ArgList, ArgNames, Args, Single, is_object_input};
pub use checks::{ArgDeserialize, ArgSchema, assert_arg, meta_key_message};
pub use output::{Output, PlainOutput, ResultOutput, ValueOutput};
