//! Trimming a structured result to some fields, and its output schema to
//! match.
//!
//! The rule applies to the result's payload: the structured content, or its
//! `result` member when the tool wraps a non-object output (its `_meta` says
//! so under [`WRAPPED_OUTPUT_META_KEY`](crate::meta::WRAPPED_OUTPUT_META_KEY)).
//! A payload object keeps only the listed fields; a payload array has each
//! of its object items trimmed the same way. The output schema is trimmed by
//! the same rule (through local `$ref`s and `anyOf`/`oneOf`/`allOf`
//! branches), so a trimmed result still validates against it. A value
//! passed on in the [`unvalidated`] envelope is trimmed inside it, and the
//! envelope's branch of the schema stays as it is.

use std::collections::HashSet;

use serde_json::Value;

use crate::content::block::Content;
use crate::json::JsonObject;
use crate::schema::walk::Walk;
use crate::tool::result::CallToolResult;
use crate::tool::unvalidated::{self, UNVALIDATED_RESPONSE, Unvalidated};

/// How many `$ref` hops are followed at one place before giving up.
const MAX_REF_HOPS: usize = 32;

/// Where shared definitions live.
const DEFINITIONS: [&str; 2] = ["$defs", "definitions"];

/// The schema branches that describe the same value.
const BRANCHES: [&str; 3] = ["anyOf", "oneOf", "allOf"];

/// Which part of a result a schema describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Level {
    /// The structured content of a wrapping tool: `{"result": payload}`.
    Wrapper,
    /// The payload: an object, or an array of objects.
    Payload,
    /// An item of a payload array.
    Item,
}

/// Keeps the listed fields of a structured result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Keep {
    fields: Vec<String>,
    wrapped: bool,
    /// Whether the tool passes on values that do not match its schema in
    /// the [`unvalidated`] envelope.
    tolerant: bool,
}

impl Keep {
    /// Keeps `fields`; `wrapped` says whether the payload is under
    /// `result`, `tolerant` whether the tool may answer with the
    /// [`unvalidated`] envelope.
    pub(crate) fn new(fields: Vec<String>, wrapped: bool, tolerant: bool) -> Self {
        Self {
            fields,
            wrapped,
            tolerant,
        }
    }

    /// Trims a successful result's structured content. A text block that
    /// mirrored the structured content is rewritten to mirror the trimmed one.
    pub(crate) fn result(&self, result: &mut CallToolResult) {
        if result.is_error() {
            return;
        }
        let Some(structured) = result.structured_content.as_mut() else {
            return;
        };
        if self.tolerant && Unvalidated::of(structured).is_some() {
            self.unvalidated(result);
            return;
        }
        let before = structured.to_string();
        if self.wrapped {
            if let Some(payload) = structured.get_mut("result") {
                self.value(payload, Level::Payload);
            }
        } else {
            self.value(structured, Level::Payload);
        }
        if let [Content::Text(block)] = result.content.as_mut_slice()
            && block.text == before
        {
            block.text = structured.to_string();
        }
    }

    /// Trims the value inside the envelope; a text block that starts with
    /// it (alone, or before a note) is rewritten to start with what is kept.
    fn unvalidated(&self, result: &mut CallToolResult) {
        let Some(payload) = result
            .structured_content
            .as_mut()
            .and_then(|structured| structured.get_mut(UNVALIDATED_RESPONSE))
        else {
            return;
        };
        let before = payload.to_string();
        self.value(payload, Level::Payload);
        let after = payload.to_string();
        if before == after {
            return;
        }
        for content in &mut result.content {
            if let Content::Text(block) = content
                && let Some(rest) = block.text.strip_prefix(before.as_str())
                && (rest.is_empty() || rest.starts_with("\n\n"))
            {
                block.text = format!("{after}{rest}");
            }
        }
    }

    fn value(&self, value: &mut Value, level: Level) {
        match value {
            Value::Object(object) => object.retain(|key, _| self.fields.contains(key)),
            Value::Array(items) if level == Level::Payload => {
                for item in items {
                    self.value(item, Level::Item);
                }
            }
            _ => {}
        }
    }

    /// The output schema `schema` trimmed by the same rule.
    pub(crate) fn schema(&self, schema: &JsonObject) -> JsonObject {
        let mut trimmed = schema.clone();
        let level = if self.wrapped {
            Level::Wrapper
        } else {
            Level::Payload
        };
        self.trim_schema(&mut trimmed, schema, level, &mut Walk::new());
        prune_definitions(&mut trimmed);
        trimmed
    }

