//! TypeScript types as values, and how TypeScript writes them: unions and
//! intersections flattened and deduplicated, parentheses only where
//! precedence needs them, object types on one line.

use std::fmt::{self, Display, Formatter};

use serde_json::Value;

use super::literal::{property_key, string_literal};

/// A TypeScript type.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Ty {
    /// `unknown`: any value.
    Unknown,
    /// `never`: no value.
    Never,
    /// `null`.
    Null,
    /// `boolean`.
    Boolean,
    /// `number`.
    Number,
    /// `string`.
    String,
    /// A literal type, already written (`"open"`, `42`, `true`).
    Literal(String),
    /// A type alias by name.
    Named(String),
    /// `T[]`.
    Array(Box<Ty>),
    /// `[A, B?, ...R[]]`.
    Tuple(Tuple),
    /// `{ a: A; b?: B; [key: string]: V }` or `Record<string, V>`.
    Object(Object),
    /// `A | B`.
    Union(Vec<Ty>),
    /// `A & B`.
    Intersection(Vec<Ty>),
}

/// A tuple type's elements.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Tuple {
    /// The elements, in order.
    pub(crate) elements: Vec<Ty>,
    /// How many leading elements are always there (the rest are `?`).
    pub(crate) required: usize,
    /// The type of further elements (`...R[]`), if any may follow.
    pub(crate) rest: Option<Box<Ty>>,
}

/// An object type's members.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Object {
    /// The properties spelled out, in order.
    pub(crate) properties: Vec<Property>,
    /// The type of every other key's value (an index signature), if other
    /// keys may be there.
    pub(crate) index: Option<Box<Ty>>,
    /// How many properties were left out to keep the type small.
    pub(crate) left_out: usize,
    /// Whether an object of an index alone is written with its signature
    /// (`{ [key: string]: V }`) rather than as `Record<string, V>`, which
    /// a type alias cannot name itself in.
    pub(crate) signature: bool,
}

impl Object {
    /// Whether the object is written as `Record<string, V>`: an index and
    /// nothing else, its `V`.
    pub(crate) fn record_value(&self) -> Option<&Ty> {
        let bare = self.properties.is_empty() && self.left_out == 0 && !self.signature;
        self.index.as_deref().filter(|_| bare)
    }
}

/// One property of an object type.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Property {
    /// The key, as the schema spells it.
    pub(crate) name: String,
    /// Whether the key may be missing.
    pub(crate) optional: bool,
    /// The value's type.
    pub(crate) ty: Ty,
}

impl Ty {
    /// `Record<string, unknown>`: any object.
    pub(crate) fn any_object() -> Self {
        Self::record(Self::Unknown)
    }

    /// `Record<string, value>`: an object whose every value is a `value`.
    pub(crate) fn record(value: Ty) -> Self {
        Self::Object(Object {
            index: Some(Box::new(value)),
            ..Object::default()
        })
    }

    /// `unknown[]`.
    pub(crate) fn any_array() -> Self {
        Self::Array(Box::new(Self::Unknown))
    }

    /// The union of `members`: nested unions flattened, duplicates,
    /// `never` and literals of a member's type (`"" | string`) dropped,
    /// `unknown` if any member is.
    pub(crate) fn union(members: impl IntoIterator<Item = Ty>) -> Self {
        let mut flat: Vec<Ty> = Vec::new();
        for member in members {
            match member {
                Self::Unknown => return Self::Unknown,
                Self::Never => {}
                Self::Union(inner) => {
                    for member in inner {
                        push_unique(&mut flat, member);
                    }
                }
                member => push_unique(&mut flat, member),
            }
        }
        let covered = |ty: &Ty| match ty {
            Self::Literal(text) if text.starts_with('"') => flat.contains(&Self::String),
            Self::Literal(text) if text == "true" || text == "false" => {
                flat.contains(&Self::Boolean)
            }
            Self::Literal(_) => flat.contains(&Self::Number),
            _ => false,
        };
        let mut flat: Vec<Ty> = flat.iter().filter(|ty| !covered(ty)).cloned().collect();
        match flat.len() {
            0 => Self::Never,
            1 => flat.remove(0),
            _ => Self::Union(flat),
        }
    }

