//! What the handler keeps of a result when the call names `fields` (see
//! [`Generator::result_fields`](crate::Generator::result_fields)).
//!
//! Each field is a top-level name or a dotted path (`user.login`). Of an
//! object, only the named members are kept, and of a member reached by a
//! longer path only what the rest of the path names (`user.login` keeps
//! `{"user": {"login": ...}}`); an array on the way is projected item by
//! item (`labels.name` keeps `{"labels": [{"name": ...}, ...]}`), and an
//! array payload too. Names that match nothing are simply absent: a path
//! that goes on through a string, number or boolean keeps nothing of it,
//! one through `null` keeps the `null` (the object is absent upstream),
//! and items of an array that are not objects stay as they are (arrays
//! keep their length). A member whose name holds a dot is matched by its
//! whole name too.

use mcp_core::tool::unvalidated::UNVALIDATED_RESPONSE as UNVALIDATED;
use mcp_core::tool::unvalidated::Unvalidated;
use mcp_core::{CallToolResult, content::Content};
use serde_json::{Map, Value};

/// The fields a call's `fields` argument asks for; `None` (the whole
/// result) when it is absent, `null` or an empty list.
pub(super) fn requested(argument: Option<Value>) -> Option<Vec<String>> {
    let Some(Value::Array(items)) = argument else {
        return None;
    };
    let fields: Vec<String> = items
        .into_iter()
        .filter_map(|item| match item {
            Value::String(field) => Some(field),
            _ => None,
        })
        .collect();
    (!fields.is_empty()).then_some(fields)
}

