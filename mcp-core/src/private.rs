//! Items the `#[tool]` and `#[toolbox]` macros expand to. Not public API:
//! anything here may change in any release (`mcp-core` pins `mcp-macros`).

use std::any::TypeId;
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::marker::PhantomData;
use std::sync::{Mutex, OnceLock};

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};

pub use schemars;
pub use serde;
pub use serde_json;

use crate::handler::ToolOutput;
use crate::{IntoCallToolResult, ToolBuilder};

/// Whether the arguments of a tool whose single parameter has type `T` are
/// `T` itself (its schema describes an object) or an object with one
/// property named after the parameter. Computed once per type.
pub fn is_object_input<T: JsonSchema + 'static>() -> bool {
    static KNOWN: OnceLock<Mutex<HashMap<TypeId, bool>>> = OnceLock::new();
    let known = KNOWN.get_or_init(Mutex::default);
    let id = TypeId::of::<T>();
    if let Some(answer) = known.lock().ok().and_then(|map| map.get(&id).copied()) {
        return answer;
    }
    let answer = crate::schema::input_schema_for::<T>().is_ok();
    if let Ok(mut map) = known.lock() {
        map.insert(id, answer);
    }
    answer
}

/// The generated one-field arguments struct of a tool with one parameter.
pub trait SingleArg {
    /// The parameter's type.
    type Value;
    /// The parameter's value.
    fn into_value(self) -> Self::Value;
}

/// The arguments of a tool with one parameter of type `T`: `T` itself when
/// its schema is an object (a struct, a map), else `A`, the object with one
/// property named after the parameter. One type, so the handler is compiled
/// once; the choice is made from `T`'s schema (see [`is_object_input`]).
pub struct Single<T, A> {
    /// The parameter's value.
    pub value: T,
    args: PhantomData<fn() -> A>,
}

impl<T, A> fmt::Debug for Single<T, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Single")
    }
}

impl<'de, T, A> Deserialize<'de> for Single<T, A>
where
    T: DeserializeOwned + JsonSchema + 'static,
    A: DeserializeOwned + SingleArg<Value = T>,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = if is_object_input::<T>() {
            T::deserialize(deserializer)?
        } else {
            A::deserialize(deserializer)?.into_value()
        };
        Ok(Self {
            value,
            args: PhantomData,
        })
    }
}

impl<T: JsonSchema + 'static, A: JsonSchema> JsonSchema for Single<T, A> {
    fn inline_schema() -> bool {
        if is_object_input::<T>() {
            T::inline_schema()
        } else {
            A::inline_schema()
        }
    }

    fn schema_name() -> Cow<'static, str> {
        if is_object_input::<T>() {
            T::schema_name()
        } else {
            A::schema_name()
        }
    }

    fn schema_id() -> Cow<'static, str> {
        if is_object_input::<T>() {
            T::schema_id()
        } else {
            A::schema_id()
        }
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        if is_object_input::<T>() {
            T::json_schema(generator)
        } else {
            A::json_schema(generator)
        }
    }
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
