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
use crate::tool::input::json_pointer;

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

/// Reads parameter `P`: a missing one is read from `null` (so `Option`
/// parameters may be left out).
fn read_param<P: Param>(object: &mut JsonObject) -> Result<P::Type, String> {
    let name = P::NAME;
    match object.remove(name) {
        Some(value) => (P::CODE.read)(value)
            .map_err(|(pointer, reason)| format!("/{}{pointer}: {reason}", pointer_segment(name))),
        None => (P::CODE.read)(Value::Null).map_err(|_| format!("missing field `{name}`")),
    }
}

/// Describes parameter `P`; it is required unless it can be left out
/// (read from `null`), which is what [`read_param`] does with a missing one.
fn describe_param<P: Param>(generator: &mut SchemaGenerator, object: &mut ObjectSchema) {
    let schema = (P::CODE.subschema)(generator);
    object
        .properties
        .insert(P::NAME.to_owned(), schema.to_value());
    if (P::CODE.read)(Value::Null).is_err() {
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
