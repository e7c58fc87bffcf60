//! The portable spelling of `null` in schemas: no type arrays.
//!
//! schemars spells `Option<T>` as `"type": ["T", "null"]` (or an `anyOf`
//! with a `{"type": "null"}` branch for references). Function-calling
//! dialects such as Gemini's refuse type arrays, so every
//! `"type": [..., "null"]` becomes
//! `"anyOf": [{"type": ...}, {"type": "null"}]`, and in input schemas an
//! optional top-level argument loses its `null` altogether (leaving it out
//! says the same).

use serde_json::Value;

use crate::json::JsonObject;

/// Keywords whose values are data, not schemas.
const DATA_KEYWORDS: [&str; 6] = [
    "enum", "const", "default", "examples", "example", "required",
];

/// Keywords whose values map names (which may be any word) to schemas.
const NAME_MAPS: [&str; 5] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

/// Keywords that describe a schema rather than constrain it: they stay
/// outside the `anyOf` a nullable schema becomes.
pub const ANNOTATION_KEYWORDS: [&str; 7] = [
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// Spells an input schema portably: optional top-level properties without
/// `null`, every other type array with `null` as an `anyOf`.
///
/// ```
/// use mcp_core::schema::portable_input;
/// use serde_json::json;
///
/// let mut schema = json!({
///     "type": "object",
///     "properties": {
///         "limit": {"type": ["integer", "null"], "format": "uint"},
///         "tags": {"type": "array", "items": {"type": ["string", "null"]}}
///     }
/// });
/// portable_input(schema.as_object_mut().unwrap());
/// assert_eq!(schema["properties"]["limit"], json!({"type": "integer", "format": "uint"}));
/// assert_eq!(
///     schema["properties"]["tags"]["items"],
///     json!({"anyOf": [{"type": "string"}, {"type": "null"}]})
/// );
/// ```
pub fn portable_input(schema: &mut JsonObject) {
    let required: Vec<String> = match schema.get("required") {
        Some(Value::Array(names)) => names
            .iter()
            .filter_map(|name| name.as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    };
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        for (name, property) in properties.iter_mut() {
            if let Value::Object(property) = property
                && !required.contains(name)
            {
                drop_null(property);
            }
        }
    }
    portable(schema);
}

/// Spells any schema portably: every type array with `null` as an `anyOf`
/// (the values it accepts are the same).
///
/// ```
/// use mcp_core::schema::portable;
/// use serde_json::json;
///
/// let mut schema = json!({"type": ["string", "null"], "description": "A name.", "minLength": 1});
/// portable(schema.as_object_mut().unwrap());
/// assert_eq!(
///     schema,
///     json!({"description": "A name.", "anyOf": [{"type": "string", "minLength": 1}, {"type": "null"}]})
/// );
/// ```
pub fn portable(schema: &mut JsonObject) {
    for (key, value) in schema.iter_mut() {
        match (key.as_str(), value) {
            (map, Value::Object(schemas)) if NAME_MAPS.contains(&map) => {
                schemas.values_mut().for_each(walk);
            }
            (data, _) if DATA_KEYWORDS.contains(&data) => {}
            (_, value) => walk(value),
        }
    }
    split_null_type(schema);
}

fn walk(value: &mut Value) {
    match value {
        Value::Object(object) => portable(object),
        Value::Array(items) => items.iter_mut().for_each(walk),
        _ => {}
    }
}

/// The non-null types of a type array with `null`.
fn non_null_types(schema: &JsonObject) -> Option<Vec<Value>> {
    let Some(Value::Array(types)) = schema.get("type") else {
        return None;
    };
    if !types.iter().any(|t| t == "null") {
        return None;
    }
    Some(types.iter().filter(|t| *t != "null").cloned().collect())
}

/// `["T"]` as `"T"`, several as an array.
fn type_value(mut types: Vec<Value>) -> Value {
    if types.len() == 1 {
        types.remove(0)
    } else {
        Value::Array(types)
    }
}

/// Rewrites `"type": [..., "null"]` as an `anyOf` (unless the schema has
/// one already).
fn split_null_type(schema: &mut JsonObject) {
    if schema.contains_key("anyOf") {
        return;
    }
    let Some(types) = non_null_types(schema) else {
        return;
    };
    if types.is_empty() {
        schema.insert("type".to_owned(), "null".into());
        return;
    }
    let mut branch = JsonObject::new();
    branch.insert("type".to_owned(), type_value(types));
    let keys: Vec<String> = schema.keys().cloned().collect();
    for key in keys {
        if key != "type"
            && !ANNOTATION_KEYWORDS.contains(&key.as_str())
            && let Some(value) = schema.shift_remove(&key)
        {
            branch.insert(key, value);
        }
    }
    schema.shift_remove("type");
    let null = serde_json::json!({"type": "null"});
    schema.insert(
        "anyOf".to_owned(),
        Value::Array(vec![Value::Object(branch), null]),
    );
}

/// Removes `null` from an optional property: from its type array, or the
/// `{"type": "null"}` branch of a two-branch `anyOf`.
fn drop_null(property: &mut JsonObject) {
    if let Some(types) = non_null_types(property) {
        if !types.is_empty() {
            property.insert("type".to_owned(), type_value(types));
        }
        return;
    }
    let Some(Value::Array(branches)) = property.get("anyOf") else {
        return;
    };
    let null = serde_json::json!({"type": "null"});
    let [first, second] = branches.as_slice() else {
        return;
    };
    let other = match (first == &null, second == &null) {
        (true, false) => second.clone(),
        (false, true) => first.clone(),
        _ => return,
    };
    let Value::Object(other) = other else {
        return;
    };
    property.shift_remove("anyOf");
    for (key, value) in other {
        property.entry(key).or_insert(value);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn optional_references_lose_their_null_branch() {
        let mut schema = json!({
            "type": "object",
            "properties": {
                "pet": {"anyOf": [{"$ref": "#/$defs/Pet"}, {"type": "null"}], "description": "The pet."},
                "owner": {"anyOf": [{"$ref": "#/$defs/Pet"}, {"type": "null"}]}
            },
            "required": ["owner"]
        });
        portable_input(schema.as_object_mut().unwrap());
        assert_eq!(
            schema["properties"]["pet"],
            json!({"description": "The pet.", "$ref": "#/$defs/Pet"})
        );
        assert_eq!(
            schema["properties"]["owner"],
            json!({"anyOf": [{"$ref": "#/$defs/Pet"}, {"type": "null"}]})
        );
    }

    #[test]
    fn properties_named_like_keywords_are_schemas() {
        let mut schema =
            json!({"type": "object", "properties": {"enum": {"type": ["string", "null"]}}});
        portable(schema.as_object_mut().unwrap());
        assert_eq!(
            schema["properties"]["enum"],
            json!({"anyOf": [{"type": "string"}, {"type": "null"}]})
        );
    }

    #[test]
    fn data_is_left_alone() {
        let mut schema = json!({"type": "object", "default": {"type": ["a", "null"]}, "enum": [{"type": ["x", "null"]}]});
        let before = schema.clone();
        portable(schema.as_object_mut().unwrap());
        assert_eq!(schema, before);
    }

    #[test]
    fn required_nullable_arguments_keep_null_as_an_any_of() {
        let mut schema = json!({
            "type": "object",
            "properties": {"note": {"type": ["string", "null"]}},
            "required": ["note"]
        });
        portable_input(schema.as_object_mut().unwrap());
        assert_eq!(
            schema["properties"]["note"],
            json!({"anyOf": [{"type": "string"}, {"type": "null"}]})
        );
    }
}
