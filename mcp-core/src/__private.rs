//! Items the `#[tool]` and `#[toolbox]` macros expand to. Not public API:
//! anything here may change in any release (`mcp-core` pins `mcp-macros`).

mod args;
pub(crate) mod checks;
mod output;

pub use schemars;
pub use serde;
pub use serde_json;

pub use args::{
    ArgList, Args, Described, ObjectSchema, Param, ParamCode, Single, described_input,
    is_object_input, param_code,
};
pub use checks::{ArgDeserialize, ArgSchema, ConstMessage, meta_key_message};
pub use output::{Output, PlainOutput, ResultOutput, ValueOutput};
