//! The JSON Schema of a tool's input or output, which may share its
//! `$defs` entries with other tools' schemas.

use std::fmt;
use std::ops::Deref;
use std::sync::{Arc, OnceLock};

use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::json::JsonObject;

/// The key under which shared definitions are written.
const DEFS: &str = "$defs";

/// A definition shared between schemas: its name under `$defs` and its
/// schema, both shared rather than copied.
pub type SharedDef = (Arc<str>, Arc<Value>);

/// A tool's input or output schema: a JSON object, cheap to clone.
///
/// Large generated APIs give hundreds of tools schemas that reach the same
/// definitions. [`ToolSchema::with_shared_defs`] keeps those definitions
/// once, each behind an [`Arc`], and writes them under `$defs` when the
/// schema is serialized: the JSON is the same as that of the whole object,
/// without a copy per tool. Reading the schema as a [`JsonObject`] (through
/// [`Deref`]) assembles that object once, on first use, and keeps it; code
/// that reads many schemas reads their [`root`](Self::root), follows
/// references with [`resolve`](Self::resolve), and assembles a whole
/// object only for the moment it needs one ([`to_arc`](Self::to_arc),
/// [`to_object`](Self::to_object)), so nothing is kept per schema.
///
/// ```
/// use std::sync::Arc;
/// use mcp_core::ToolSchema;
/// use serde_json::json;
///
/// let pet = Arc::new(json!({"type": "object", "properties": {"name": {"type": "string"}}}));
/// let root = json!({"type": "object", "properties": {"pet": {"$ref": "#/$defs/Pet"}}});
/// let schema = ToolSchema::with_shared_defs(
///     root.as_object().cloned().unwrap_or_default(),
///     [("Pet".to_owned(), pet)],
/// );
/// let expected = json!({
///     "type": "object",
///     "properties": {"pet": {"$ref": "#/$defs/Pet"}},
///     "$defs": {"Pet": {"type": "object", "properties": {"name": {"type": "string"}}}}
/// });
/// assert_eq!(serde_json::to_value(&schema).unwrap(), expected);
/// assert_eq!(schema["$defs"]["Pet"]["type"], "object");
/// ```
#[derive(Clone)]
pub struct ToolSchema(Repr);

#[derive(Clone)]
enum Repr {
    /// A whole object.
    Whole(Arc<JsonObject>),
    /// A root whose `$defs` entry (`null` in `root`) stands for `defs`.
    Shared(Arc<Shared>),
}

struct Shared {
    root: JsonObject,
    /// Often the very list of other schemas (the same definitions reached).
    defs: Arc<[SharedDef]>,
    /// The whole object, assembled on first read.
    whole: OnceLock<Arc<JsonObject>>,
}

impl ToolSchema {
    /// A schema that is `object` as it is.
    pub fn new(object: JsonObject) -> Self {
        Self(Repr::Whole(Arc::new(object)))
    }

    /// A schema made of `root` and the definitions `defs`, written (in this
    /// order) as its last entry `$defs`; without definitions it is `root`.
    ///
    /// An entry `$defs` already in `root` is replaced. Names given as
    /// `Arc<str>` are shared, not copied.
    pub fn with_shared_defs<N: Into<Arc<str>>>(
        root: JsonObject,
        defs: impl IntoIterator<Item = (N, Arc<Value>)>,
    ) -> Self {
        let defs: Arc<[SharedDef]> = defs
            .into_iter()
            .map(|(name, def)| (name.into(), def))
            .collect();
        Self::with_shared_def_list(root, defs)
    }

