//! Walking a schema: the subschemas under each keyword, where a `$ref`
//! leads, and the bound that keeps every walk finite.
//!
//! A schema that refers to itself (a tree, a JSON value, a filter made of
//! filters) has no end to walk. Every recursive reader of schemas in this
//! workspace keeps a [`Walk`]: it counts a level on every edge (a keyword
//! or a `$ref`), refuses a `$ref` it is already inside, so that a cycle
//! ends at its second visit, and stops after a fixed number of steps in
//! all, so that no schema graph costs more than that to read.
//!
//! ```
//! use mcp_core::schema::walk::{Walk, resolve, subschemas};
//! use serde_json::{Value, json};
//!
//! // A JSON value: a scalar, a list of values or a map of values.
//! let root = json!({
//!     "$ref": "#/$defs/Json",
//!     "$defs": {"Json": {"anyOf": [
//!         {"type": ["string", "number", "boolean", "null"]},
//!         {"type": "array", "items": {"$ref": "#/$defs/Json"}},
//!         {"type": "object", "additionalProperties": {"$ref": "#/$defs/Json"}}
//!     ]}}
//! });
//!
//! /// The `type`s a walk reaches, each time it reaches one.
//! fn types<'a>(root: &'a Value, schema: &'a Value, walk: &mut Walk<'a>, out: &mut Vec<String>) {
//!     let Some(object) = schema.as_object() else { return };
//!     if let Some(kind) = object.get("type") {
//!         out.push(kind.to_string());
//!     }
//!     if let Some(reference) = object.get("$ref").and_then(Value::as_str)
//!         && let Some(target) = resolve(root, reference)
//!         && let Some(mut inner) = walk.follow(reference)
//!     {
//!         types(root, target, &mut inner, out);
//!     }
//!     for sub in subschemas(object) {
//!         if let Some(mut inner) = walk.step() {
//!             types(root, sub.schema, &mut inner, out);
//!         }
//!     }
//! }
//!
//! let mut found = Vec::new();
//! types(&root, &root, &mut Walk::new(), &mut found);
//! // Each branch once: the `$ref`s back to `Json` end the walk there.
//! assert_eq!(found, [r#"["string","number","boolean","null"]"#, r#""array""#, r#""object""#]);
//! ```

use std::ops::{Deref, DerefMut};

use serde_json::{Map, Value};

mod reference;

pub use reference::{reference_name, resolve};

/// A keyword whose value is a subschema, a list of subschemas or a map of
/// names to subschemas (JSON Schema 2020-12's applicators, and the older
/// `additionalItems` and list form of `items` that OpenAPI 3.0 and Swagger
/// 2.0 documents still use).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Keyword {
    /// `properties`: a map of property names to schemas.
    Properties,
    /// `patternProperties`: a map of regular expressions to schemas.
    PatternProperties,
    /// `additionalProperties`.
    AdditionalProperties,
    /// `propertyNames`.
    PropertyNames,
    /// `unevaluatedProperties`.
    UnevaluatedProperties,
    /// `dependentSchemas`: a map of property names to schemas.
    DependentSchemas,
    /// `items`: one schema, or (before 2020-12) a list of them.
    Items,
    /// `prefixItems`: a list of schemas.
    PrefixItems,
    /// `additionalItems` (before 2020-12).
    AdditionalItems,
    /// `unevaluatedItems`.
    UnevaluatedItems,
    /// `contains`.
    Contains,
    /// `allOf`: a list of schemas.
    AllOf,
    /// `anyOf`: a list of schemas.
    AnyOf,
    /// `oneOf`: a list of schemas.
    OneOf,
    /// `not`.
    Not,
    /// `if`.
    If,
    /// `then`.
    Then,
    /// `else`.
    Else,
}