/// Keeps `fields` of a successful result's payload: its structured content,
/// its `result` member when the tool `wrapped` its output, or the response
/// inside the tolerant envelope. The text block that mirrored the payload
/// (the whole block, or its start before a note) is rewritten to mirror
/// what is kept. Errors, and results without structured content (bodies
/// that are not JSON), are left as they are.
pub(super) fn project_result(result: &mut CallToolResult, fields: &[String], wrapped: bool) {
    if result.is_error() {
        return;
    }
    let Some(structured) = result.structured_content.as_mut() else {
        return;
    };
    let fields: Vec<&str> = fields.iter().map(String::as_str).collect();
    let (before, after) = if Unvalidated::of(structured).is_some() {
        let Some(payload) = structured.get_mut(UNVALIDATED) else {
            return;
        };
        let before = payload.to_string();
        project(payload, &fields);
        (before, payload.to_string())
    } else {
        let before = structured.to_string();
        let payload = if wrapped {
            structured.get_mut("result")
        } else {
            Some(&mut *structured)
        };
        if let Some(payload) = payload {
            project(payload, &fields);
        }
        (before, structured.to_string())
    };
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

/// Keeps `fields` of a payload: of an object, or of each item of an array.
/// Any other value stays as it is.
fn project(value: &mut Value, fields: &[&str]) {
    nested(value, fields);
}

/// Keeps `paths` of a value; `false` when it has nothing to keep them of
/// (a string, number or boolean).
fn nested(value: &mut Value, paths: &[&str]) -> bool {
    match value {
        Value::Object(object) => {
            object_fields(object, paths);
            true
        }
        Value::Array(items) => {
            for item in items {
                nested(item, paths);
            }
            true
        }
        Value::Null => true,
        _ => false,
    }
}

fn object_fields(object: &mut Map<String, Value>, paths: &[&str]) {
    object.retain(|name, value| {
        if paths.iter().any(|path| path == name) {
            return true;
        }
        let rest: Vec<&str> = paths
            .iter()
            .filter_map(|path| path.strip_prefix(name.as_str())?.strip_prefix('.'))
            .collect();
        !rest.is_empty() && nested(value, &rest)
    });
}

#[cfg(test)]
mod tests {
    use mcp_core::tool::unvalidated::SCHEMA_VIOLATIONS as VIOLATIONS;
    use serde_json::json;

    use super::*;

    fn projected(mut value: Value, fields: &[&str]) -> Value {
        project(&mut value, fields);
        value
    }

    fn issue(number: u64) -> Value {
        json!({
            "number": number,
            "title": format!("Crash {number}"),
            "body": "long text",
            "user": {"login": "octocat", "id": 1, "site_admin": false},
            "labels": [
                {"name": "bug", "color": "f00", "id": 10},
                {"name": "ui", "color": "0f0", "id": 11}
            ],
            "assignee": null
        })
    }

    #[test]
    fn objects_keep_the_named_top_level_fields() {
        assert_eq!(
            projected(issue(1), &["title", "number"]),
            json!({"number": 1, "title": "Crash 1"}),
            "in the object's order"
        );
    }

    #[test]
    fn dotted_paths_keep_nested_fields() {
        assert_eq!(
            projected(issue(1), &["user.login", "user.id", "number"]),
            json!({"number": 1, "user": {"login": "octocat", "id": 1}})
        );
        assert_eq!(
            projected(issue(1), &["user", "user.login"]),
            json!({"user": {"login": "octocat", "id": 1, "site_admin": false}}),
            "a whole member wins over a path into it"
        );
    }

    #[test]
    fn paths_through_arrays_apply_to_each_item() {
        assert_eq!(
            projected(issue(1), &["labels.name"]),
            json!({"labels": [{"name": "bug"}, {"name": "ui"}]})
        );
        assert_eq!(
            projected(
                json!({"tags": ["a", {"name": "b", "id": 2}, [{"name": "c", "id": 3}]]}),
                &["tags.name"]
            ),
            json!({"tags": ["a", {"name": "b"}, [{"name": "c"}]]}),
            "items that are not objects stay; nested arrays are projected too"
        );
    }

    #[test]
    fn arrays_project_each_item() {
        assert_eq!(
            projected(json!([issue(1), issue(2), "x"]), &["number", "user.login"]),
            json!([
                {"number": 1, "user": {"login": "octocat"}},
                {"number": 2, "user": {"login": "octocat"}},
                "x"
            ])
        );
    }

    #[test]
    fn unknown_names_are_absent() {
        assert_eq!(
            projected(
                issue(1),
                &["nope", "user.nope", "title.length", "assignee.login"]
            ),
            json!({"user": {}, "assignee": null}),
            "nothing of a string; a null stays null"
        );
        assert_eq!(projected(json!("text"), &["a"]), json!("text"));
        assert_eq!(
            projected(json!({"a.b": 1, "a": {"b": 2, "c": 3}}), &["a.b"]),
            json!({"a.b": 1, "a": {"b": 2}}),
            "a name with a dot matches whole, and as a path"
        );
    }

    #[test]
    fn the_argument_is_a_non_empty_list_of_strings() {
        assert_eq!(requested(None), None);
        assert_eq!(requested(Some(Value::Null)), None);
        assert_eq!(requested(Some(json!([]))), None);
        assert_eq!(
            requested(Some(json!(["a", "b.c"]))),
            Some(vec!["a".to_owned(), "b.c".to_owned()])
        );
    }

    fn fields(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| (*n).to_owned()).collect()
    }

    #[test]
    fn structured_results_and_their_text_are_projected() {
        let mut result = CallToolResult::structured(issue(1));
        project_result(&mut result, &fields(&["number", "user.login"]), false);
        let expected = json!({"number": 1, "user": {"login": "octocat"}});
        assert_eq!(result.structured_content, Some(expected.clone()));
        assert_eq!(result.text_content(), expected.to_string());
    }

    #[test]
    fn wrapped_lists_are_projected_inside_the_wrapper() {
        let mut result = CallToolResult::structured(json!({"result": [issue(1), issue(2)]}));
        project_result(&mut result, &fields(&["number", "labels.name"]), true);
        let expected = json!({"result": [
            {"number": 1, "labels": [{"name": "bug"}, {"name": "ui"}]},
            {"number": 2, "labels": [{"name": "bug"}, {"name": "ui"}]}
        ]});
        assert_eq!(result.structured_content, Some(expected.clone()));
        assert_eq!(result.text_content(), expected.to_string());
    }

    #[test]
    fn the_tolerant_envelope_keeps_its_note() {
        let value = json!([issue(1)]);
        let mut result = CallToolResult::text(format!("{value}\n\n[the response does not match]"));
        result.structured_content = Some(json!({UNVALIDATED: value, VIOLATIONS: ["/0: missing"]}));
        project_result(&mut result, &fields(&["number"]), true);
        assert_eq!(
            result.structured_content,
            Some(json!({UNVALIDATED: [{"number": 1}], VIOLATIONS: ["/0: missing"]}))
        );
        assert_eq!(
            result.text_content(),
            "[{\"number\":1}]\n\n[the response does not match]"
        );
    }

    #[test]
    fn non_json_bodies_and_errors_are_untouched() {
        let mut text = CallToolResult::text("<issues/>");
        text.structured_content = Some(json!({
            UNVALIDATED: "<issues/>",
            VIOLATIONS: ["the response is `application/xml`, not the documented JSON"]
        }));
        let before = text.clone();
        project_result(&mut text, &fields(&["number"]), false);
        assert_eq!(text, before);

        let mut plain = CallToolResult::text("plain text");
        project_result(&mut plain, &fields(&["number"]), false);
        assert_eq!(plain.text_content(), "plain text");
        assert_eq!(plain.structured_content, None);

        let mut failed = CallToolResult::error("the upstream API answered 404 Not Found");
        failed.structured_content =
            Some(json!({"status": 404, "reason": "Not Found", "body": {"message": "x"}}));
        let before = failed.clone();
        project_result(&mut failed, &fields(&["number"]), false);
        assert_eq!(failed, before);
    }

    #[test]
    fn projections_validate_against_the_loosened_output_schema() {
        let api: crate::OpenApi = json!({
            "openapi": "3.1.0",
            "info": {"title": "t", "version": "1"},
            "paths": {"/issues": {"get": {"operationId": "list", "responses": {"200": {
                "description": "ok",
                "content": {"application/json": {"schema": {
                    "type": "array", "uniqueItems": true, "items": {"$ref": "#/components/schemas/Issue"}
                }}}
            }}}}},
            "components": {"schemas": {
                "Issue": {
                    "type": "object",
                    "properties": {
                        "number": {"type": "integer"},
                        "title": {"type": "string"},
                        "body": {"type": "string"},
                        "user": {"$ref": "#/components/schemas/User"},
                        "labels": {"type": "array", "items": {"oneOf": [
                            {"type": "string"},
                            {"type": "object", "properties": {"name": {"type": "string"}, "id": {"type": "integer"}}, "required": ["name", "id"]}
                        ]}},
                        "assignee": {"anyOf": [{"$ref": "#/components/schemas/User"}, {"type": "null"}]}
                    },
                    "required": ["number", "title", "user", "labels", "assignee"],
                    "additionalProperties": false
                },
                "User": {
                    "type": "object",
                    "properties": {"login": {"type": "string"}, "id": {"type": "integer"}, "site_admin": {"type": "boolean"}},
                    "required": ["login", "id", "site_admin"],
                    "minProperties": 3
                }
            }}
        })
        .to_string()
        .parse()
        .unwrap();
        let generated = api.generator().result_fields(true).generate().unwrap();
        let schema = generated.tools[0].tool.output_schema.as_ref().unwrap();
        let validator =
            jsonschema::validator_for(&Value::Object((*schema.to_arc()).clone())).unwrap();
        let mut first = issue(1);
        first["labels"] = json!(["plain", {"name": "bug", "id": 10}]);
        first["assignee"] = json!({"login": "hubot", "id": 2, "site_admin": true});
        let payload = json!({"result": [first, issue(2)]});
        let mut payload_without_body = payload.clone();
        for item in payload_without_body["result"].as_array_mut().unwrap() {
            item.as_object_mut().unwrap().shift_remove("body");
        }
        assert!(
            validator.is_valid(&payload_without_body),
            "the whole result validates"
        );
        for names in [
            &["number"][..],
            &["title"],
            &["user.login"],
            &["labels.name", "assignee.login"],
            &["nope"],
            &["user.id", "labels"],
        ] {
            let mut result = CallToolResult::structured(payload_without_body.clone());
            project_result(&mut result, &fields(names), true);
            let projected = result.structured_content.unwrap();
            let errors: Vec<String> = validator
                .iter_errors(&projected)
                .map(|e| e.to_string())
                .collect();
            assert!(errors.is_empty(), "{names:?}: {projected} {errors:?}");
        }
    }
}