    /// The intersection of `members`: nested intersections flattened,
    /// duplicates and `unknown` dropped, `never` if any member is, and
    /// object types without shared keys merged into one.
    pub(crate) fn intersection(members: impl IntoIterator<Item = Ty>) -> Self {
        let mut flat: Vec<Ty> = Vec::new();
        for member in members {
            match member {
                Self::Never => return Self::Never,
                Self::Unknown => {}
                Self::Intersection(inner) => {
                    for member in inner {
                        push_unique(&mut flat, member);
                    }
                }
                member => push_unique(&mut flat, member),
            }
        }
        if flat.len() > 1
            && flat.iter().all(|member| matches!(member, Self::Object(_)))
            && let Some(merged) = merge_objects(&flat)
        {
            return merged;
        }
        match flat.len() {
            0 => Self::Unknown,
            1 => flat.remove(0),
            _ => Self::Intersection(flat),
        }
    }

    /// `self | null`.
    pub(crate) fn nullable(self) -> Self {
        Self::union([self, Self::Null])
    }

    /// How tightly the type binds when written: unions bind least, then
    /// intersections, then everything else.
    fn precedence(&self) -> u8 {
        match self {
            Self::Union(_) => 0,
            Self::Intersection(_) => 1,
            _ => 2,
        }
    }
}

/// The literal type of the JSON value `value`: strings, numbers, `true`,
/// `false` and `null` as literals, arrays as tuples and objects as object
/// types of literals.
pub(crate) fn literal_type(value: &Value) -> Ty {
    match value {
        Value::Null => Ty::Null,
        Value::Bool(flag) => Ty::Literal(flag.to_string()),
        Value::Number(number) => Ty::Literal(number.to_string()),
        Value::String(text) => Ty::Literal(string_literal(text)),
        Value::Array(items) => Ty::Tuple(Tuple {
            elements: items.iter().map(literal_type).collect(),
            required: items.len(),
            rest: None,
        }),
        Value::Object(fields) => Ty::Object(Object {
            properties: fields
                .iter()
                .map(|(name, value)| Property {
                    name: name.clone(),
                    optional: false,
                    ty: literal_type(value),
                })
                .collect(),
            ..Object::default()
        }),
    }
}

fn push_unique(types: &mut Vec<Ty>, ty: Ty) {
    if !types.contains(&ty) {
        types.push(ty);
    }
}

/// One object type with the members of `objects`, when no key is in two of
/// them and their index signatures agree: all `unknown` (which any
/// property fits), or a single one beside no properties.
fn merge_objects(objects: &[Ty]) -> Option<Ty> {
    let mut merged = Object::default();
    let mut indexes = Vec::new();
    for object in objects {
        let Ty::Object(object) = object else {
            return None;
        };
        indexes.extend(object.index.as_deref());
        for property in &object.properties {
            if merged
                .properties
                .iter()
                .any(|known| known.name == property.name)
            {
                return None;
            }
            merged.properties.push(property.clone());
        }
        merged.left_out += object.left_out;
    }
    merged.index = match indexes.as_slice() {
        [] => None,
        all if all.iter().all(|index| **index == Ty::Unknown) => Some(Box::new(Ty::Unknown)),
        [only] if merged.properties.is_empty() => Some(Box::new((*only).clone())),
        _ => return None,
    };
    Some(Ty::Object(merged))
}