impl Keyword {
    /// Every keyword, in the order [`subschemas`] reads them.
    pub const ALL: [Keyword; 18] = [
        Keyword::Properties,
        Keyword::PatternProperties,
        Keyword::AdditionalProperties,
        Keyword::PropertyNames,
        Keyword::UnevaluatedProperties,
        Keyword::DependentSchemas,
        Keyword::Items,
        Keyword::PrefixItems,
        Keyword::AdditionalItems,
        Keyword::UnevaluatedItems,
        Keyword::Contains,
        Keyword::AllOf,
        Keyword::AnyOf,
        Keyword::OneOf,
        Keyword::Not,
        Keyword::If,
        Keyword::Then,
        Keyword::Else,
    ];

    /// The keyword as a schema spells it.
    ///
    /// ```
    /// use mcp_core::schema::walk::Keyword;
    ///
    /// assert_eq!(Keyword::AnyOf.as_str(), "anyOf");
    /// assert_eq!(Keyword::from_name("anyOf"), Some(Keyword::AnyOf));
    /// assert_eq!(Keyword::from_name("enum"), None);
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Keyword::Properties => "properties",
            Keyword::PatternProperties => "patternProperties",
            Keyword::AdditionalProperties => "additionalProperties",
            Keyword::PropertyNames => "propertyNames",
            Keyword::UnevaluatedProperties => "unevaluatedProperties",
            Keyword::DependentSchemas => "dependentSchemas",
            Keyword::Items => "items",
            Keyword::PrefixItems => "prefixItems",
            Keyword::AdditionalItems => "additionalItems",
            Keyword::UnevaluatedItems => "unevaluatedItems",
            Keyword::Contains => "contains",
            Keyword::AllOf => "allOf",
            Keyword::AnyOf => "anyOf",
            Keyword::OneOf => "oneOf",
            Keyword::Not => "not",
            Keyword::If => "if",
            Keyword::Then => "then",
            Keyword::Else => "else",
        }
    }

    /// The keyword spelled `name`, if it holds subschemas.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|keyword| keyword.as_str() == name)
    }

    /// The subschemas under this keyword in `schema` (none when it is
    /// missing or its value has the wrong shape), in their order.
    ///
    /// ```
    /// use mcp_core::schema::walk::Keyword;
    /// use serde_json::json;
    ///
    /// let schema = json!({"items": {"type": "string"}, "anyOf": [true]});
    /// let items: Vec<_> = Keyword::Items.subschemas_in(schema.as_object().unwrap()).collect();
    /// assert_eq!(items.len(), 1);
    /// assert_eq!(items[0].schema, &json!({"type": "string"}));
    /// ```
    pub fn subschemas_in(self, schema: &Map<String, Value>) -> impl Iterator<Item = Subschema<'_>> {
        let value = schema.get(self.as_str());
        let (named, listed, single) = match value {
            Some(Value::Object(map)) if self.is_map() => (Some(map), None, None),
            Some(Value::Array(list)) if is_list_keyword(self) => (None, Some(list), None),
            Some(value @ (Value::Object(_) | Value::Bool(_)))
                if !self.is_map() && !only_lists(self) =>
            {
                (None, None, Some(value))
            }
            _ => (None, None, None),
        };
        let keyword = self;
        let named = named
            .into_iter()
            .flatten()
            .map(move |(name, schema)| Subschema {
                keyword,
                name: Some(name.as_str()),
                index: None,
                schema,
            });
        let listed = listed
            .into_iter()
            .flatten()
            .enumerate()
            .map(move |(index, schema)| Subschema {
                keyword,
                name: None,
                index: Some(index),
                schema,
            });
        let single = single.into_iter().map(move |schema| Subschema {
            keyword,
            name: None,
            index: None,
            schema,
        });
        named.chain(listed).chain(single)
    }

    /// Whether the keyword's value maps names to schemas.
    pub fn is_map(self) -> bool {
        matches!(
            self,
            Keyword::Properties | Keyword::PatternProperties | Keyword::DependentSchemas
        )
    }
}

/// One subschema of a schema, as [`subschemas`] finds it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Subschema<'a> {
    /// The keyword it is under.
    pub keyword: Keyword,
    /// Its name under a map keyword (a property's name, a pattern).
    pub name: Option<&'a str>,
    /// Its position under a list keyword (`anyOf`, `prefixItems`, ...).
    pub index: Option<usize>,
    /// The subschema itself.
    pub schema: &'a Value,
}

