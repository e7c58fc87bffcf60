//! Resources, prompts, completion, logging, sampling and elicitation: wire
//! JSON snapshots, each validated against the official 2025-11-25 schema.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use mcp_core::{
    Icon, JsonObject, Metadata,
    client::{
        CreateMessageRequest, CreateMessageResult, ElicitAction, ElicitRequest, ElicitResult,
        LogMessage, LoggingLevel,
    },
    completion::{CompleteResult, Completer, Completion},
    content::{Annotations, Content},
    prompt::{GetPromptResult, PromptArgument, PromptDef, PromptError, PromptMessage, prompt},
    resource::{
        ResourceContents, ResourceDef, ResourceError, ResourceRequest, resource, resource_template,
    },
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

/// Asserts that `value` is a valid `$defs/<def>` of MCP 2025-11-25.
fn assert_valid(def: &str, value: &Value) {
    static VALIDATORS: OnceLock<Mutex<HashMap<String, jsonschema::Validator>>> = OnceLock::new();
    static SPEC: OnceLock<Value> = OnceLock::new();
    let spec = SPEC.get_or_init(|| {
        let path = testdata::mcp_schema("2025-11-25");
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    });
    let mut validators = VALIDATORS.get_or_init(Default::default).lock().unwrap();
    let validator = validators.entry(def.to_owned()).or_insert_with(|| {
        assert!(spec["$defs"].get(def).is_some(), "no $defs/{def}");
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$defs": spec["$defs"],
            "$ref": format!("#/$defs/{def}"),
        });
        jsonschema::draft202012::new(&schema).unwrap()
    });
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "not a valid {def}: {errors:#?}\n{value:#}"
    );
}

fn object(value: Value) -> JsonObject {
    value.as_object().cloned().unwrap()
}

fn full_resource() -> ResourceDef {
    resource("test://static-binary", "static-binary")
        .title("Static binary")
        .description("A 1x1 PNG.")
        .mime_type("image/png")
        .size(3)
        .icon(Icon::png("https://example.com/i.png", &["16x16"]))
        .annotations(Annotations::default())
        .meta("com.example/tier", json!("gold"))
        .read(|| async { vec![1u8, 2, 3] })
        .unwrap()
}

#[test]
fn resources_serialize_to_valid_wire_json() {
    let def = full_resource();
    let wire = serde_json::to_value(def.resource().unwrap()).unwrap();
    assert_valid("Resource", &wire);
    insta::assert_json_snapshot!("resource", wire);

    let read = futures_executor::block_on(def.read_detached("test://static-binary")).unwrap();
    let wire = serde_json::to_value(&read).unwrap();
    assert_valid("ReadResourceResult", &wire);
    assert_eq!(
        wire["contents"][0],
        json!({"uri": "test://static-binary", "mimeType": "image/png", "blob": "AQID"})
    );
}