    /// Trims `schema` (a copy, inside `root`) at `level`, within `walk`.
    fn trim_schema<'r>(
        &self,
        schema: &mut JsonObject,
        root: &'r JsonObject,
        level: Level,
        walk: &mut Walk<'r>,
    ) {
        let entered = inline_reference(schema, root, walk);
        self.trim_inlined(schema, root, level, walk);
        for _ in 0..entered {
            walk.leave();
        }
    }

    fn trim_inlined<'r>(
        &self,
        schema: &mut JsonObject,
        root: &'r JsonObject,
        level: Level,
        walk: &mut Walk<'r>,
    ) {
        for keyword in BRANCHES {
            if let Some(Value::Array(branches)) = schema.get_mut(keyword) {
                for branch in branches
                    .iter_mut()
                    .filter(|branch| !unvalidated::is_envelope_schema(branch))
                    .filter_map(Value::as_object_mut)
                {
                    if let Some(mut inner) = walk.step() {
                        self.trim_schema(branch, root, level, &mut inner);
                    }
                }
            }
        }
        match level {
            Level::Wrapper => {
                if let Some(Value::Object(payload)) = schema
                    .get_mut("properties")
                    .and_then(|properties| properties.get_mut("result"))
                    && let Some(mut inner) = walk.step()
                {
                    self.trim_schema(payload, root, Level::Payload, &mut inner);
                }
            }
            Level::Payload | Level::Item => {
                if let Some(Value::Object(properties)) = schema.get_mut("properties") {
                    properties.retain(|key, _| self.fields.contains(key));
                }
                if let Some(Value::Array(required)) = schema.get_mut("required") {
                    required.retain(|name| {
                        name.as_str()
                            .is_some_and(|n| self.fields.iter().any(|f| f == n))
                    });
                }
                if level == Level::Payload
                    && let Some(Value::Object(items)) = schema.get_mut("items")
                    && let Some(mut inner) = walk.step()
                {
                    self.trim_schema(items, root, Level::Item, &mut inner);
                }
            }
        }
    }
}

/// Replaces a local `$ref` (`#/$defs/NAME` or `#/definitions/NAME`) by a
/// copy of its target, keeping the sibling keywords, so the copy can be
/// trimmed without touching the shared definition; returns how many
/// definitions `walk` entered (to leave once the copy is trimmed).
///
/// A reference back into a definition being trimmed around it (a cycle) is
/// not copied again: it becomes `{}` (with its siblings), since the copy
/// around it already says what the trimmed value is. So is a reference past
/// the walk's bound.
fn inline_reference<'r>(
    schema: &mut JsonObject,
    root: &'r JsonObject,
    walk: &mut Walk<'r>,
) -> usize {
    let mut entered = 0;
    for _ in 0..MAX_REF_HOPS {
        let Some(Value::String(reference)) = schema.get("$ref") else {
            break;
        };
        let Some((name, Value::Object(target))) = local_target(reference, root) else {
            break;
        };
        schema.shift_remove("$ref");
        if !walk.enter_ref(name) {
            break;
        }
        entered += 1;
        let mut inlined = target.clone();
        inlined.extend(std::mem::take(schema));
        *schema = inlined;
    }
    entered
}

/// Drops the shared definitions nothing refers to any more (trimming often
/// leaves most of them unused), following references between definitions.
/// References it cannot follow (not local, or `$dynamicRef`) keep them all.
fn prune_definitions(schema: &mut JsonObject) {
    let mut pending = Vec::new();
    for (key, value) in schema.iter() {
        if !DEFINITIONS.contains(&key.as_str()) {
            collect_references(value, &mut pending);
        }
    }
    let mut all = pending.clone();
    for section in DEFINITIONS {
        if let Some(definitions) = schema.get(section) {
            collect_references(definitions, &mut all);
        }
    }
    let local = |reference: &String| {
        reference == "#"
            || DEFINITIONS
                .iter()
                .any(|s| reference.starts_with(&format!("#/{s}/")))
    };
    if !all.iter().all(local) || schema.values().any(|value| mentions(value, "$dynamicRef")) {
        return;
    }
    let mut reached: HashSet<String> = HashSet::new();
    while let Some(reference) = pending.pop() {
        if reached.insert(reference.clone())
            && let Some((_, target)) = local_target(&reference, schema)
        {
            collect_references(target, &mut pending);
        }
    }
    for section in DEFINITIONS {
        if let Some(Value::Object(definitions)) = schema.get_mut(section) {
            definitions.retain(|name, _| {
                let escaped = name.replace('~', "~0").replace('/', "~1");
                reached.contains(&format!("#/{section}/{escaped}"))
            });
            if definitions.is_empty() {
                schema.shift_remove(section);
            }
        }
    }
}

