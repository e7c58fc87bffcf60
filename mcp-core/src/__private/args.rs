//! The arguments of a `#[tool]` function with plain parameters: read from
//! the call's object by name, described by one property each. No struct is
//! derived per tool (only a marker type per parameter), so each parameter
//! type's `Deserialize` and `JsonSchema` code is compiled once, as for a
//! builder tool.

use std::any::TypeId;
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::marker::PhantomData;
use std::sync::{Mutex, OnceLock};

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use crate::__private::checks::{ArgDeserialize, ArgSchema};
use crate::arguments::error::pointer_segment;
use crate::json::JsonObject;
use crate::schema::input_schema_for;
use crate::tool::builder::ToolBuilder;
use crate::tool::input::{ToolInput, json_pointer};

/// One plain parameter of a `#[tool]` function: a marker type the macro
/// makes per parameter, naming it and giving its type and [`ParamCode`].
///
/// The macro writes `const CODE: ParamCode<Self::Type> = param_code::<T>();`
/// spanned at the parameter's type: `param_code` alone asks for
/// `Deserialize` and `JsonSchema`, so a type missing one is one error,
/// at the parameter, and nothing else in the expansion asks again.
pub trait Param: 'static {
    /// The parameter's name, as written (without `r#`).
    const NAME: &'static str;
    /// The parameter's type.
    type Type: 'static;
    /// How the parameter is read and described.
    const CODE: ParamCode<Self::Type>;
    /// `#[arg(description = "..")]`: the property's `description`.
    const DESCRIPTION: Option<&'static str> = None;

    /// `#[arg(default = ..)]` as JSON: the property's `default`, and the
    /// value of a call that leaves the parameter out.
    fn default_value() -> Option<Value> {
        None
    }

    /// `#[arg(example = ..)]`s as JSON, in order: the property's `examples`.
    fn examples() -> Vec<Value> {
        Vec::new()
    }
}

/// Whether `#[arg(..)]` says anything about `P`.
fn has_metadata<P: Param>() -> bool {
    P::DESCRIPTION.is_some() || P::default_value().is_some() || !P::examples().is_empty()
}

/// What is wrong with `P`'s `#[arg(..)]`: a default or an example that is
/// no value of the parameter's type, each as `(parameter, reason)`.
fn param_problems<P: Param>(problems: &mut Vec<(&'static str, String)>) {
    let values = P::default_value()
        .map(|value| ("default", value))
        .into_iter()
        .chain(P::examples().into_iter().map(|value| ("example", value)));
    for (what, value) in values {
        if let Err((pointer, reason)) = (P::CODE.read)(value.clone()) {
            let at = if pointer.is_empty() {
                String::new()
            } else {
                format!(" (at {pointer})")
            };
            problems.push((
                P::NAME,
                format!("the {what} {value} is not a value of its type{at}: {reason}"),
            ));
        }
    }
}

/// How a parameter of type `T` is read and described: `T`'s `Deserialize`
/// and `JsonSchema` code behind function pointers (see [`param_code`]).
pub struct ParamCode<T> {
    /// Reads a value; on failure the JSON pointer below the value and why.
    read: fn(Value) -> Result<T, (String, String)>,
    /// Whether `T`'s schema describes an object.
    is_object: fn() -> bool,
    inline_schema: fn() -> bool,
    schema_name: fn() -> Cow<'static, str>,
    json_schema: fn(&mut SchemaGenerator) -> Schema,
    subschema: fn(&mut SchemaGenerator) -> Schema,
}

impl<T> fmt::Debug for ParamCode<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ParamCode")
    }
}

/// The [`ParamCode`] of `T`: where a parameter type's traits are required.
pub const fn param_code<T: ArgDeserialize + ArgSchema + 'static>() -> ParamCode<T> {
    ParamCode {
        read: read_value::<T>,
        is_object: is_object_input::<T>,
        inline_schema: T::inline_schema,
        schema_name: T::schema_name,
        json_schema: T::json_schema,
        subschema: SchemaGenerator::subschema_for::<T>,
    }
}

fn read_value<T: DeserializeOwned>(value: Value) -> Result<T, (String, String)> {
    serde_path_to_error::deserialize(value).map_err(|error| {
        let pointer = json_pointer(error.path());
        (pointer, error.into_inner().to_string())
    })
}