/// Every subschema directly under `schema`, keyword by keyword (in
/// [`Keyword::ALL`] order), each list and map in its own order. A keyword
/// whose value has the wrong shape holds none; `$ref` is not a subschema
/// (see [`resolve`] and [`Walk::follow`]).
///
/// ```
/// use mcp_core::schema::walk::{Keyword, subschemas};
/// use serde_json::json;
///
/// let schema = json!({"properties": {"a": {"type": "string"}}, "anyOf": [true, false]});
/// let found: Vec<_> = subschemas(schema.as_object().unwrap())
///     .map(|sub| (sub.keyword, sub.name, sub.index))
///     .collect();
/// assert_eq!(found, [
///     (Keyword::Properties, Some("a"), None),
///     (Keyword::AnyOf, None, Some(0)),
///     (Keyword::AnyOf, None, Some(1)),
/// ]);
/// ```
pub fn subschemas(schema: &Map<String, Value>) -> impl Iterator<Item = Subschema<'_>> {
    Keyword::ALL
        .into_iter()
        .flat_map(move |keyword| keyword.subschemas_in(schema))
}

/// Whether `keyword`'s value may be a list of schemas.
fn is_list_keyword(keyword: Keyword) -> bool {
    matches!(
        keyword,
        Keyword::Items | Keyword::PrefixItems | Keyword::AllOf | Keyword::AnyOf | Keyword::OneOf
    )
}

/// Whether `keyword`'s value is only ever a list of schemas.
fn only_lists(keyword: Keyword) -> bool {
    matches!(
        keyword,
        Keyword::PrefixItems | Keyword::AllOf | Keyword::AnyOf | Keyword::OneOf
    )
}

/// Where a walk over a schema is, and how far it may still go: the levels
/// it is deep, the `$ref`s it is inside, the steps left.
///
/// A recursive reader takes one [`step`](Walk::step) for each subschema it
/// goes into and [`follow`](Walk::follow)s each `$ref`. Both give a
/// [`Step`] that stands for the walk one level down, and give the level
/// back when dropped; both refuse (`None`) past the depth, when the steps
/// are spent, and `follow` also for a `$ref` the walk is already inside.
/// [`was_cut`](Walk::was_cut) then tells that something was left unread.
#[derive(Debug, Clone)]
pub struct Walk<'a> {
    /// One entry a level: the `$ref` followed into it, if any.
    levels: Vec<Option<&'a str>>,
    max_depth: usize,
    steps_left: usize,
    cut: bool,
}