/// Whether `keyword` is a key anywhere in `value`.
fn mentions(value: &Value, keyword: &str) -> bool {
    match value {
        Value::Object(object) => object
            .iter()
            .any(|(key, value)| key == keyword || mentions(value, keyword)),
        Value::Array(items) => items.iter().any(|item| mentions(item, keyword)),
        _ => false,
    }
}

fn collect_references(value: &Value, found: &mut Vec<String>) {
    match value {
        Value::Object(object) => {
            for (key, value) in object {
                match value {
                    Value::String(reference) if key == "$ref" => found.push(reference.clone()),
                    _ => collect_references(value, found),
                }
            }
        }
        Value::Array(items) => items
            .iter()
            .for_each(|item| collect_references(item, found)),
        _ => {}
    }
}

/// The definition a local reference names in `root`: its key (as `root`
/// holds it) and its schema.
fn local_target<'a>(reference: &str, root: &'a JsonObject) -> Option<(&'a str, &'a Value)> {
    let (section, name) = reference
        .strip_prefix("#/$defs/")
        .map(|name| ("$defs", name))
        .or_else(|| {
            reference
                .strip_prefix("#/definitions/")
                .map(|name| ("definitions", name))
        })?;
    let name = name.replace("~1", "/").replace("~0", "~");
    let (key, value) = root
        .get(section)?
        .as_object()?
        .get_key_value(name.as_str())?;
    Some((key.as_str(), value))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn keep(wrapped: bool) -> Keep {
        Keep::new(vec!["number".into(), "title".into()], wrapped, false)
    }

    #[test]
    fn objects_keep_the_listed_fields_and_the_mirror_text_follows() {
        let mut result =
            CallToolResult::structured(json!({"number": 1, "title": "t", "body": "long"}));
        keep(false).result(&mut result);
        assert_eq!(
            result.structured_content,
            Some(json!({"number": 1, "title": "t"}))
        );
        assert_eq!(result.text_content(), r#"{"number":1,"title":"t"}"#);
    }

    #[test]
    fn wrapped_arrays_trim_each_item() {
        let mut result = CallToolResult::structured(json!({"result": [
            {"number": 1, "title": "a", "body": "x"},
            {"number": 2, "user": {}},
            "not an object"
        ]}));
        keep(true).result(&mut result);
        assert_eq!(
            result.structured_content,
            Some(json!({"result": [{"number": 1, "title": "a"}, {"number": 2}, "not an object"]}))
        );
    }

    #[test]
    fn an_unvalidated_value_is_trimmed_inside_its_envelope() {
        let documented = json!({
            "type": "object",
            "properties": {"number": {"type": "integer"}, "title": {"type": "string"}, "body": {"type": "string"}},
            "required": ["number", "body"]
        });
        let tolerant = unvalidated::tolerant_output_schema(documented.as_object().unwrap());
        let rule = Keep::new(vec!["number".into(), "title".into()], false, true);
        let trimmed = rule.schema(&tolerant);
        assert_eq!(
            trimmed["anyOf"][0],
            json!({"type": "object", "properties": {"number": {"type": "integer"}, "title": {"type": "string"}}, "required": ["number"]})
        );
        assert_eq!(trimmed["anyOf"][1], unvalidated::envelope_schema());
        assert!(unvalidated::documented(&trimmed).is_some());

        let value = json!({"number": 1, "title": null, "body": "x"});
        let mut result = CallToolResult::text(format!("{value}\n\n[a note]"));
        result.structured_content = Some(json!({
            "unvalidatedResponse": value,
            "schemaViolations": ["/title: null is not of type \"string\""]
        }));
        rule.result(&mut result);
        assert_eq!(
            result.structured_content,
            Some(json!({
                "unvalidatedResponse": {"number": 1, "title": null},
                "schemaViolations": ["/title: null is not of type \"string\""]
            }))
        );
        assert_eq!(
            result.text_content(),
            "{\"number\":1,\"title\":null}\n\n[a note]"
        );

        // A tool that never declared the envelope keeps the fields of what
        // it sent, whatever its members are called.
        let mut plain = CallToolResult::structured(
            json!({"unvalidatedResponse": 1, "schemaViolations": [], "number": 2}),
        );
        keep(false).result(&mut plain);
        assert_eq!(plain.structured_content, Some(json!({"number": 2})));
    }

    #[test]
    fn errors_and_other_texts_are_left_alone() {
        let mut failed = CallToolResult::error("boom");
        failed.structured_content = Some(json!({"status": 404}));
        keep(false).result(&mut failed);
        assert_eq!(failed.structured_content, Some(json!({"status": 404})));

        let mut annotated = CallToolResult::text("a summary");
        annotated.structured_content = Some(json!({"number": 1, "body": "x"}));
        keep(false).result(&mut annotated);
        assert_eq!(annotated.structured_content, Some(json!({"number": 1})));
        assert_eq!(annotated.text_content(), "a summary");
    }

    #[test]
    fn schemas_are_trimmed_through_references_and_branches() {
        let schema = json!({
            "$defs": {"Issue": {
                "type": "object",
                "properties": {"number": {"type": "integer"}, "title": {"type": "string"}, "body": {"type": "string"}},
                "required": ["number", "body"]
            }},
            "type": "object",
            "anyOf": [
                {"type": "object", "properties": {"result": {"type": "array", "items": {"$ref": "#/$defs/Issue"}}}, "required": ["result"]},
                {"type": "object", "properties": {"unvalidatedResponse": {}}, "required": ["unvalidatedResponse"]}
            ]
        });
        let trimmed = Value::Object(keep(true).schema(schema.as_object().unwrap()));
        assert_eq!(
            trimmed["anyOf"][0]["properties"]["result"]["items"],
            json!({
                "type": "object",
                "properties": {"number": {"type": "integer"}, "title": {"type": "string"}},
                "required": ["number"]
            })
        );
        assert_eq!(trimmed["anyOf"][1], schema["anyOf"][1], "no payload there");
        assert!(
            trimmed.get("$defs").is_none(),
            "the inlined definition is unused now"
        );
    }

    #[test]
    fn definitions_still_referred_to_stay() {
        let schema = json!({
            "$defs": {
                "Issue": {"type": "object", "properties": {"user": {"$ref": "#/$defs/User"}, "body": {"$ref": "#/$defs/Body"}}},
                "User": {"type": "object", "properties": {"login": {"$ref": "#/$defs/Login"}}},
                "Login": {"type": "string"},
                "Body": {"type": "string"},
                "Unused": {"type": "null"}
            },
            "$ref": "#/$defs/Issue"
        });
        let trimmed =
            Keep::new(vec!["user".into()], false, false).schema(schema.as_object().unwrap());
        let kept: Vec<&String> = trimmed["$defs"].as_object().unwrap().keys().collect();
        assert_eq!(kept, ["User", "Login"]);

        let mut remote = schema.as_object().cloned().unwrap();
        remote.insert(
            "not".into(),
            json!({"$ref": "https://example.com/other.json"}),
        );
        let trimmed = Keep::new(vec!["user".into()], false, false).schema(&remote);
        assert_eq!(
            trimmed["$defs"].as_object().unwrap().len(),
            5,
            "unknown references keep all"
        );
        assert_eq!(
            trimmed["properties"],
            json!({"user": {"$ref": "#/$defs/User"}})
        );
    }

    #[test]
    fn trimmed_values_validate_against_trimmed_schemas() {
        let schema = json!({
            "type": "object",
            "properties": {"number": {"type": "integer"}, "body": {"type": "string"}},
            "required": ["number", "body"],
            "additionalProperties": false
        });
        let trimmed = keep(false).schema(schema.as_object().unwrap());
        let validator = jsonschema::validator_for(&Value::Object(trimmed)).unwrap();
        let mut result = CallToolResult::structured(json!({"number": 1, "body": "x"}));
        keep(false).result(&mut result);
        assert!(validator.is_valid(result.structured_content.as_ref().unwrap()));
    }

    #[test]
    fn a_definition_that_refers_to_itself_is_trimmed_once() {
        let schema = json!({
            "$defs": {
                "Node": {"anyOf": [
                    {"type": "object", "properties": {"number": {"type": "integer"}, "body": {"type": "string"}}, "required": ["body"]},
                    {"$ref": "#/$defs/Node"},
                    {"allOf": [{"$ref": "#/$defs/Node"}]}
                ]}
            },
            "$ref": "#/$defs/Node"
        });
        let trimmed = keep(false).schema(schema.as_object().unwrap());
        assert_eq!(
            Value::Object(trimmed.clone()),
            json!({"anyOf": [
                {"type": "object", "properties": {"number": {"type": "integer"}}, "required": []},
                {},
                {"allOf": [{}]}
            ]})
        );
        let validator = jsonschema::validator_for(&Value::Object(trimmed)).unwrap();
        let mut result = CallToolResult::structured(json!({"number": 1, "body": "x"}));
        keep(false).result(&mut result);
        assert!(validator.is_valid(result.structured_content.as_ref().unwrap()));
    }
}
