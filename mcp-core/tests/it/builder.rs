//! The fluent builder: metadata, typed input and output, errors.

use std::sync::Arc;

use mcp_core::{
    Hint, Metadata, RequestScope, Tool, ToolAnnotations, ToolCallContext, ToolDef, ToolError, tool,
    tool::CallToolRequest,
};
use serde_json::{Value, json};
use testdata::tools::{BRAND, DeleteRequest, delete_user, every_kind_of_tool};

/// The tools this file builds, for the spec-schema test.
pub(crate) fn every_tool_the_suite_builds() -> Vec<Tool> {
    let middleware = crate::middleware_order::onion_tool().tool().clone();
    every_kind_of_tool()
        .iter()
        .map(|def| def.tool().clone())
        .chain([middleware])
        .collect()
}

fn block_on<F: std::future::Future>(f: F) -> F::Output {
    futures_executor::block_on(f)
}

#[test]
fn typed_input_and_output_give_structured_content() {
    let result = block_on(delete_user().call_detached(json!({"id": "7", "purge": true})));
    assert!(!result.is_error());
    assert_eq!(
        result.structured_content,
        Some(json!({"ok": true, "purged": true}))
    );
    assert_eq!(result.text_content(), r#"{"ok":true,"purged":true}"#);
}

#[test]
fn a_handler_error_is_an_error_result_with_its_message() {
    let result = block_on(delete_user().call_detached(json!({"id": "404"})));
    assert!(result.is_error());
    assert_eq!(result.text_content(), "user 404 does not exist");
    assert_eq!(result.structured_content, None);
}

#[test]
fn argument_mismatches_list_every_violation_by_pointer() {
    let cases = [
        (
            json!({}),
            "invalid arguments for tool `delete_user`:\n(root): \"id\" is a required property",
        ),
        (
            json!({"id": 7, "purge": "yes"}),
            "invalid arguments for tool `delete_user`:\n/id: 7 is not of type \"string\"\n/purge: \"yes\" is not of type \"boolean\"",
        ),
        (
            json!({"id": "7", "prge": true}),
            "invalid arguments for tool `delete_user`:\n/prge: unknown argument `prge`; did you mean `purge`?",
        ),
        (json!([1]), "tool arguments must be a JSON object"),
    ];
    for (arguments, expected) in cases {
        let result = block_on(delete_user().call_detached(arguments.clone()));
        assert!(result.is_error(), "{arguments}");
        assert!(
            result.text_content().contains(expected),
            "{arguments}: {}",
            result.text_content()
        );
    }
}

#[test]
fn a_tool_may_let_unknown_arguments_through() {
    let lenient: ToolDef = tool("delete_user")
        .input::<DeleteRequest>()
        .allow_unknown_arguments()
        .run(|request: DeleteRequest| async move { request.id })
        .unwrap();
    let result = block_on(lenient.call_detached(json!({"id": "7", "reason": "spam"})));
    assert!(!result.is_error(), "{}", result.text_content());
    assert_eq!(result.text_content(), "7");
}

#[test]
fn an_optional_argument_sent_as_null_counts_as_left_out() {
    let result = block_on(delete_user().call_detached(json!({"id": "7", "purge": null})));
    assert!(!result.is_error(), "{}", result.text_content());
}

#[test]
fn the_full_builder_chain_serializes_to_the_spec_json() {
    insta::assert_json_snapshot!("delete_user_tool", delete_user().tool());
}

#[test]
fn non_object_outputs_are_wrapped_and_marked() {
    let count: ToolDef = tool("count")
        .output::<Vec<u32>>()
        .run(|| async { vec![1, 2] })
        .unwrap();
    assert_eq!(
        count
            .tool()
            .meta
            .get(mcp_core::meta::WRAPPED_OUTPUT_META_KEY),
        Some(&Value::Bool(true))
    );
    let result = block_on(count.call_detached(Value::Null));
    assert_eq!(result.structured_content, Some(json!({"result": [1, 2]})));
    let schema = count.tool().output_schema.as_deref().unwrap();
    assert_eq!(schema["properties"]["result"]["type"], "array");
}

#[test]
fn bad_names_and_meta_keys_are_reported_by_run() {
    let err = tool("delete user")
        .run(|| async { "" })
        .map(|_: ToolDef| ())
        .unwrap_err();
    assert!(matches!(err, ToolError::InvalidName { .. }));
    assert!(err.to_string().contains("' ' at position 6"), "{err}");

    let err = tool("x")
        .meta("io.modelcontextprotocol/x", json!(1))
        .run(|| async { "" })
        .map(|_: ToolDef| ())
        .unwrap_err();
    assert!(
        err.to_string().contains("`io.modelcontextprotocol/x`"),
        "{err}"
    );

    let err = tool("x").meta("dev.mcp/x", json!(1)).build().unwrap_err();
    assert!(matches!(err, ToolError::ReservedMetaKey { .. }));

    let mut meta = mcp_core::JsonObject::new();
    meta.insert("com.example/ok".into(), json!(1));
    meta.insert("bad key/x".into(), json!(1));
    let err = tool("x").meta_object(meta).build().unwrap_err();
    assert!(err.to_string().contains("`bad key/x`"), "{err}");

    let err = tool(String::new()).build().unwrap_err();
    assert!(err.to_string().contains("empty"), "{err}");
}

#[test]
fn non_object_input_types_and_schemas_are_refused() {
    let err = tool("sum")
        .input::<Vec<i64>>()
        .run(|v: Vec<i64>| async move { v.len().to_string() });
    let err = err.map(|_: ToolDef| ()).unwrap_err().to_string();
    assert!(
        err.starts_with(
            "tool `sum`: the input schema of `Array_of_int64` does not describe an object"
        ),
        "{err}"
    );

    let schema = serde_json::from_value(json!({"type": "string"})).unwrap();
    let err = tool("s")
        .input_schema(schema)
        .build()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("must be a JSON object") || err.contains("\"type\": \"string\""),
        "{err}"
    );
}