    /// [`with_shared_defs`](Self::with_shared_defs) with the list of
    /// definitions itself shared: schemas that reach the same definitions
    /// can hold one list between them.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mcp_core::{SharedDef, ToolSchema};
    /// use serde_json::json;
    ///
    /// let defs: Arc<[SharedDef]> = Arc::new([("Pet".into(), Arc::new(json!({"type": "string"})))]);
    /// let root = json!({"$ref": "#/$defs/Pet"}).as_object().cloned().unwrap_or_default();
    /// let a = ToolSchema::with_shared_def_list(root.clone(), defs.clone());
    /// let b = ToolSchema::with_shared_def_list(root, defs);
    /// assert!(std::ptr::eq(a.shared_defs(), b.shared_defs()));
    /// ```
    pub fn with_shared_def_list(mut root: JsonObject, defs: Arc<[SharedDef]>) -> Self {
        root.shift_remove(DEFS);
        if defs.is_empty() {
            return Self::new(root);
        }
        root.insert(DEFS.to_owned(), Value::Null);
        Self(Repr::Shared(Arc::new(Shared {
            root,
            defs,
            whole: OnceLock::new(),
        })))
    }

    /// A schema with the same shared definitions and a root rewritten by `f`.
    ///
    /// `f` sees the root with its `$defs` entry as `null` when the
    /// definitions are shared: where `f` leaves that entry is where they are
    /// written, and removing it drops them. A schema without shared
    /// definitions is given to `f` whole.
    ///
    /// ```
    /// use mcp_core::ToolSchema;
    /// use serde_json::json;
    ///
    /// let schema = ToolSchema::new(json!({"type": "object"}).as_object().cloned().unwrap_or_default());
    /// let titled = schema.map_root(|mut root| {
    ///     root.insert("title".to_owned(), "Pet".into());
    ///     root
    /// });
    /// assert_eq!(titled["title"], "Pet");
    /// ```
    pub fn map_root(&self, f: impl FnOnce(JsonObject) -> JsonObject) -> Self {
        match &self.0 {
            Repr::Whole(object) => Self::new(f(JsonObject::clone(object))),
            Repr::Shared(shared) => {
                let root = f(shared.root.clone());
                if root.get(DEFS).is_some_and(Value::is_null) {
                    Self(Repr::Shared(Arc::new(Shared {
                        root,
                        defs: shared.defs.clone(),
                        whole: OnceLock::new(),
                    })))
                } else {
                    Self::new(root)
                }
            }
        }
    }

    /// The schema without its shared definitions: the whole object when
    /// none are shared, else the root whose `$defs` entry is `null` (where
    /// they are written). Reading it assembles nothing.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mcp_core::ToolSchema;
    /// use serde_json::{Value, json};
    ///
    /// let root = json!({"type": "object"}).as_object().cloned().unwrap_or_default();
    /// let schema = ToolSchema::with_shared_defs(root, [("Pet", Arc::new(json!(true)))]);
    /// assert_eq!(schema.root()["$defs"], Value::Null);
    /// assert_eq!(schema.root()["type"], "object");
    /// ```
    pub fn root(&self) -> &JsonObject {
        match &self.0 {
            Repr::Whole(object) => object,
            Repr::Shared(shared) => &shared.root,
        }
    }

    /// The [`root`](Self::root) and the shared definitions, taken out
    /// without a copy when no clone of this schema lives (else copied).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mcp_core::ToolSchema;
    /// use serde_json::json;
    ///
    /// let pet = Arc::new(json!({"type": "string"}));
    /// let root = json!({"type": "object"}).as_object().cloned().unwrap_or_default();
    /// let schema = ToolSchema::with_shared_defs(root, [("Pet", pet.clone())]);
    /// let (root, defs) = schema.into_parts();
    /// assert_eq!(root["type"], "object");
    /// assert_eq!(&*defs[0].0, "Pet");
    /// assert!(Arc::ptr_eq(&defs[0].1, &pet));
    /// ```
    pub fn into_parts(self) -> (JsonObject, Vec<SharedDef>) {
        match self.0 {
            Repr::Whole(object) => (Arc::unwrap_or_clone(object), Vec::new()),
            Repr::Shared(shared) => match Arc::try_unwrap(shared) {
                Ok(shared) => (shared.root, shared.defs.to_vec()),
                Err(shared) => (shared.root.clone(), shared.defs.to_vec()),
            },
        }
    }

