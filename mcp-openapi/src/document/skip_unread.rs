//! Parsing a document root while skipping the parts generation never reads.
//!
//! Named examples (`components.examples`) and webhooks (`webhooks`, and the
//! `x-webhooks` extension 3.0 documents use for the same thing: requests the
//! API sends, not operations a client calls) are a large share of real
//! documents (28% of GitHub's JSON) and nothing reads them: they are skipped
//! while parsing, without building values for them. Every other part is the
//! same `Value` that `serde_json` (or serde-saphyr, for YAML) builds.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// Top-level keys skipped while parsing.
const UNREAD_ROOT_KEYS: &[&str] = &["webhooks", "x-webhooks"];
/// `components` keys skipped while parsing.
const UNREAD_COMPONENT_KEYS: &[&str] = &["examples"];

/// `components.schemas` as JSON text, one entry per schema, in document order.
pub(crate) type RawSchemas = Vec<(String, Box<RawValue>)>;

/// A document root as loading reads it, every schema parsed (YAML).
pub(crate) struct RootWithoutUnread(pub(crate) Value);

impl<'de> Deserialize<'de> for RootWithoutUnread {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_map(UnreadSkipper::root(false))
            .map(|(object, _)| Self(Value::Object(object)))
    }
}

/// A JSON document root as loading reads it, with `components.schemas`
/// left as JSON text (an empty object stands in its place): the
/// `lazy_schemas` module parses only the schemas operations reach.
pub(crate) struct JsonRootWithRawSchemas {
    pub(crate) value: Value,
    /// `None` when the document has no `components.schemas` object.
    pub(crate) raw_schemas: Option<RawSchemas>,
}

impl<'de> Deserialize<'de> for JsonRootWithRawSchemas {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_map(UnreadSkipper::root(true))
            .map(|(object, raw_schemas)| Self {
                value: Value::Object(object),
                raw_schemas,
            })
    }
}

/// An object whose `unread` keys are skipped.
struct UnreadSkipper {
    unread: &'static [&'static str],
    what: &'static str,
    /// At the root: the unread keys of `components` are skipped too.
    root: bool,
    /// `components.schemas` is kept as JSON text (JSON documents only).
    raw_schemas: bool,
}

impl UnreadSkipper {
    const fn root(raw_schemas: bool) -> Self {
        Self {
            unread: UNREAD_ROOT_KEYS,
            what: "an OpenAPI document (an object)",
            root: true,
            raw_schemas,
        }
    }

    const fn components(raw_schemas: bool) -> Self {
        Self {
            unread: UNREAD_COMPONENT_KEYS,
            what: "the components object",
            root: false,
            raw_schemas,
        }
    }
}

impl<'de> Visitor<'de> for UnreadSkipper {
    type Value = (Map<String, Value>, Option<RawSchemas>);

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.what)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut object = Map::new();
        let mut raw_schemas = None;
        while let Some(key) = map.next_key::<String>()? {
            if self.unread.contains(&key.as_str()) {
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            let value = if self.root && key == "components" {
                let (value, raw) = map.next_value_seed(ComponentsSeed {
                    raw_schemas: self.raw_schemas,
                })?;
                raw_schemas = raw;
                value
            } else if !self.root && self.raw_schemas && key == "schemas" {
                match map.next_value::<SchemasPart>()? {
                    SchemasPart::Raw(raw) => {
                        raw_schemas = Some(raw);
                        Value::Object(Map::new())
                    }
                    SchemasPart::Whole(value) => value,
                }
            } else {
                map.next_value::<Value>()?
            };
            object.insert(key, value);
        }
        Ok((object, raw_schemas))
    }
}

/// `visit_*` for every kind but maps: the value `serde_json` would build,
/// mapped by `$wrap` (loading reports misplaced kinds with their pointer).
macro_rules! non_map_values {
    ($wrap:expr) => {
        fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
            Value::deserialize(de::value::SeqAccessDeserializer::new(seq)).map($wrap)
        }

        fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
            Ok($wrap(Value::from(v)))
        }

        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            Ok($wrap(Value::from(v)))
        }

        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            Ok($wrap(Value::from(v)))
        }

        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
            Ok($wrap(Value::from(v)))
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok($wrap(Value::from(v)))
        }

        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok($wrap(Value::Null))
        }

        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok($wrap(Value::Null))
        }
    };
}