/// The parameters of a tool: a tuple of [`Param`] markers.
pub trait ArgList: Sized + 'static {
    /// The parameters' values, in order.
    type Values;
    /// Reads each parameter from `object` under its name.
    fn read(object: &mut JsonObject) -> Result<Self::Values, String>;
    /// Describes each parameter as a property.
    fn describe(generator: &mut SchemaGenerator, object: &mut ObjectSchema);
    /// What is wrong with the parameters' `#[arg(..)]`s.
    fn problems(problems: &mut Vec<(&'static str, String)>);
}

/// The properties and required names of an object schema being built.
#[derive(Debug, Default)]
pub struct ObjectSchema {
    properties: JsonObject,
    required: Vec<Value>,
}

impl ObjectSchema {
    fn into_schema(self) -> Schema {
        let mut object = JsonObject::new();
        object.insert("type".to_owned(), "object".into());
        object.insert("properties".to_owned(), Value::Object(self.properties));
        if !self.required.is_empty() {
            object.insert("required".to_owned(), Value::Array(self.required));
        }
        Schema::from(object)
    }
}

/// Reads parameter `P`: a missing one is read from its default, else from
/// `null` (so `Option` parameters may be left out).
fn read_param<P: Param>(object: &mut JsonObject) -> Result<P::Type, String> {
    let name = P::NAME;
    match object.remove(name) {
        Some(value) => (P::CODE.read)(value)
            .map_err(|(pointer, reason)| format!("/{}{pointer}: {reason}", pointer_segment(name))),
        None => (P::CODE.read)(P::default_value().unwrap_or(Value::Null))
            .map_err(|_| format!("missing field `{name}`")),
    }
}

/// Describes parameter `P` with its `#[arg(..)]`; it is required unless it
/// can be left out (it has a default, or reads from `null`), which is what
/// [`read_param`] does with a missing one.
fn describe_param<P: Param>(generator: &mut SchemaGenerator, object: &mut ObjectSchema) {
    let mut schema = match (P::CODE.subschema)(generator).to_value() {
        Value::Object(schema) => schema,
        // `true`: any value.
        _ => JsonObject::new(),
    };
    if let Some(description) = P::DESCRIPTION {
        schema.insert("description".to_owned(), description.into());
    }
    let default = P::default_value();
    if let Some(default) = &default {
        schema.insert("default".to_owned(), default.clone());
    }
    let examples = P::examples();
    if !examples.is_empty() {
        schema.insert("examples".to_owned(), Value::Array(examples));
    }
    object
        .properties
        .insert(P::NAME.to_owned(), Value::Object(schema));
    if default.is_none() && (P::CODE.read)(Value::Null).is_err() {
        object.required.push(P::NAME.into());
    }
}

macro_rules! arg_list {
    ($($p:ident),+) => {
        impl<$($p: Param),+> ArgList for ($($p,)+) {
            type Values = ($($p::Type,)+);

            fn read(object: &mut JsonObject) -> Result<Self::Values, String> {
                Ok(($(read_param::<$p>(object)?,)+))
            }

            fn describe(generator: &mut SchemaGenerator, object: &mut ObjectSchema) {
                $(describe_param::<$p>(generator, object);)+
            }

            fn problems(problems: &mut Vec<(&'static str, String)>) {
                $(param_problems::<$p>(problems);)+
            }
        }
    };
}

arg_list!(A);
arg_list!(A, B);
arg_list!(A, B, C);
arg_list!(A, B, C, D);
arg_list!(A, B, C, D, E);
arg_list!(A, B, C, D, E, F);
arg_list!(A, B, C, D, E, F, G);
arg_list!(A, B, C, D, E, F, G, H);
arg_list!(A, B, C, D, E, F, G, H, I);
arg_list!(A, B, C, D, E, F, G, H, I, J);
arg_list!(A, B, C, D, E, F, G, H, I, J, K);
arg_list!(A, B, C, D, E, F, G, H, I, J, K, L);

/// The arguments of a tool with several plain parameters `L` (a tuple of
/// [`Param`]s): an object with one property each.
pub struct Args<L: ArgList> {
    /// The parameters' values.
    pub values: L::Values,
    params: PhantomData<fn() -> L>,
}

impl<L: ArgList> fmt::Debug for Args<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Args")
    }
}