#[test]
fn templates_match_uris_and_complete_variables() {
    let def: ResourceDef = resource_template("test://template/{id}/data", "template")
        .description("Data by id.")
        .mime_type("application/json")
        .size(99)
        .complete("id", Completer::values(["123", "124", "200"]))
        .read(|req: ResourceRequest| async move {
            match req.variable("id") {
                Some("404") => Err(ResourceError::not_found(req.uri())),
                Some(id) => Ok(format!(r#"{{"id":"{id}","templateTest":true}}"#)),
                None => Err(ResourceError::not_found(req.uri())),
            }
        })
        .unwrap();
    let wire = serde_json::to_value(def.template().unwrap()).unwrap();
    assert_valid("ResourceTemplate", &wire);
    insta::assert_json_snapshot!("resource_template", wire);

    let read = futures_executor::block_on(def.read_detached("test://template/123/data")).unwrap();
    assert_eq!(
        serde_json::to_value(&read).unwrap()["contents"][0]["text"],
        r#"{"id":"123","templateTest":true}"#
    );
    let missing =
        futures_executor::block_on(def.read_detached("test://template/404/data")).unwrap_err();
    assert_eq!(
        missing.to_string(),
        "resource `test://template/404/data` not found"
    );
    assert!(futures_executor::block_on(def.read_detached("test://elsewhere")).is_err());

    let completion = def
        .completer("id")
        .unwrap()
        .complete("12", &JsonObject::new());
    assert_eq!(completion.values, ["123", "124"]);
}

#[test]
fn builder_errors_name_the_problem() {
    let bad = resource_template("test://{id", "x")
        .read::<(), _, _>(|| async { "" })
        .unwrap_err();
    assert_eq!(
        bad.to_string(),
        "invalid URI template `test://{id`: unclosed `{`"
    );
    let bad = resource_template("test://{id}", "x")
        .complete("other", Completer::values(["a"]))
        .read::<(), _, _>(|| async { "" })
        .unwrap_err();
    assert!(bad.to_string().contains("`other`"), "{bad}");
    let bad = resource("test://a", "a")
        .meta("io.modelcontextprotocol/x", json!(1))
        .read::<(), _, _>(|| async { "" })
        .unwrap_err();
    assert!(matches!(bad, ResourceError::Metadata(_)), "{bad}");
    let bad: Result<PromptDef, _> = prompt("p")
        .complete("nope", Completer::values(["a"]))
        .run(|| async { "" });
    assert!(matches!(bad, Err(PromptError::UnknownArgument { .. })));
}

#[derive(Deserialize, JsonSchema)]
struct Args {
    /// First test argument.
    arg1: String,
    /// Second test argument.
    arg2: Option<String>,
}

#[test]
fn prompts_with_typed_arguments() {
    let brand = Metadata::new()
        .title("Brand")
        .meta("com.example/team", json!("docs"));
    let def: PromptDef = prompt("test_prompt_with_arguments")
        .metadata(&brand)
        .description("A prompt with arguments.")
        .arguments::<Args>()
        .complete("arg1", Completer::values(["paris", "park", "party"]))
        .run(|args: Args| async move {
            format!(
                "Prompt with arguments: arg1='{}', arg2='{}'",
                args.arg1,
                args.arg2.unwrap_or_default()
            )
        })
        .unwrap();
    let wire = serde_json::to_value(def.prompt()).unwrap();
    assert_valid("Prompt", &wire);
    insta::assert_json_snapshot!("prompt_with_arguments", wire);

    let result = futures_executor::block_on(
        def.get_detached(object(json!({"arg1": "hello", "arg2": "world"}))),
    )
    .unwrap();
    let wire = serde_json::to_value(&result).unwrap();
    assert_valid("GetPromptResult", &wire);
    assert_eq!(
        wire["messages"][0]["content"]["text"],
        "Prompt with arguments: arg1='hello', arg2='world'"
    );

    let missing = futures_executor::block_on(def.get_detached(JsonObject::new())).unwrap_err();
    assert_eq!(
        missing.to_string(),
        "prompt `test_prompt_with_arguments`: missing required argument `arg1`"
    );
    let wrong =
        futures_executor::block_on(def.get_detached(object(json!({"arg1": 5})))).unwrap_err();
    assert!(wrong.to_string().contains("`arg1`"), "{wrong}");

    let completion = def
        .completer("arg1")
        .unwrap()
        .complete("par", &JsonObject::new());
    let wire = serde_json::to_value(CompleteResult::new(completion)).unwrap();
    assert_valid("CompleteResult", &wire);
    assert_eq!(
        wire,
        json!({"completion": {"values": ["paris", "park", "party"]}})
    );
}

#[test]
fn prompts_with_raw_arguments_and_rich_messages() {
    let def: PromptDef = prompt("test_prompt_with_embedded_resource")
        .description("Embeds a resource.")
        .argument(
            PromptArgument::new("resourceUri")
                .description("URI of the resource to embed")
                .required(true),
        )
        .run(|args: JsonObject| async move {
            let uri = args
                .get("resourceUri")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            GetPromptResult::new(vec![
                PromptMessage::user(Content::resource(ResourceContents::text(
                    uri,
                    Some("text/plain".into()),
                    "Embedded resource content for testing.",
                ))),
                PromptMessage::user(Content::image("iVBORw0KGgo=", "image/png")),
                PromptMessage::user_text("Please process the embedded resource above."),
            ])
            .description("An embedded resource.")
        })
        .unwrap();
    let result = futures_executor::block_on(
        def.get_detached(object(json!({"resourceUri": "test://example-resource"}))),
    )
    .unwrap();
    let wire = serde_json::to_value(&result).unwrap();
    assert_valid("GetPromptResult", &wire);
    insta::assert_json_snapshot!("prompt_embedded_resource_result", wire);

    let failing: PromptDef = prompt("failing")
        .run(|| async { Err::<String, _>("no luck") })
        .unwrap();
    let error = futures_executor::block_on(failing.get_detached(JsonObject::new())).unwrap_err();
    assert_eq!(error.to_string(), "prompt `failing` failed: no luck");
}

#[test]
fn client_requests_and_notifications_are_valid() {
    let log = serde_json::to_value(
        LogMessage::new(LoggingLevel::Warning, json!({"disk": "full"})).logger("fs"),
    )
    .unwrap();
    assert_valid("LoggingMessageNotificationParams", &log);
    for level in LoggingLevel::ALL {
        assert_valid("LoggingLevel", &serde_json::to_value(level).unwrap());
        assert_eq!(level.as_str().parse::<LoggingLevel>().unwrap(), level);
    }
    assert!("loud".parse::<LoggingLevel>().is_err());

    let sampling =
        serde_json::to_value(CreateMessageRequest::text("Test prompt", 100).temperature(0.5))
            .unwrap();
    assert_valid("CreateMessageRequestParams", &sampling);
    insta::assert_json_snapshot!("create_message_request", sampling);

    let answer: CreateMessageResult = serde_json::from_value(json!({
        "role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "m", "stopReason": "endTurn"
    }))
    .unwrap();
    assert_valid(
        "CreateMessageResult",
        &serde_json::to_value(&answer).unwrap(),
    );
    assert_eq!(answer.text(), "hi");

    let elicit = ElicitRequest::new(
        "Please review",
        json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "default": "John Doe"},
                "age": {"type": "integer", "default": 30},
                "status": {"type": "string", "enum": ["active", "inactive"], "default": "active"},
                "titled": {"type": "string", "oneOf": [{"const": "v1", "title": "First"}]},
                "multi": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}},
                "legacy": {"type": "string", "enum": ["o1"], "enumNames": ["Option one"]}
            },
            "required": ["name"]
        }),
    )
    .unwrap();
    let wire = serde_json::to_value(&elicit).unwrap();
    assert_valid("ElicitRequestFormParams", &wire);
    insta::assert_json_snapshot!("elicit_request", wire);
    assert!(ElicitRequest::new("x", json!([])).is_err());
    assert!(ElicitRequest::new("x", json!({"type": "string"})).is_err());

    let result = ElicitResult::new(ElicitAction::Accept, Some(object(json!({"name": "Jane"}))));
    assert_valid("ElicitResult", &serde_json::to_value(&result).unwrap());
    assert_eq!(Completion::from_values(["a"]).values, ["a"]);
}