impl Default for Walk<'_> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'a> Walk<'a> {
    /// The deepest a walk goes by default, in levels of subschemas and
    /// `$ref`s (well within any thread's stack).
    pub const MAX_DEPTH: usize = 64;
    /// The most steps a walk takes by default, wherever they lead.
    pub const MAX_STEPS: usize = 50_000;

    /// A walk at the top of a schema, within [`MAX_DEPTH`](Self::MAX_DEPTH)
    /// and [`MAX_STEPS`](Self::MAX_STEPS).
    pub fn new() -> Self {
        Self {
            levels: Vec::new(),
            max_depth: Self::MAX_DEPTH,
            steps_left: Self::MAX_STEPS,
            cut: false,
        }
    }

    /// The same walk going at most `levels` deep.
    pub fn max_depth(mut self, levels: usize) -> Self {
        self.max_depth = levels;
        self
    }

    /// The same walk taking at most `steps` steps.
    pub fn max_steps(mut self, steps: usize) -> Self {
        self.steps_left = steps;
        self
    }

    /// How many levels deep the walk is.
    pub fn depth(&self) -> usize {
        self.levels.len()
    }

    /// Whether the walk is inside `reference` (has followed it and not come
    /// back).
    pub fn is_inside(&self, reference: &str) -> bool {
        self.levels.contains(&Some(reference))
    }

    /// Whether a step or a `$ref` was refused: part of the schema was not
    /// read.
    pub fn was_cut(&self) -> bool {
        self.cut
    }

    /// One level down into a subschema, if the walk may go there.
    ///
    /// ```
    /// use mcp_core::schema::walk::Walk;
    ///
    /// let mut walk = Walk::new().max_depth(1);
    /// let mut inner = walk.step().expect("one level is allowed");
    /// assert_eq!(inner.depth(), 1);
    /// assert!(inner.step().is_none());
    /// drop(inner);
    /// assert!(walk.was_cut());
    /// assert_eq!(walk.depth(), 0);
    /// ```
    pub fn step(&mut self) -> Option<Step<'_, 'a>> {
        // Not `then_some`: a `Step` made and dropped would leave a level.
        if self.enter() {
            Some(Step { walk: self })
        } else {
            None
        }
    }

    /// Into what `reference` points to, if the walk is not inside it
    /// already and may go one level down.
    ///
    /// ```
    /// use mcp_core::schema::walk::Walk;
    ///
    /// let mut walk = Walk::new();
    /// let mut inner = walk.follow("#/$defs/Node").expect("not inside it yet");
    /// assert!(inner.is_inside("#/$defs/Node"));
    /// assert!(inner.follow("#/$defs/Node").is_none(), "a cycle ends at its second visit");
    /// assert!(inner.follow("#/$defs/Leaf").is_some());
    /// ```
    pub fn follow(&mut self, reference: &'a str) -> Option<Step<'_, 'a>> {
        if self.enter_ref(reference) {
            Some(Step { walk: self })
        } else {
            None
        }
    }

    /// [`step`](Self::step) for a walk kept in a value whose methods
    /// recurse (where a [`Step`] cannot be held): whether the walk went one
    /// level down. Each `true` must be matched by one [`leave`](Self::leave).
    ///
    /// ```
    /// use mcp_core::schema::walk::Walk;
    ///
    /// let mut walk = Walk::new().max_depth(1);
    /// assert!(walk.enter());
    /// assert!(!walk.enter());
    /// walk.leave();
    /// assert_eq!(walk.depth(), 0);
    /// ```
    pub fn enter(&mut self) -> bool {
        self.advance(None)
    }

    /// [`follow`](Self::follow) for a walk kept in a value whose methods
    /// recurse: whether the walk went into `reference`. Each `true` must be
    /// matched by one [`leave`](Self::leave).
    pub fn enter_ref(&mut self, reference: &'a str) -> bool {
        if self.is_inside(reference) {
            self.cut = true;
            return false;
        }
        self.advance(Some(reference))
    }

    /// Back up one level (out of the `$ref` entered there, if any).
    pub fn leave(&mut self) {
        self.levels.pop();
    }

    fn advance(&mut self, reference: Option<&'a str>) -> bool {
        if self.levels.len() >= self.max_depth || self.steps_left == 0 {
            self.cut = true;
            return false;
        }
        self.steps_left -= 1;
        self.levels.push(reference);
        true
    }
}

/// A [`Walk`] one level down, given by [`Walk::step`] or
/// [`Walk::follow`]: it reads as the walk itself, and gives the level (and
/// the `$ref` followed) back when dropped. The steps it took stay spent, and
/// a cut it saw stays seen.
#[derive(Debug)]
pub struct Step<'w, 'a> {
    walk: &'w mut Walk<'a>,
}

impl<'a> Deref for Step<'_, 'a> {
    type Target = Walk<'a>;

    fn deref(&self) -> &Walk<'a> {
        self.walk
    }
}

impl<'a> DerefMut for Step<'_, 'a> {
    fn deref_mut(&mut self) -> &mut Walk<'a> {
        self.walk
    }
}