    /// Whether no clone of this schema lives: [`into_parts`](Self::into_parts)
    /// then copies nothing.
    pub fn is_unique(&mut self) -> bool {
        match &mut self.0 {
            Repr::Whole(object) => Arc::get_mut(object).is_some(),
            Repr::Shared(shared) => Arc::get_mut(shared).is_some(),
        }
    }

    /// The definitions shared with other schemas, by name, in `$defs` order
    /// (empty when the schema holds all of itself).
    pub fn shared_defs(&self) -> &[SharedDef] {
        match &self.0 {
            Repr::Whole(_) => &[],
            Repr::Shared(shared) => &shared.defs,
        }
    }

    /// What the local `$ref` `reference` (`#/$defs/Pet`, or any `#` JSON
    /// Pointer below the root) points to, found without assembling the
    /// whole schema: a shared definition is read where it is shared.
    /// `None` for `#` itself (the root is [`root`](Self::root)), for a
    /// reference to another document, and for one that leads nowhere.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mcp_core::ToolSchema;
    /// use serde_json::json;
    ///
    /// let root = json!({"type": "object", "properties": {"pet": {"$ref": "#/$defs/Pet"}}});
    /// let pet = Arc::new(json!({"type": "object", "properties": {"name": {"type": "string"}}}));
    /// let schema = ToolSchema::with_shared_defs(root.as_object().cloned().unwrap_or_default(), [("Pet", pet)]);
    /// assert_eq!(schema.resolve("#/$defs/Pet/properties/name"), Some(&json!({"type": "string"})));
    /// assert_eq!(schema.resolve("#/properties/pet/$ref"), Some(&json!("#/$defs/Pet")));
    /// assert_eq!(schema.resolve("#/$defs/Cat"), None);
    /// ```
    pub fn resolve(&self, reference: &str) -> Option<&Value> {
        let pointer = reference.strip_prefix('#')?;
        let pointer = percent_encoding::percent_decode_str(pointer)
            .decode_utf8()
            .ok()?;
        let (first, rest) = split_pointer(&pointer)?;
        if let Repr::Shared(shared) = &self.0
            && first == DEFS
        {
            let (name, rest) = split_pointer(rest)?;
            let name = unescape_token(name);
            let (_, def) = shared.defs.iter().find(|(n, _)| **n == *name)?;
            return def.pointer(rest);
        }
        self.root().get(&*unescape_token(first))?.pointer(rest)
    }

    /// The whole schema as one shared object. When its definitions are
    /// shared it is assembled for this call and not kept (unless reading
    /// through [`Deref`] kept it already), so that a server holding many
    /// schemas that share definitions never holds a whole copy of each.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mcp_core::ToolSchema;
    /// use serde_json::json;
    ///
    /// let root = json!({"type": "object"}).as_object().cloned().unwrap_or_default();
    /// let schema = ToolSchema::with_shared_defs(root, [("Pet", Arc::new(json!(true)))]);
    /// assert_eq!(schema.to_arc()["$defs"]["Pet"], true);
    /// ```
    pub fn to_arc(&self) -> Arc<JsonObject> {
        match &self.0 {
            Repr::Whole(object) => object.clone(),
            Repr::Shared(shared) => match shared.whole.get() {
                Some(whole) => whole.clone(),
                None => Arc::new(shared.assemble()),
            },
        }
    }

    /// The whole schema as an object of its own, assembled for this call
    /// (see [`to_arc`](Self::to_arc)).
    ///
    /// ```
    /// use mcp_core::ToolSchema;
    /// use serde_json::json;
    ///
    /// let schema = ToolSchema::new(json!({"type": "object"}).as_object().cloned().unwrap_or_default());
    /// assert_eq!(schema.to_object()["type"], "object");
    /// ```
    pub fn to_object(&self) -> JsonObject {
        match &self.0 {
            Repr::Whole(object) => JsonObject::clone(object),
            Repr::Shared(shared) => match shared.whole.get() {
                Some(whole) => JsonObject::clone(whole),
                None => shared.assemble(),
            },
        }
    }