#[test]
fn metadata_bundle_is_last_write_wins() {
    let before = tool("b")
        .title("Mine")
        .meta("com.example/mine", json!(1))
        .metadata(&BRAND)
        .build()
        .unwrap();
    assert_eq!(before.title.as_deref(), Some("Brand title"));
    assert_eq!(before.meta.get("com.example/mine"), None);
    assert_eq!(
        before.meta.get("com.example.acme/team"),
        Some(&json!("platform"))
    );

    let after = tool("b")
        .metadata(&BRAND)
        .title("Mine")
        .icons([])
        .build()
        .unwrap();
    assert_eq!(after.title.as_deref(), Some("Mine"));
    assert!(after.icons.is_empty());
    assert_eq!(
        after.meta.get("com.example.acme/team"),
        Some(&json!("platform"))
    );

    let broken = Metadata::new().meta("mcp.dev/x", json!(1));
    assert!(matches!(
        tool("b").metadata(&broken).build(),
        Err(ToolError::ReservedMetaKey { .. })
    ));
}

#[test]
fn annotation_calls_accumulate_with_combine() {
    let t = tool("a")
        .annotations(Hint::Read)
        .annotations(ToolAnnotations::destroy())
        .build()
        .unwrap();
    assert_eq!(t.annotations, Some(ToolAnnotations::destroy()));
}

#[test]
fn handlers_may_take_the_call_context() {
    #[derive(Default)]
    struct Session {
        user: &'static str,
    }
    let whoami: ToolDef<Session> = tool("whoami")
        .run(
            |_: mcp_core::JsonObject, cx: ToolCallContext<Session>| async move {
                format!(
                    "{} via {} in {:?}",
                    cx.ctx().user,
                    cx.tool().name,
                    cx.scope().session()
                )
            },
        )
        .unwrap();
    let request = CallToolRequest::new("whoami", None);
    let cx = whoami
        .context(request, Arc::new(Session { user: "ada" }))
        .in_scope(RequestScope::new().session_id("s-1"));
    let result = block_on(whoami.call(cx));
    assert_eq!(result.text_content(), "ada via whoami in Some(\"s-1\")");
}

#[test]
fn raw_arguments_reach_a_handler_without_typed_input() {
    let echo: ToolDef = tool("echo")
        .run(|args: mcp_core::JsonObject| async move { Value::Object(args).to_string() })
        .unwrap();
    assert_eq!(
        echo.tool().input_schema.as_ref(),
        json!({"type": "object"}).as_object().unwrap()
    );
    let result = block_on(echo.call_detached(json!({"x": [1, "a"]})));
    assert_eq!(result.text_content(), r#"{"x":[1,"a"]}"#);
}

#[test]
fn rename_and_map_tool_keep_the_name_rule() {
    let renamed = delete_user().rename("acme_delete_user").unwrap();
    assert_eq!(renamed.name(), "acme_delete_user");
    assert!(delete_user().rename("a b").is_err());
    let mapped = delete_user().map_tool(|t| {
        t.name = "ignored".into();
        t.description = Some("changed".into());
    });
    assert_eq!(mapped.name(), "delete_user");
    assert_eq!(mapped.tool().description.as_deref(), Some("changed"));
}