impl Drop for Step<'_, '_> {
    fn drop(&mut self) {
        self.walk.leave();
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn every_keyword_is_found_in_each_of_its_shapes() {
        let schema = json!({
            "properties": {"p": true},
            "patternProperties": {"^x": true},
            "additionalProperties": false,
            "propertyNames": {"maxLength": 3},
            "unevaluatedProperties": false,
            "dependentSchemas": {"d": true},
            "items": [true, false],
            "prefixItems": [true],
            "additionalItems": true,
            "unevaluatedItems": false,
            "contains": {"type": "string"},
            "allOf": [true],
            "anyOf": [true],
            "oneOf": [true],
            "not": {},
            "if": true,
            "then": true,
            "else": true,
            "enum": [{"type": "string"}],
            "default": {"properties": {"no": true}}
        });
        let keywords: Vec<_> = subschemas(schema.as_object().unwrap())
            .map(|sub| sub.keyword.as_str())
            .collect();
        assert_eq!(
            keywords,
            [
                "properties",
                "patternProperties",
                "additionalProperties",
                "propertyNames",
                "unevaluatedProperties",
                "dependentSchemas",
                "items",
                "items",
                "prefixItems",
                "additionalItems",
                "unevaluatedItems",
                "contains",
                "allOf",
                "anyOf",
                "oneOf",
                "not",
                "if",
                "then",
                "else"
            ]
        );
    }

    #[test]
    fn values_of_the_wrong_shape_hold_no_subschemas() {
        let schema = json!({
            "properties": [true],
            "anyOf": {"a": true},
            "not": 3,
            "items": "x"
        });
        assert_eq!(subschemas(schema.as_object().unwrap()).count(), 0);
    }

    #[test]
    fn steps_are_spent_wherever_they_go() {
        let mut walk = Walk::new().max_steps(2);
        drop(walk.step());
        drop(walk.step());
        assert!(!walk.was_cut());
        assert!(walk.step().is_none());
        assert!(walk.was_cut());
    }

    #[test]
    fn a_refused_step_leaves_no_level() {
        let mut walk = Walk::new().max_depth(2);
        let mut inner = walk.follow("#/$defs/A").unwrap();
        assert!(inner.follow("#/$defs/A").is_none());
        assert_eq!(inner.depth(), 1);
        assert!(inner.is_inside("#/$defs/A"));
        let mut deepest = inner.step().unwrap();
        assert!(deepest.step().is_none());
        assert_eq!(deepest.depth(), 2);
    }

    #[test]
    fn references_are_left_when_their_step_ends() {
        let mut walk = Walk::new();
        {
            let inner = walk.follow("#/$defs/A");
            assert!(inner.is_some());
        }
        assert!(!walk.is_inside("#/$defs/A"));
        assert!(walk.follow("#/$defs/A").is_some());
    }

    #[test]
    fn pointers_resolve_with_escapes() {
        let root = json!({
            "$defs": {"a/b": {"type": "string"}, "c~d": {"type": "number"}, "e f": {"type": "boolean"}},
            "definitions": {"Old": {"type": "null"}},
            "properties": {"list": {"prefixItems": [{"const": 1}]}}
        });
        assert_eq!(
            resolve(&root, "#/$defs/a~1b"),
            Some(&json!({"type": "string"}))
        );
        assert_eq!(
            resolve(&root, "#/$defs/c~0d"),
            Some(&json!({"type": "number"}))
        );
        assert_eq!(
            resolve(&root, "#/$defs/e%20f"),
            Some(&json!({"type": "boolean"}))
        );
        assert_eq!(
            resolve(&root, "#/definitions/Old"),
            Some(&json!({"type": "null"}))
        );
        assert_eq!(
            resolve(&root, "#/properties/list/prefixItems/0"),
            Some(&json!({"const": 1}))
        );
        assert_eq!(resolve(&root, "#"), Some(&root));
        assert_eq!(resolve(&root, "#/$defs/missing"), None);
        assert_eq!(resolve(&root, "other.json#/$defs/a"), None);
        assert_eq!(resolve(&root, "#/properties/list/prefixItems/x"), None);
    }

    #[test]
    fn resolving_refuses_what_is_not_a_local_pointer() {
        let root = json!({"a": [10, 20]});
        assert_eq!(resolve(&root, "#/a/1"), Some(&json!(20)));
        assert_eq!(resolve(&root, "#/a/2"), None);
        assert_eq!(resolve(&root, "#a"), None);
        assert_eq!(resolve(&root, "#/%FF"), None);
    }
}