impl<'de, L: ArgList> Deserialize<'de> for Args<L> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut object = JsonObject::deserialize(deserializer)?;
        let values = L::read(&mut object).map_err(D::Error::custom)?;
        Ok(Self {
            values,
            params: PhantomData,
        })
    }
}

impl<L: ArgList> JsonSchema for Args<L> {
    fn schema_name() -> Cow<'static, str> {
        "Arguments".into()
    }

    fn schema_id() -> Cow<'static, str> {
        std::any::type_name::<Self>().into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut object = ObjectSchema::default();
        L::describe(generator, &mut object);
        object.into_schema()
    }
}

/// The arguments of a `#[tool]` function ([`Single`] or [`Args`]), whose
/// parameters' `#[arg(..)]`s are checked when the tool is built.
pub trait Described {
    /// What is wrong with the parameters' `#[arg(..)]`s, each as
    /// `(parameter, reason)`.
    fn problems() -> Vec<(&'static str, String)>;
}

impl<L: ArgList> Described for Args<L> {
    fn problems() -> Vec<(&'static str, String)> {
        let mut problems = Vec::new();
        L::problems(&mut problems);
        problems
    }
}

impl<P: Param> Described for Single<P> {
    fn problems() -> Vec<(&'static str, String)> {
        let mut problems = Vec::new();
        if (P::CODE.is_object)() && has_metadata::<P>() {
            let reason = format!(
                "`#[arg(..)]` describes one property, but `{}` is the whole arguments object: document its fields instead",
                (P::CODE.schema_name)()
            );
            problems.push((P::NAME, reason));
        }
        param_problems::<P>(&mut problems);
        problems
    }
}

/// `.input::<T>()`, then the check of its parameters' `#[arg(..)]`s: the
/// first problem is the builder's error.
pub fn described_input<T, In, Out>(builder: ToolBuilder<In, Out>) -> ToolBuilder<T, Out>
where
    T: ToolInput + Described,
{
    let mut builder = builder.input::<T>();
    if let Some((argument, reason)) = T::problems().into_iter().next() {
        builder.argument_error(argument, reason);
    }
    builder
}

/// Whether the arguments of a tool whose one parameter has type `T` are
/// `T` itself (its schema describes an object) rather than an object with
/// one property. Computed once per type.
pub fn is_object_input<T: JsonSchema + 'static>() -> bool {
    static KNOWN: OnceLock<Mutex<HashMap<TypeId, bool>>> = OnceLock::new();
    let known = KNOWN.get_or_init(Mutex::default);
    let id = TypeId::of::<T>();
    if let Some(answer) = known.lock().ok().and_then(|map| map.get(&id).copied()) {
        return answer;
    }
    let answer = input_schema_for::<T>().is_ok();
    if let Ok(mut map) = known.lock() {
        map.insert(id, answer);
    }
    answer
}

/// The arguments of a tool with one plain parameter `P`: its type itself
/// when that type's schema is an object (a struct, a map), as
/// `.input::<T>()` would make them; else an object with one property.
pub struct Single<P: Param> {
    /// The parameter's value.
    pub value: P::Type,
    param: PhantomData<fn() -> P>,
}

impl<P: Param> fmt::Debug for Single<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Single")
    }
}

impl<'de, P: Param> Deserialize<'de> for Single<P> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = if (P::CODE.is_object)() {
            let value = Value::deserialize(deserializer)?;
            (P::CODE.read)(value).map_err(|(pointer, reason)| {
                if pointer.is_empty() {
                    D::Error::custom(reason)
                } else {
                    D::Error::custom(format!("{pointer}: {reason}"))
                }
            })?
        } else {
            let mut object = JsonObject::deserialize(deserializer)?;
            read_param::<P>(&mut object).map_err(D::Error::custom)?
        };
        Ok(Self {
            value,
            param: PhantomData,
        })
    }
}

impl<P: Param> JsonSchema for Single<P> {
    fn inline_schema() -> bool {
        (P::CODE.is_object)() && (P::CODE.inline_schema)()
    }

