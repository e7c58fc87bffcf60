//! What the converter reads a schema from: a borrowed value, whose parts it
//! copies, or an owned one, whose parts it moves (no copy, and nothing left
//! to free afterwards).

use serde_json::{Map, Value, map};

/// A schema value the converter takes apart.
pub(crate) trait Source: Sized {
    /// An object member's name.
    type Key: AsRef<str> + Into<String>;
    /// The members of an object.
    type Entries: Iterator<Item = (Self::Key, Self)>;
    /// The items of an array.
    type Items: Iterator<Item = Self>;

    /// The value, to look at.
    fn value(&self) -> &Value;
    /// The value, copied or moved.
    fn into_value(self) -> Value;
    /// The members, when it is an object (else itself).
    fn into_entries(self) -> Result<Self::Entries, Self>;
    /// The items, when it is an array (else itself).
    fn into_items(self) -> Result<Self::Items, Self>;
}

impl<'v> Source for &'v Value {
    type Key = &'v String;
    type Entries = map::Iter<'v>;
    type Items = std::slice::Iter<'v, Value>;

    fn value(&self) -> &Value {
        self
    }

    fn into_value(self) -> Value {
        self.clone()
    }

    fn into_entries(self) -> Result<Self::Entries, Self> {
        match self {
            Value::Object(object) => Ok(object.iter()),
            other => Err(other),
        }
    }

    fn into_items(self) -> Result<Self::Items, Self> {
        match self {
            Value::Array(items) => Ok(items.iter()),
            other => Err(other),
        }
    }
}

impl Source for Value {
    type Key = String;
    type Entries = <Map<String, Value> as IntoIterator>::IntoIter;
    type Items = std::vec::IntoIter<Value>;

    fn value(&self) -> &Value {
        self
    }

    fn into_value(self) -> Value {
        self
    }

    fn into_entries(self) -> Result<Self::Entries, Self> {
        match self {
            Value::Object(object) => Ok(object.into_iter()),
            other => Err(other),
        }
    }

    fn into_items(self) -> Result<Self::Items, Self> {
        match self {
            Value::Array(items) => Ok(items.into_iter()),
            other => Err(other),
        }
    }
}
