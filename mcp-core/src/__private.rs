//! Items the `#[tool]` and `#[toolbox]` macros expand to. Not public API:
//! anything here may change in any release (`mcp-core` pins `mcp-macros`).

use std::marker::PhantomData;

mod args;

pub use schemars;
pub use serde;
pub use serde_json;

use crate::tool::handler::ToolOutput;
use crate::{IntoCallToolResult, MetaKeyProblemKind, ToolBuilder};

pub use args::{ArgList, ArgNames, Args, Single, is_object_input};

/// Why `key` cannot be an `_meta` key, as a compile error message (the
/// macro panics with it in a `const` spanned at the key), or `None`. The
/// rule is [`meta_key_problem`](crate::meta_key_problem)'s.
pub const fn meta_key_message(key: &str) -> Option<&'static str> {
    let Some(problem) = crate::meta_key_problem(key) else {
        return None;
    };
    Some(match problem.kind {
        MetaKeyProblemKind::ReservedPrefix => {
            "this `_meta` key uses a reserved prefix: labels `modelcontextprotocol` and `mcp` belong to the MCP specification; use your own reverse-DNS prefix such as `com.example/`"
        }
        MetaKeyProblemKind::EmptyLabel => {
            "invalid `_meta` key: a prefix label is empty; a key is `[prefix/]name`, e.g. `com.example.acme/audit-tier`"
        }
        MetaKeyProblemKind::LabelStart => {
            "invalid `_meta` key: a prefix label must start with a letter; a key is `[prefix/]name`, e.g. `com.example.acme/audit-tier`"
        }
        MetaKeyProblemKind::LabelEnd => {
            "invalid `_meta` key: a prefix label must end with a letter or digit; a key is `[prefix/]name`, e.g. `com.example.acme/audit-tier`"
        }
        MetaKeyProblemKind::LabelCharacters => {
            "invalid `_meta` key: a prefix label may only contain letters, digits and hyphens; a key is `[prefix/]name`, e.g. `com.example.acme/audit-tier`"
        }
        MetaKeyProblemKind::NameEnds => {
            "invalid `_meta` key: the name must begin and end with a letter or digit; a key is `[prefix/]name`, e.g. `com.example.acme/audit-tier`"
        }
        MetaKeyProblemKind::NameCharacters => {
            "invalid `_meta` key: the name may only contain letters, digits, `-`, `_` and `.`; a key is `[prefix/]name`, e.g. `com.example.acme/audit-tier`"
        }
    })
}

/// A tool argument must deserialize; checked at the argument's type.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool argument: it does not implement `serde::Deserialize`",
    label = "this type does not implement `serde::Deserialize`",
    note = "derive `serde::Deserialize` for it (tool arguments are read from the call's JSON)"
)]
pub trait ArgDeserialize {}

impl<T: serde::de::DeserializeOwned> ArgDeserialize for T {}

/// A tool argument must have a schema; checked at the argument's type.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool argument: it does not implement `schemars::JsonSchema`",
    label = "this type does not implement `schemars::JsonSchema`",
    note = "derive `schemars::JsonSchema` for it (the tool's input schema is derived from it)"
)]
pub trait ArgSchema {}

impl<T: schemars::JsonSchema> ArgSchema for T {}

/// Asserts at compile time that `T` can be a tool argument.
pub const fn assert_arg<T: ?Sized + ArgDeserialize + ArgSchema>() {}

/// The return type `R` of a tool function, for choosing between plain and
/// structured output by trait bounds (autoref specialization): the macro
/// calls `(&&&Output::<R>::new()).output_of(builder)`.
#[derive(Debug)]
pub struct Output<R>(PhantomData<fn() -> R>);

impl<R> Output<R> {
    /// The marker.
    pub const fn new() -> Self {
        Self(PhantomData)
    }
}

impl<R> Default for Output<R> {
    fn default() -> Self {
        Self::new()
    }
}

/// First choice: `R` already is a plain result (`String`, `&str`, `()`,
/// `Content`, `Vec<Content>`, `CallToolResult`, or a `Result` of one): no
/// output schema.
pub trait PlainOutput {
    /// Leaves the builder as it is.
    fn output_of<In>(self, builder: ToolBuilder<In>) -> ToolBuilder<In>;
}

impl<R: IntoCallToolResult> PlainOutput for &&&Output<R> {
    fn output_of<In>(self, builder: ToolBuilder<In>) -> ToolBuilder<In> {
        builder
    }
}

/// Second choice: `R` is `Result<T, E>`: `T` is the structured output.
pub trait ResultOutput {
    /// The `Ok` type.
    type Ok;
    /// Calls `.output::<T>()`.
    fn output_of<In>(self, builder: ToolBuilder<In>) -> ToolBuilder<In, Self::Ok>;
}

impl<T: ToolOutput, E> ResultOutput for &&Output<Result<T, E>> {
    type Ok = T;
    fn output_of<In>(self, builder: ToolBuilder<In>) -> ToolBuilder<In, T> {
        builder.output::<T>()
    }
}

/// Last choice: `R` itself is the structured output.
pub trait ValueOutput {
    /// The structured output type.
    type Value;
    /// Calls `.output::<R>()`.
    fn output_of<In>(self, builder: ToolBuilder<In>) -> ToolBuilder<In, Self::Value>
    where
        Self::Value: ToolOutput;
}

impl<R> ValueOutput for &Output<R> {
    type Value = R;
    fn output_of<In>(self, builder: ToolBuilder<In>) -> ToolBuilder<In, R>
    where
        R: ToolOutput,
    {
        builder.output::<R>()
    }
}
