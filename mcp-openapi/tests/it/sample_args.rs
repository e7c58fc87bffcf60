//! Minimal valid arguments for a tool's input schema, for calling every
//! generated tool of a document against a mock: `const`, examples,
//! defaults and enums first, else the smallest value of the type that the
//! bounds allow. Top-level optional scalars are filled too, to exercise
//! optional query and header parameters.

use serde_json::{Map, Value, json};

/// Arguments for the input schema `input`.
pub(crate) fn sample_arguments(input: &Value) -> Value {
    sample(input, input, 0, true)
}

fn resolve<'a>(root: &'a Value, mut schema: &'a Value) -> &'a Value {
    for _ in 0..16 {
        match schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix('#'))
        {
            Some(pointer) => match root.pointer(pointer) {
                Some(target) => schema = target,
                None => break,
            },
            None => break,
        }
    }
    schema
}

fn first_type(schema: &Value) -> Option<&str> {
    match schema.get("type") {
        Some(Value::String(t)) => Some(t),
        Some(Value::Array(types)) => types
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null"),
        _ if schema.get("properties").is_some() => Some("object"),
        _ => None,
    }
}

fn sample(root: &Value, schema: &Value, depth: usize, top: bool) -> Value {
    let schema = resolve(root, schema);
    if depth > 12 {
        return Value::Null;
    }
    if let Some(value) = schema.get("const") {
        return value.clone();
    }
    let example = schema
        .get("examples")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
        .or_else(|| schema.get("example"))
        .or_else(|| schema.get("default"))
        .or_else(|| {
            schema
                .get("enum")
                .and_then(Value::as_array)
                .and_then(|e| e.iter().find(|v| !v.is_null()))
        });
    if let Some(value) = example {
        return value.clone();
    }
    if let Some(all) = schema.get("allOf").and_then(Value::as_array) {
        let mut merged = Map::new();
        for part in all {
            match sample(root, part, depth + 1, top) {
                Value::Object(object) => merged.extend(object),
                other if all.len() == 1 => return other,
                _ => {}
            }
        }
        if let Value::Object(own) = object_sample(root, schema, depth, top) {
            merged.extend(own);
        }
        return Value::Object(merged);
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(first) = schema.get(key).and_then(Value::as_array).and_then(|b| {
            b.iter()
                .find(|branch| first_type(resolve(root, branch)) != Some("null"))
        }) {
            return sample(root, first, depth + 1, top);
        }
    }
    match first_type(schema) {
        Some("object") => object_sample(root, schema, depth, top),
        Some("array") => {
            let count = schema
                .get("minItems")
                .and_then(Value::as_u64)
                .unwrap_or(1)
                .max(1);
            let item = schema
                .get("items")
                .map_or(json!("x"), |items| sample(root, items, depth + 1, false));
            Value::Array((0..count).map(|_| item.clone()).collect())
        }
        Some("integer") | Some("number") => {
            let minimum = schema.get("minimum").and_then(Value::as_i64).unwrap_or(1);
            let exclusive = schema
                .get("exclusiveMinimum")
                .and_then(Value::as_i64)
                .map(|m| m + 1);
            let maximum = schema
                .get("maximum")
                .and_then(Value::as_i64)
                .unwrap_or(i64::MAX);
            json!(exclusive.unwrap_or(minimum).max(1).min(maximum))
        }
        Some("boolean") => json!(true),
        Some("null") => Value::Null,
        _ => string_sample(schema),
    }
}

fn object_sample(root: &Value, schema: &Value, depth: usize, top: bool) -> Value {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut object = Map::new();
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        for (name, property) in properties {
            let property_schema = resolve(root, property);
            let scalar = matches!(
                first_type(property_schema),
                Some("string" | "integer" | "boolean")
            ) && property_schema.get("format").is_none();
            if required.contains(&name.as_str())
                || (top && scalar && property_schema.get("readOnly").is_none())
            {
                object.insert(name.clone(), sample(root, property, depth + 1, false));
            }
        }
    }
    Value::Object(object)
}

fn string_sample(schema: &Value) -> Value {
    let text = match schema.get("format").and_then(Value::as_str) {
        Some("date-time") => "2024-01-01T00:00:00Z".to_owned(),
        Some("date") => "2024-01-01".to_owned(),
        Some("email") => "octo@example.com".to_owned(),
        Some("uri" | "url" | "uri-reference") => "https://example.com/x".to_owned(),
        Some("uuid") => "123e4567-e89b-12d3-a456-426614174000".to_owned(),
        Some("binary" | "byte") => "aGVsbG8=".to_owned(),
        Some("ipv4") => "127.0.0.1".to_owned(),
        _ => {
            let min = schema
                .get("minLength")
                .and_then(Value::as_u64)
                .unwrap_or(1)
                .max(1);
            "a".repeat(usize::try_from(min).unwrap_or(1).min(64))
        }
    };
    Value::String(text)
}