impl Display for Ty {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unknown => f.write_str("unknown"),
            Self::Never => f.write_str("never"),
            Self::Null => f.write_str("null"),
            Self::Boolean => f.write_str("boolean"),
            Self::Number => f.write_str("number"),
            Self::String => f.write_str("string"),
            Self::Literal(text) | Self::Named(text) => f.write_str(text),
            Self::Array(item) => {
                write_at(f, item, 2)?;
                f.write_str("[]")
            }
            Self::Tuple(tuple) => write_tuple(f, tuple),
            Self::Object(object) => write_object(f, object),
            Self::Union(members) => write_joined(f, members, " | ", 2),
            Self::Intersection(members) => write_joined(f, members, " & ", 2),
        }
    }
}

/// Writes `ty`, in parentheses when it binds less tightly than `needed`.
fn write_at(f: &mut Formatter<'_>, ty: &Ty, needed: u8) -> fmt::Result {
    if ty.precedence() < needed {
        write!(f, "({ty})")
    } else {
        write!(f, "{ty}")
    }
}

fn write_joined(f: &mut Formatter<'_>, members: &[Ty], separator: &str, needed: u8) -> fmt::Result {
    for (position, member) in members.iter().enumerate() {
        if position > 0 {
            f.write_str(separator)?;
        }
        write_at(f, member, needed)?;
    }
    Ok(())
}

fn write_tuple(f: &mut Formatter<'_>, tuple: &Tuple) -> fmt::Result {
    f.write_str("[")?;
    for (position, element) in tuple.elements.iter().enumerate() {
        if position > 0 {
            f.write_str(", ")?;
        }
        if position < tuple.required {
            write!(f, "{element}")?;
        } else {
            // An optional element binds like an array's item: `(A | B)?`.
            write_at(f, element, 2)?;
            f.write_str("?")?;
        }
    }
    if let Some(rest) = &tuple.rest {
        if !tuple.elements.is_empty() {
            f.write_str(", ")?;
        }
        f.write_str("...")?;
        write_at(f, rest, 2)?;
        f.write_str("[]")?;
    }
    f.write_str("]")
}

