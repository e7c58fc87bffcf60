//! The schemas written inline in operations' request bodies and responses,
//! moved out of the document before its routes are read: each is read once,
//! so converting it can move its parts instead of copying them (and the
//! document has no copy left to free).

use std::collections::HashMap;

use serde_json::{Map, Value};

/// Inline media-type schemas, by the media type object they were taken
/// from (its address: the document is not changed while routes are read,
/// so the object stays where it is).
#[derive(Debug, Default)]
pub(crate) struct InlineSchemas(HashMap<usize, Value>);

impl InlineSchemas {
    /// Moves the `schema` of every media type of the request bodies and
    /// responses written inline in the operations of `root` (not through a
    /// `$ref`) out of it. Sound only when no `$ref` points into `paths`:
    /// each such schema is then read once, where it is written.
    pub(crate) fn take_from(root: &mut Value) -> Self {
        let mut taken = HashMap::new();
        let Some(Value::Object(paths)) = root.get_mut("paths") else {
            return Self(taken);
        };
        for item in paths.values_mut().filter_map(inline_object) {
            for operation in item.values_mut().filter_map(inline_object) {
                if let Some(body) = operation.get_mut("requestBody").and_then(inline_object) {
                    take_content(&mut taken, body);
                }
                if let Some(Value::Object(responses)) = operation.get_mut("responses") {
                    for response in responses.values_mut().filter_map(inline_object) {
                        take_content(&mut taken, response);
                    }
                }
            }
        }
        Self(taken)
    }

    /// The schema taken from `media_object` (once).
    pub(crate) fn take(&mut self, media_object: &Value) -> Option<Value> {
        if self.0.is_empty() {
            return None;
        }
        self.0.remove(&std::ptr::from_ref(media_object).addr())
    }
}

/// The object, unless it is a `$ref` (read where it points instead).
fn inline_object(value: &mut Value) -> Option<&mut Map<String, Value>> {
    value
        .as_object_mut()
        .filter(|object| !object.contains_key("$ref"))
}

fn take_content(taken: &mut HashMap<usize, Value>, object: &mut Map<String, Value>) {
    let Some(Value::Object(content)) = object.get_mut("content") else {
        return;
    };
    for media_object in content.values_mut() {
        if let Value::Object(media) = media_object
            && let Some(schema) = media.shift_remove("schema")
        {
            taken.insert(std::ptr::from_ref::<Value>(media_object).addr(), schema);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn inline_media_schemas_are_taken_and_references_left() {
        let mut root = json!({"paths": {
            "/a/{id}": {"post": {
                "requestBody": {"content": {"application/json": {"schema": {"type": "object"}}}},
                "responses": {
                    "200": {"content": {"text/plain": {"schema": {"type": "string"}, "example": "x"}}},
                    "404": {"$ref": "#/components/responses/NotFound"},
                },
            }},
            "/b": {"$ref": "#/components/pathItems/B"},
        }});
        let mut taken = InlineSchemas::take_from(&mut root);
        let operation = &root["paths"]["/a/{id}"]["post"];
        let body = &operation["requestBody"]["content"]["application/json"];
        let text = &operation["responses"]["200"]["content"]["text/plain"];
        assert_eq!(text, &json!({"example": "x"}));
        assert_eq!(taken.take(body), Some(json!({"type": "object"})));
        assert_eq!(taken.take(body), None);
        assert_eq!(taken.take(text), Some(json!({"type": "string"})));
        assert_eq!(taken.take(&json!({})), None);
    }
}