    /// The address of the shared value: clones have the same one, and it
    /// identifies the schema while a clone lives.
    pub fn as_ptr(&self) -> *const () {
        match &self.0 {
            Repr::Whole(object) => Arc::as_ptr(object).cast(),
            Repr::Shared(shared) => Arc::as_ptr(shared).cast(),
        }
    }

    /// Whether `self` and `other` are the same value in memory (not only equal).
    pub fn ptr_eq(&self, other: &Self) -> bool {
        self.as_ptr() == other.as_ptr()
    }
}

/// The first token of a JSON Pointer (escaped) and the pointer after it
/// (`""` or starting with `/`); `None` for the empty pointer or one that
/// does not start with `/`.
fn split_pointer(pointer: &str) -> Option<(&str, &str)> {
    let pointer = pointer.strip_prefix('/')?;
    Some(match pointer.find('/') {
        Some(end) => (&pointer[..end], &pointer[end..]),
        None => (pointer, ""),
    })
}

/// A JSON Pointer token as the key it names: `~1` is `/`, `~0` is `~`.
fn unescape_token(token: &str) -> std::borrow::Cow<'_, str> {
    if token.contains('~') {
        token.replace("~1", "/").replace("~0", "~").into()
    } else {
        token.into()
    }
}

impl Shared {
    /// The whole object, assembled once and kept (what [`Deref`] reads).
    fn whole(&self) -> &Arc<JsonObject> {
        self.whole.get_or_init(|| Arc::new(self.assemble()))
    }

    /// The root with the definitions written under `$defs`.
    fn assemble(&self) -> JsonObject {
        let defs: JsonObject = self
            .defs
            .iter()
            .map(|(name, value)| (name.to_string(), Value::clone(value)))
            .collect();
        let mut whole = self.root.clone();
        if let Some(slot) = whole.get_mut(DEFS) {
            *slot = Value::Object(defs);
        }
        whole
    }
}

impl Deref for ToolSchema {
    type Target = JsonObject;

    fn deref(&self) -> &JsonObject {
        match &self.0 {
            Repr::Whole(object) => object,
            Repr::Shared(shared) => shared.whole(),
        }
    }
}

impl AsRef<JsonObject> for ToolSchema {
    fn as_ref(&self) -> &JsonObject {
        self
    }
}

impl From<JsonObject> for ToolSchema {
    fn from(object: JsonObject) -> Self {
        Self::new(object)
    }
}

impl From<Arc<JsonObject>> for ToolSchema {
    fn from(object: Arc<JsonObject>) -> Self {
        Self(Repr::Whole(object))
    }
}

impl PartialEq for ToolSchema {
    fn eq(&self, other: &Self) -> bool {
        self.ptr_eq(other) || **self == **other
    }
}

impl fmt::Debug for ToolSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Whole(object) => object.fmt(f),
            Repr::Shared(shared) => f
                .debug_struct("ToolSchema")
                .field("root", &shared.root)
                .field(
                    "shared_defs",
                    &shared.defs.iter().map(|(name, _)| name).collect::<Vec<_>>(),
                )
                .finish(),
        }
    }
}

/// The shared definitions, written as the object `$defs` would be.
struct DefsMap<'a>(&'a [SharedDef]);

impl Serialize for DefsMap<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in self.0 {
            map.serialize_entry(&**name, &**value)?;
        }
        map.end()
    }
}