fn write_object(f: &mut Formatter<'_>, object: &Object) -> fmt::Result {
    if let Some(value) = object.record_value() {
        return write!(f, "Record<string, {value}>");
    }
    if object.properties.is_empty() && object.left_out == 0 && object.index.is_none() {
        return f.write_str("{}");
    }
    f.write_str("{ ")?;
    let mut first = true;
    let mut separate = |f: &mut Formatter<'_>| {
        if !std::mem::take(&mut first) {
            f.write_str("; ")?;
        }
        Ok::<(), fmt::Error>(())
    };
    for property in &object.properties {
        separate(f)?;
        let mark = if property.optional { "?" } else { "" };
        write!(f, "{}{mark}: {}", property_key(&property.name), property.ty)?;
    }
    if let Some(value) = &object.index {
        separate(f)?;
        write!(f, "[key: string]: {value}")?;
    }
    if object.left_out > 0 {
        write!(f, " /* {} more */", object.left_out)?;
    }
    f.write_str(" }")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_values_become_literal_types() {
        let value = json!({"kind": "pet", "tags": [1, true, null], "x-y": 2.5});
        assert_eq!(
            literal_type(&value).to_string(),
            r#"{ kind: "pet"; tags: [1, true, null]; "x-y": 2.5 }"#
        );
    }

    fn object(properties: &[(&str, bool, Ty)]) -> Ty {
        Ty::Object(Object {
            properties: properties
                .iter()
                .map(|(name, optional, ty)| Property {
                    name: (*name).to_owned(),
                    optional: *optional,
                    ty: ty.clone(),
                })
                .collect(),
            ..Object::default()
        })
    }

    #[test]
    fn unions_flatten_deduplicate_and_absorb() {
        let open = Ty::Literal("\"open\"".into());
        let union = Ty::union([open.clone(), Ty::union([open.clone(), Ty::Null]), Ty::Never]);
        assert_eq!(union.to_string(), "\"open\" | null");
        assert_eq!(Ty::union([open.clone(), Ty::String]), Ty::String);
        let one = Ty::Literal("1".into());
        let yes = Ty::Literal("true".into());
        assert_eq!(
            Ty::union([
                one.clone(),
                yes.clone(),
                open.clone(),
                Ty::Number,
                Ty::Boolean
            ])
            .to_string(),
            "\"open\" | number | boolean"
        );
        assert_eq!(Ty::union([one, yes]).to_string(), "1 | true");
        assert_eq!(Ty::union([open, Ty::Unknown]), Ty::Unknown);
        assert_eq!(Ty::union([]), Ty::Never);
        assert_eq!(
            Ty::String.nullable().nullable().to_string(),
            "string | null"
        );
    }

    #[test]
    fn intersections_drop_unknown_and_merge_objects() {
        let a = object(&[("a", false, Ty::String)]);
        let b = object(&[("b", true, Ty::Number)]);
        assert_eq!(
            Ty::intersection([a.clone(), Ty::Unknown, b]).to_string(),
            "{ a: string; b?: number }"
        );
        let also_a = object(&[("a", false, Ty::Number)]);
        assert_eq!(
            Ty::intersection([a.clone(), also_a]).to_string(),
            "{ a: string } & { a: number }"
        );
        assert_eq!(
            Ty::intersection([Ty::any_object(), a.clone()]).to_string(),
            "{ a: string; [key: string]: unknown }"
        );
        let strings = Ty::record(Ty::String);
        assert_eq!(
            Ty::intersection([strings.clone(), a.clone()]).to_string(),
            "Record<string, string> & { a: string }"
        );
        assert_eq!(
            Ty::intersection([strings.clone(), Ty::any_object()]).to_string(),
            "Record<string, string> & Record<string, unknown>"
        );
        assert_eq!(Ty::intersection([a.clone(), Ty::Never]), Ty::Never);
        assert_eq!(Ty::intersection([Ty::Unknown]), Ty::Unknown);
    }

    #[test]
    fn parentheses_follow_precedence() {
        let union = Ty::union([Ty::String, Ty::Number]);
        assert_eq!(
            Ty::Array(Box::new(union.clone())).to_string(),
            "(string | number)[]"
        );
        let named = Ty::Named("Pet".into());
        let both = Ty::Intersection(vec![named.clone(), union.clone()]);
        assert_eq!(both.to_string(), "Pet & (string | number)");
        assert_eq!(
            Ty::union([both, Ty::Null]).to_string(),
            "(Pet & (string | number)) | null"
        );
        assert_eq!(
            Ty::Array(Box::new(Ty::Array(Box::new(named)))).to_string(),
            "Pet[][]"
        );
    }

    #[test]
    fn tuples_mark_optional_elements_and_rest() {
        let tuple = Ty::Tuple(Tuple {
            elements: vec![Ty::String, Ty::union([Ty::Number, Ty::Null])],
            required: 1,
            rest: Some(Box::new(Ty::Boolean)),
        });
        assert_eq!(
            tuple.to_string(),
            "[string, (number | null)?, ...boolean[]]"
        );
        let empty = Ty::Tuple(Tuple {
            elements: Vec::new(),
            required: 0,
            rest: None,
        });
        assert_eq!(empty.to_string(), "[]");
    }

    #[test]
    fn objects_quote_keys_and_count_what_is_left_out() {
        let mut pet = object(&[("id", false, Ty::Number), ("x-rate", true, Ty::String)]);
        if let Ty::Object(object) = &mut pet {
            object.index = Some(Box::new(Ty::Unknown));
            object.left_out = 3;
        }
        assert_eq!(
            pet.to_string(),
            "{ id: number; \"x-rate\"?: string; [key: string]: unknown /* 3 more */ }"
        );
        assert_eq!(Ty::any_object().to_string(), "Record<string, unknown>");
        assert_eq!(object(&[]).to_string(), "{}");
    }
}
