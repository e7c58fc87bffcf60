//! Choosing between plain and structured output from a tool function's
//! return type, by trait bounds.

use std::marker::PhantomData;

use crate::tool::builder::ToolBuilder;
use crate::tool::output::ToolOutput;
use crate::tool::result::IntoCallToolResult;

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
