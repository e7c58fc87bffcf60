//! Parsing a document root without the parts generation never reads.
//!
//! Named examples (`components.examples`) and webhooks (`webhooks`, and the
//! `x-webhooks` extension 3.0 documents use for the same thing: requests the
//! API sends, not operations a client calls) are a large share of real
//! documents (28% of GitHub's JSON) and nothing reads them: they are skipped
//! while parsing, without building values for them. Every other part is the
//! same `Value` that `serde_json` (or serde-saphyr, for YAML) builds.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::{Map, Value};

/// Top-level keys skipped while parsing.
const UNREAD_ROOT_KEYS: &[&str] = &["webhooks", "x-webhooks"];
/// `components` keys skipped while parsing.
const UNREAD_COMPONENT_KEYS: &[&str] = &["examples"];

/// A document root as loading reads it.
pub(crate) struct LeanDocument(pub(crate) Value);

impl<'de> Deserialize<'de> for LeanDocument {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_map(LeanObject {
                unread: UNREAD_ROOT_KEYS,
                what: "an OpenAPI document (an object)",
                lean_components: true,
            })
            .map(|object| Self(Value::Object(object)))
    }
}

/// An object whose `unread` keys are skipped.
struct LeanObject {
    unread: &'static [&'static str],
    what: &'static str,
    /// Whether its `components` is read lean too (at the root).
    lean_components: bool,
}

impl<'de> Visitor<'de> for LeanObject {
    type Value = Map<String, Value>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.what)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if self.unread.contains(&key.as_str()) {
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            let value = if self.lean_components && key == "components" {
                map.next_value_seed(ComponentsSeed)?
            } else {
                map.next_value::<Value>()?
            };
            object.insert(key, value);
        }
        Ok(object)
    }
}

/// Reads `components`: an object loses its unread keys, anything else is
/// kept as it is (loading reports it with its pointer).
struct ComponentsSeed;

impl<'de> de::DeserializeSeed<'de> for ComponentsSeed {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(ComponentsVisitor)
    }
}

struct ComponentsVisitor;

impl<'de> Visitor<'de> for ComponentsVisitor {
    type Value = Value;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("the components object")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Value, A::Error> {
        LeanObject {
            unread: UNREAD_COMPONENT_KEYS,
            what: "the components object",
            lean_components: false,
        }
        .visit_map(map)
        .map(Value::Object)
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<Value, A::Error> {
        Value::deserialize(de::value::SeqAccessDeserializer::new(seq))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        Ok(v.into())
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        Ok(v.into())
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        Ok(v.into())
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Ok(v.into())
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(v.into())
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn lean(text: &str) -> Value {
        serde_json::from_str::<LeanDocument>(text).unwrap().0
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
        assert_eq!(lean(&doc.to_string()), expected);
    }

    #[test]
    fn key_order_and_odd_components_are_kept() {
        let text = r#"{"z": 1, "a": {"b": 2}, "components": [1, "two", null]}"#;
        let value = lean(text);
        assert_eq!(value, serde_json::from_str::<Value>(text).unwrap());
        let keys: Vec<&String> = value.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["z", "a", "components"]);
    }

    #[test]
    fn yaml_is_read_lean_and_aliases_into_skipped_parts_resolve() {
        let text = "openapi: 3.1.0\n\
                    components:\n  examples:\n    e: &shared {value: 1}\n  schemas: {S: {type: string}}\n\
                    webhooks: {w: {post: {}}}\n\
                    paths:\n  /a: {x-copy: *shared}\n";
        let value = crate::parse::parse_document(text.as_bytes()).unwrap();
        assert_eq!(value["paths"]["/a"]["x-copy"], json!({"value": 1}));
        assert_eq!(
            value["components"],
            json!({"schemas": {"S": {"type": "string"}}})
        );
        assert!(value.get("webhooks").is_none());
    }

    #[test]
    fn a_root_that_is_not_an_object_is_an_error() {
        let error = serde_json::from_str::<LeanDocument>("[1]").err().unwrap();
        assert!(error.to_string().contains("an OpenAPI document"), "{error}");
    }
}