    fn schema_name() -> Cow<'static, str> {
        if (P::CODE.is_object)() {
            (P::CODE.schema_name)()
        } else {
            "Arguments".into()
        }
    }

    fn schema_id() -> Cow<'static, str> {
        std::any::type_name::<Self>().into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        if (P::CODE.is_object)() {
            return (P::CODE.json_schema)(generator);
        }
        let mut object = ObjectSchema::default();
        describe_param::<P>(generator, &mut object);
        object.into_schema()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    struct A;
    impl Param for A {
        const NAME: &'static str = "a";
        type Type = i64;
        const CODE: ParamCode<i64> = param_code::<i64>();
    }

    struct B;
    impl Param for B {
        const NAME: &'static str = "b";
        type Type = Option<Vec<u8>>;
        const CODE: ParamCode<Self::Type> = param_code::<Self::Type>();
    }

    struct BText;
    impl Param for BText {
        const NAME: &'static str = "b";
        type Type = Option<String>;
        const CODE: ParamCode<Self::Type> = param_code::<Self::Type>();
    }

    /// `#[arg(description = "The city.", default = "Paris", example = "Lyon")] city: String`.
    struct City;
    impl Param for City {
        const NAME: &'static str = "city";
        type Type = String;
        const CODE: ParamCode<String> = param_code::<String>();
        const DESCRIPTION: Option<&'static str> = Some("The city.");
        fn default_value() -> Option<Value> {
            Some(json!("Paris"))
        }
        fn examples() -> Vec<Value> {
            vec![json!("Lyon")]
        }
    }

    /// `#[arg(default = "many", example = 3)] count: u8`: neither is a `u8`.
    struct Count;
    impl Param for Count {
        const NAME: &'static str = "count";
        type Type = u8;
        const CODE: ParamCode<u8> = param_code::<u8>();
        fn default_value() -> Option<Value> {
            Some(json!("many"))
        }
        fn examples() -> Vec<Value> {
            vec![json!(3), json!(300)]
        }
    }

    fn object(value: Value) -> JsonObject {
        match value {
            Value::Object(object) => object,
            _ => JsonObject::new(),
        }
    }

    #[test]
    fn reads_by_name_and_names_the_problem() {
        let read = |value: Value| <(A, B)>::read(&mut object(value));
        assert_eq!(read(json!({"a": 1})), Ok((1, None)));
        assert_eq!(read(json!({"a": 1, "b": [2]})), Ok((1, Some(vec![2]))));
        assert_eq!(read(json!({"b": [2]})), Err("missing field `a`".to_owned()));
        let nested = read(json!({"a": 1, "b": [2, "x"]})).unwrap_err();
        assert!(nested.starts_with("/b/1: invalid type"), "{nested}");
    }

    #[test]
    fn arg_metadata_describes_the_property_and_a_default_fills_a_missing_one() {
        let schema = crate::schema::input_schema_for::<Args<(A, City)>>().unwrap();
        assert_eq!(
            schema["properties"]["city"],
            json!({"type": "string", "description": "The city.", "default": "Paris", "examples": ["Lyon"]})
        );
        assert_eq!(schema["required"], json!(["a"]));
        let read = |value: Value| <(A, City)>::read(&mut object(value));
        assert_eq!(read(json!({"a": 1})), Ok((1, "Paris".to_owned())));
        assert_eq!(
            read(json!({"a": 1, "city": "Lyon"})),
            Ok((1, "Lyon".to_owned()))
        );
        assert!(<Args<(A, City)>>::problems().is_empty());
    }

    #[test]
    fn a_default_or_example_outside_the_type_is_a_problem() {
        let problems = <Single<Count>>::problems();
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert_eq!(problems[0].0, "count");
        assert!(
            problems[0]
                .1
                .starts_with("the default \"many\" is not a value of its type: invalid type"),
            "{problems:?}"
        );
        assert!(
            problems[1]
                .1
                .starts_with("the example 300 is not a value of its type"),
            "{problems:?}"
        );
    }

    #[test]
    fn describes_each_parameter_and_requires_the_non_optional_ones() {
        let schema = crate::schema::input_schema_for::<Args<(A, BText)>>().unwrap();
        assert_eq!(
            Value::Object(schema),
            json!({
                "type": "object",
                "properties": {
                    "a": {"type": "integer", "format": "int64"},
                    "b": {"type": "string"}
                },
                "required": ["a"]
            })
        );
    }
}
