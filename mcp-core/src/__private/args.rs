//! The arguments of a `#[tool]` function with plain parameters: read from
//! the call's object by name, described by one property each. No struct is
//! derived per tool, so each parameter type's `Deserialize` and `JsonSchema`
//! code is compiled once, as for a builder tool.

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

use crate::arguments::error::pointer_segment;
use crate::json::JsonObject;
use crate::schema::input_schema_for;
use crate::tool::input::json_pointer;

/// The names of a tool's parameters, in order (one type per tool, made by
/// the macro).
pub trait ArgNames {
    /// The names, as written (without `r#`).
    const NAMES: &'static [&'static str];
}

/// The types of a tool's parameters: a tuple.
pub trait ArgList: Sized {
    /// Reads each parameter from `object` under its name.
    fn read(object: &mut JsonObject, names: &[&str]) -> Result<Self, String>;
    /// Describes each parameter as a property.
    fn describe(generator: &mut SchemaGenerator, names: &[&str], object: &mut ObjectSchema);
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

/// Reads parameter `name`: a missing one is read from `null` (so `Option`
/// parameters may be left out).
fn read_one<T: DeserializeOwned>(object: &mut JsonObject, name: &str) -> Result<T, String> {
    match object.remove(name) {
        Some(value) => serde_path_to_error::deserialize(value).map_err(|error| {
            let pointer = json_pointer(error.path());
            let reason = error.into_inner();
            format!("/{}{pointer}: {reason}", pointer_segment(name))
        }),
        None => serde_path_to_error::deserialize(Value::Null)
            .map_err(|_| format!("missing field `{name}`")),
    }
}

/// Describes parameter `name`; it is required unless it can be left out
/// (read from `null`), which is what [`read_one`] does with a missing one.
fn describe_one<T: DeserializeOwned + JsonSchema>(
    generator: &mut SchemaGenerator,
    name: &str,
    object: &mut ObjectSchema,
) {
    object
        .properties
        .insert(name.to_owned(), generator.subschema_for::<T>().to_value());
    if serde_path_to_error::deserialize::<_, T>(Value::Null).is_err() {
        object.required.push(name.into());
    }
}

macro_rules! arg_list {
    ($($t:ident $i:tt),+) => {
        impl<$($t: DeserializeOwned + JsonSchema),+> ArgList for ($($t,)+) {
            fn read(object: &mut JsonObject, names: &[&str]) -> Result<Self, String> {
                Ok(($(read_one::<$t>(object, names.get($i).copied().unwrap_or_default())?,)+))
            }

            fn describe(generator: &mut SchemaGenerator, names: &[&str], object: &mut ObjectSchema) {
                $(describe_one::<$t>(generator, names.get($i).copied().unwrap_or_default(), object);)+
            }
        }
    };
}

arg_list!(A 0);
arg_list!(A 0, B 1);
arg_list!(A 0, B 1, C 2);
arg_list!(A 0, B 1, C 2, D 3);
arg_list!(A 0, B 1, C 2, D 3, E 4);
arg_list!(A 0, B 1, C 2, D 3, E 4, F 5);
arg_list!(A 0, B 1, C 2, D 3, E 4, F 5, G 6);
arg_list!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);
arg_list!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8);
arg_list!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9);
arg_list!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10);
arg_list!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10, L 11);

/// The arguments of a tool with several plain parameters of types `L` (a
/// tuple) named by `N`: an object with one property each.
pub struct Args<L, N> {
    /// The parameters' values.
    pub values: L,
    names: PhantomData<fn() -> N>,
}

impl<L, N> fmt::Debug for Args<L, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Args")
    }
}

impl<'de, L: ArgList, N: ArgNames> Deserialize<'de> for Args<L, N> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut object = JsonObject::deserialize(deserializer)?;
        let values = L::read(&mut object, N::NAMES).map_err(D::Error::custom)?;
        Ok(Self {
            values,
            names: PhantomData,
        })
    }
}

impl<L: ArgList, N: ArgNames> JsonSchema for Args<L, N> {
    fn schema_name() -> Cow<'static, str> {
        "Arguments".into()
    }

    fn schema_id() -> Cow<'static, str> {
        std::any::type_name::<Self>().into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut object = ObjectSchema::default();
        L::describe(generator, N::NAMES, &mut object);
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

/// The arguments of a tool with one parameter of type `T` named by `N`:
/// `T` itself when its schema is an object (a struct, a map), as
/// `.input::<T>()` would make them; else an object with one property.
pub struct Single<T, N> {
    /// The parameter's value.
    pub value: T,
    names: PhantomData<fn() -> N>,
}

impl<T, N> fmt::Debug for Single<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Single")
    }
}

impl<'de, T, N> Deserialize<'de> for Single<T, N>
where
    T: DeserializeOwned + JsonSchema + 'static,
    N: ArgNames,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = if is_object_input::<T>() {
            T::deserialize(deserializer)?
        } else {
            let mut object = JsonObject::deserialize(deserializer)?;
            let name = N::NAMES.first().copied().unwrap_or_default();
            read_one(&mut object, name).map_err(D::Error::custom)?
        };
        Ok(Self {
            value,
            names: PhantomData,
        })
    }
}

impl<T: DeserializeOwned + JsonSchema + 'static, N: ArgNames> JsonSchema for Single<T, N> {
    fn inline_schema() -> bool {
        is_object_input::<T>() && T::inline_schema()
    }

    fn schema_name() -> Cow<'static, str> {
        if is_object_input::<T>() {
            T::schema_name()
        } else {
            "Arguments".into()
        }
    }

    fn schema_id() -> Cow<'static, str> {
        std::any::type_name::<Self>().into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        if is_object_input::<T>() {
            return T::json_schema(generator);
        }
        let mut object = ObjectSchema::default();
        describe_one::<T>(
            generator,
            N::NAMES.first().copied().unwrap_or_default(),
            &mut object,
        );
        object.into_schema()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    struct Names;

    impl ArgNames for Names {
        const NAMES: &'static [&'static str] = &["a", "b"];
    }

    fn object(value: Value) -> JsonObject {
        match value {
            Value::Object(object) => object,
            _ => JsonObject::new(),
        }
    }

    #[test]
    fn reads_by_name_and_names_the_problem() {
        let read = |value: Value| <(i64, Option<Vec<u8>>)>::read(&mut object(value), Names::NAMES);
        assert_eq!(read(json!({"a": 1})), Ok((1, None)));
        assert_eq!(read(json!({"a": 1, "b": [2]})), Ok((1, Some(vec![2]))));
        assert_eq!(read(json!({"b": [2]})), Err("missing field `a`".to_owned()));
        let nested = read(json!({"a": 1, "b": [2, "x"]})).unwrap_err();
        assert!(nested.starts_with("/b/1: invalid type"), "{nested}");
    }

    #[test]
    fn describes_each_parameter_and_requires_the_non_optional_ones() {
        let schema =
            crate::schema::input_schema_for::<Args<(i64, Option<String>), Names>>().unwrap();
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
