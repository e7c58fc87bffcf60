//! OpenAPI 3.0 (and Swagger 2.0) schema keywords to JSON Schema 2020-12:
//! `nullable`, boolean `exclusiveMinimum` / `exclusiveMaximum`, `example`.

use mcp_core::schema::ANNOTATION_KEYWORDS;
use serde_json::{Map, Value};

/// Keywords that only make sense to OpenAPI tooling and are dropped from
/// generated schemas (they cost tokens and say nothing to a validator).
const DROPPED: &[&str] = &["xml", "externalDocs"];

/// Rewrites the keywords of one schema object in place (not its subschemas).
pub(crate) fn normalize_keywords(schema: &mut Map<String, Value>, legacy: bool) {
    for key in DROPPED {
        schema.remove(*key);
    }
    if let Some(example) = schema.remove("example")
        && !schema.contains_key("examples")
    {
        schema.insert("examples".to_owned(), Value::Array(vec![example]));
    }
    if let Some(Value::String(kind)) = schema.get("type")
        && kind == "file"
    {
        schema.insert("type".to_owned(), "string".into());
        schema.insert("format".to_owned(), "binary".into());
    }
    if !legacy {
        // 3.1 documents may still carry a stray `nullable`; honour it too.
        if schema.contains_key("nullable") {
            nullable(schema);
        }
        return;
    }
    exclusive(schema, "exclusiveMinimum", "minimum");
    exclusive(schema, "exclusiveMaximum", "maximum");
    nullable(schema);
}

fn exclusive(schema: &mut Map<String, Value>, flag: &str, bound: &str) {
    match schema.get(flag) {
        Some(Value::Bool(true)) => match schema.remove(bound) {
            Some(limit) => {
                schema.insert(flag.to_owned(), limit);
            }
            None => {
                schema.remove(flag);
            }
        },
        Some(Value::Bool(false)) => {
            schema.remove(flag);
        }
        _ => {}
    }
}

fn nullable(schema: &mut Map<String, Value>) {
    let flag = schema.remove("nullable");
    let x_flag = schema.remove("x-nullable");
    if !matches!(flag, Some(Value::Bool(true))) && !matches!(x_flag, Some(Value::Bool(true))) {
        return;
    }
    if let Some(Value::Array(values)) = schema.get_mut("enum")
        && !values.contains(&Value::Null)
    {
        values.push(Value::Null);
    }
    match schema.get_mut("type") {
        Some(Value::String(kind)) => {
            let kind = std::mem::take(kind);
            schema.insert(
                "type".to_owned(),
                Value::Array(vec![kind.into(), "null".into()]),
            );
        }
        Some(Value::Array(kinds)) => {
            if !kinds.iter().any(|k| k == "null") {
                kinds.push("null".into());
            }
        }
        Some(_) => {}
        None => {
            // No `type` (typically `allOf: [{$ref}]` + `nullable`): the
            // composition moves under `anyOf` beside `{"type": "null"}`.
            let composed = [
                "allOf",
                "anyOf",
                "oneOf",
                "$ref",
                "not",
                "properties",
                "items",
            ]
            .iter()
            .any(|k| schema.contains_key(*k));
            if !composed {
                return;
            }
            let mut inner = Map::new();
            let keys: Vec<String> = schema
                .keys()
                .filter(|k| !ANNOTATION_KEYWORDS.contains(&k.as_str()))
                .cloned()
                .collect();
            for key in keys {
                if let Some(value) = schema.remove(&key) {
                    inner.insert(key, value);
                }
            }
            let mut null = Map::new();
            null.insert("type".to_owned(), "null".into());
            schema.insert(
                "anyOf".to_owned(),
                Value::Array(vec![Value::Object(inner), Value::Object(null)]),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(value: Value, legacy: bool) -> Value {
        let Value::Object(mut object) = value else {
            panic!("object")
        };
        normalize_keywords(&mut object, legacy);
        Value::Object(object)
    }

    #[test]
    fn nullable_becomes_a_type_array() {
        assert_eq!(
            run(json!({"type": "string", "nullable": true}), true),
            json!({"type": ["string", "null"]})
        );
        assert_eq!(
            run(
                json!({"type": "string", "enum": ["a"], "nullable": true}),
                true
            ),
            json!({"type": ["string", "null"], "enum": ["a", null]})
        );
        assert_eq!(
            run(json!({"type": "string", "nullable": false}), true),
            json!({"type": "string"})
        );
        assert_eq!(
            run(
                json!({"allOf": [{"$ref": "#/$defs/A"}], "nullable": true, "description": "d"}),
                true
            ),
            json!({"description": "d", "anyOf": [{"allOf": [{"$ref": "#/$defs/A"}]}, {"type": "null"}]})
        );
    }

    #[test]
    fn exclusive_bounds_become_numbers() {
        assert_eq!(
            run(
                json!({"minimum": 1, "exclusiveMinimum": true, "maximum": 5, "exclusiveMaximum": false}),
                true
            ),
            json!({"exclusiveMinimum": 1, "maximum": 5})
        );
        assert_eq!(
            run(json!({"exclusiveMinimum": 3}), true),
            json!({"exclusiveMinimum": 3})
        );
    }

    #[test]
    fn example_becomes_examples() {
        assert_eq!(run(json!({"example": 3}), false), json!({"examples": [3]}));
        assert_eq!(
            run(json!({"example": 3, "examples": [4]}), true),
            json!({"examples": [4]})
        );
        assert_eq!(
            run(json!({"type": "file"}), true),
            json!({"type": "string", "format": "binary"})
        );
    }
}