/// Reads `components`: an object loses its unread keys, anything else is
/// kept as it is.
struct ComponentsSeed {
    raw_schemas: bool,
}

impl<'de> de::DeserializeSeed<'de> for ComponentsSeed {
    type Value = (Value, Option<RawSchemas>);

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ComponentsSeed {
    type Value = (Value, Option<RawSchemas>);

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("the components object")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        UnreadSkipper::components(self.raw_schemas)
            .visit_map(map)
            .map(|(object, raw)| (Value::Object(object), raw))
    }

    non_map_values!(|value| (value, None));
}

/// `components.schemas`: each schema as JSON text when it is an object.
enum SchemasPart {
    Raw(RawSchemas),
    Whole(Value),
}

impl<'de> Deserialize<'de> for SchemasPart {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(SchemasVisitor)
    }
}

struct SchemasVisitor;

impl<'de> Visitor<'de> for SchemasVisitor {
    type Value = SchemasPart;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("the schemas of the components object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SchemasPart, A::Error> {
        let mut raw = Vec::new();
        while let Some(name) = map.next_key::<String>()? {
            raw.push((name, map.next_value::<Box<RawValue>>()?));
        }
        Ok(SchemasPart::Raw(raw))
    }

    non_map_values!(SchemasPart::Whole);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn without_unread(text: &str) -> Value {
        serde_json::from_str::<RootWithoutUnread>(text).unwrap().0
    }

    #[test]
    fn json_schemas_are_kept_as_text_in_document_order() {
        let text = r#"{"components": {"schemas": {"B": {"type": "string"}, "A": true}, "x": 1}}"#;
        let lazy: JsonRootWithRawSchemas = serde_json::from_str(text).unwrap();
        assert_eq!(lazy.value, json!({"components": {"schemas": {}, "x": 1}}));
        let raw: Vec<(&str, &str)> = lazy
            .raw_schemas
            .as_ref()
            .unwrap()
            .iter()
            .map(|(name, raw)| (name.as_str(), raw.get()))
            .collect();
        assert_eq!(raw, [("B", r#"{"type": "string"}"#), ("A", "true")]);
        // Not an object: kept whole, for loading to report.
        let odd: JsonRootWithRawSchemas =
            serde_json::from_str(r#"{"components": {"schemas": [1]}}"#).unwrap();
        assert_eq!(odd.value, json!({"components": {"schemas": [1]}}));
        assert!(odd.raw_schemas.is_none());
    }

    #[test]
    fn unread_parts_are_skipped_and_the_rest_is_kept() {
        let doc = json!({
            "openapi": "3.1.0",
            "paths": {"/a": {"get": {"responses": {"200": {"description": "ok",
                "content": {"application/json": {"examples": {"x": {"value": 1}}}}}}}}},
            "webhooks": {"w": {"post": {}}},
            "x-webhooks": {"w": {"post": {}}},
            "components": {"schemas": {"S": {"examples": [1]}}, "examples": {"e": {"value": 2}}},
        });
        let mut expected = doc.clone();
        let root = expected.as_object_mut().unwrap();
        root.remove("webhooks");
        root.remove("x-webhooks");
        root["components"]
            .as_object_mut()
            .unwrap()
            .remove("examples");
        assert_eq!(without_unread(&doc.to_string()), expected);
    }

    #[test]
    fn key_order_and_odd_components_are_kept() {
        let text = r#"{"z": 1, "a": {"b": 2}, "components": [1, "two", null]}"#;
        let value = without_unread(text);
        assert_eq!(value, serde_json::from_str::<Value>(text).unwrap());
        let keys: Vec<&String> = value.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["z", "a", "components"]);
    }

    #[test]
    fn a_root_that_is_not_an_object_is_an_error() {
        let error = serde_json::from_str::<RootWithoutUnread>("[1]")
            .err()
            .unwrap();
        assert!(error.to_string().contains("an OpenAPI document"), "{error}");
    }
}