impl Serialize for ToolSchema {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Repr::Whole(object) => object.serialize(serializer),
            Repr::Shared(shared) => {
                let mut map = serializer.serialize_map(Some(shared.root.len()))?;
                for (key, value) in &shared.root {
                    if key == DEFS {
                        map.serialize_entry(key, &DefsMap(&shared.defs))?;
                    } else {
                        map.serialize_entry(key, value)?;
                    }
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for ToolSchema {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        JsonObject::deserialize(deserializer).map(Self::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn object(value: Value) -> JsonObject {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn shared_definitions_serialize_like_the_whole_object() {
        let a = Arc::new(json!({"type": "string"}));
        let root = object(json!({"$schema": "s", "type": "object", "$defs": {"old": {}}}));
        let schema = ToolSchema::with_shared_defs(root, [("A".to_owned(), a.clone())]);
        let text = serde_json::to_string(&schema).unwrap();
        assert_eq!(
            text,
            r#"{"$schema":"s","type":"object","$defs":{"A":{"type":"string"}}}"#
        );
        assert_eq!(serde_json::to_string(&*schema).unwrap(), text);
        assert!(Arc::ptr_eq(&schema.shared_defs()[0].1, &a));
    }

    #[test]
    fn map_root_keeps_definitions_where_the_placeholder_goes() {
        let root = object(json!({"type": "object", "properties": {}}));
        let schema = ToolSchema::with_shared_defs(
            root,
            [("A".to_owned(), Arc::new(json!({"type": "null"})))],
        );
        let moved = schema.map_root(|root| {
            let mut out = JsonObject::new();
            out.insert("$defs".to_owned(), root["$defs"].clone());
            out.insert("anyOf".to_owned(), json!([{"type": "object"}]));
            out
        });
        assert_eq!(
            serde_json::to_string(&moved).unwrap(),
            r#"{"$defs":{"A":{"type":"null"}},"anyOf":[{"type":"object"}]}"#
        );
        let dropped = schema.map_root(|mut root| {
            root.shift_remove("$defs");
            root
        });
        assert!(dropped.shared_defs().is_empty());
        assert_eq!(
            *dropped,
            object(json!({"type": "object", "properties": {}}))
        );
    }

    #[test]
    fn equality_and_reading_see_the_whole_object() {
        let shared = ToolSchema::with_shared_defs(
            object(json!({"type": "object"})),
            [("A".to_owned(), Arc::new(json!(true)))],
        );
        let whole = ToolSchema::new(object(json!({"type": "object", "$defs": {"A": true}})));
        assert_eq!(shared, whole);
        assert_eq!(shared.to_arc(), whole.to_arc());
        let empty = ToolSchema::with_shared_defs(
            object(json!({"type": "object"})),
            Vec::<(String, _)>::new(),
        );
        assert!(!empty.contains_key("$defs"));
    }

    #[test]
    fn parts_are_taken_without_copy_only_from_a_unique_schema() {
        let root = object(json!({"type": "object"}));
        let mut schema = ToolSchema::with_shared_defs(root, [("A", Arc::new(json!(true)))]);
        assert!(schema.is_unique());
        let clone = schema.clone();
        assert!(!schema.is_unique());
        let (root, defs) = schema.into_parts();
        assert_eq!(root, *clone.root());
        assert_eq!(defs, clone.shared_defs());
        let mut whole = ToolSchema::new(object(json!({"type": "object"})));
        assert!(whole.is_unique());
        assert_eq!(
            whole.into_parts(),
            (object(json!({"type": "object"})), Vec::new())
        );
    }

    #[test]
    fn references_resolve_in_shared_and_whole_definitions() {
        let shared = ToolSchema::with_shared_defs(
            object(json!({"type": "object", "items": [1, 2]})),
            [(
                "a/b~c",
                Arc::new(json!({"properties": {"x": {"type": "string"}}})),
            )],
        );
        assert_eq!(
            shared.resolve("#/$defs/a~1b~0c/properties/x"),
            Some(&json!({"type": "string"}))
        );
        assert_eq!(
            shared.resolve("#/$defs/a%2Fb~0c"),
            None,
            "a percent-encoded `/` separates tokens"
        );
        assert_eq!(shared.resolve("#/items/1"), Some(&json!(2)));
        assert_eq!(shared.resolve("#/$defs"), None);
        assert_eq!(shared.resolve("#"), None);
        assert_eq!(shared.resolve("other.json#/$defs/x"), None);
        let whole = ToolSchema::new(object(json!({"$defs": {"A": {"type": "null"}}})));
        assert_eq!(whole.resolve("#/$defs/A"), Some(&json!({"type": "null"})));
        assert_eq!(whole.resolve("#/$defs/B"), None);
    }
}
