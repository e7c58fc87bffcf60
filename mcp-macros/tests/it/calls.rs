//! Generated tools called through `ToolDef` with good and bad arguments.

use futures_executor::block_on;
use mcp_core::ToolDef;
use serde_json::json;

use crate::parity::{add_tool, delete_user_tool};

#[test]
fn struct_argument_good_and_bad() {
    let def = delete_user_tool().unwrap();
    let ok = block_on(def.call_detached(json!({"id": "7"})));
    assert_eq!(ok.structured_content, Some(json!({"ok": true})));
    let err = block_on(def.call_detached(json!({"id": "missing"})));
    assert!(err.is_error());
    assert_eq!(err.text_content(), "no such user");
    let bad = block_on(def.call_detached(json!({"id": 7})));
    assert!(bad.is_error());
    assert_eq!(
        bad.text_content(),
        "invalid arguments for tool `delete_user`:\n/id: 7 is not of type \"string\""
    );
}

#[test]
fn plain_arguments_good_and_bad() {
    let def = add_tool().unwrap();
    let ok = block_on(def.call_detached(json!({"a": 1, "b": 2})));
    assert_eq!(ok.structured_content, Some(json!({"result": 3})));
    let optional = block_on(def.call_detached(json!({"a": 1})));
    assert_eq!(optional.structured_content, Some(json!({"result": 1})));
    let missing = block_on(def.call_detached(json!({"b": 1})));
    assert!(missing.is_error());
    assert_eq!(
        missing.text_content(),
        "invalid arguments for tool `everything.add`:\n(root): \"a\" is a required property"
    );
    let wrong = block_on(def.call_detached(json!({"a": "one", "b": null, "c": 3})));
    assert!(wrong.is_error());
    assert_eq!(
        wrong.text_content(),
        "invalid arguments for tool `everything.add`:\n\
         /a: \"one\" is not of type \"integer\"\n\
         /c: unknown argument `c`; the tool takes `a`, `b`"
    );
}

/// Shouts.
#[mcp_core::tool]
async fn shout(text: String) -> String {
    text.to_uppercase()
}

#[test]
fn a_single_plain_argument_is_a_property() {
    let def = shout_tool().unwrap();
    insta::assert_json_snapshot!("shout_input_schema", def.tool().input_schema);
    assert!(def.tool().output_schema.is_none());
    assert_eq!(
        block_on(def.call_detached(json!({"text": "hi"}))).text_content(),
        "HI"
    );
    let bad = block_on(def.call_detached(json!({"txt": "hi"})));
    assert!(bad.is_error());
    assert_eq!(
        bad.text_content(),
        "invalid arguments for tool `shout`:\n\
         (root): \"text\" is a required property\n\
         /txt: unknown argument `txt`; did you mean `text`?"
    );
    assert_eq!(block_on(shout("a".to_owned())), "A");
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct AddArgs {
    a: i64,
    b: Option<i64>,
}

#[test]
fn argument_errors_read_as_the_builder_twin_s() {
    let macro_tool = add_tool().unwrap();
    let builder_tool: ToolDef = mcp_core::tool("everything.add")
        .input::<AddArgs>()
        .output::<i64>()
        .run(|args: AddArgs| crate::parity::add(args.a, args.b))
        .unwrap();
    for arguments in [
        json!({}),
        json!({"a": "x"}),
        json!({"a": 1, "b": [2]}),
        json!({"a": 1.5}),
        json!({"a": 1, "b": 2}),
    ] {
        let from_macro = block_on(macro_tool.call_detached(arguments.clone()));
        let from_builder = block_on(builder_tool.call_detached(arguments.clone()));
        assert_eq!(
            from_macro.is_error(),
            from_builder.is_error(),
            "{arguments}"
        );
        assert_eq!(
            from_macro.text_content(),
            from_builder.text_content(),
            "{arguments}"
        );
    }
}

/// Counts its arguments, known or not.
#[mcp_core::tool(allow_unknown_arguments)]
async fn lenient(text: Option<String>) -> String {
    text.unwrap_or_default()
}

#[test]
fn allow_unknown_arguments_lets_extra_arguments_through() {
    let def = lenient_tool().unwrap();
    let result = block_on(def.call_detached(json!({"text": "hi", "mood": "calm"})));
    assert!(!result.is_error(), "{}", result.text_content());
    assert_eq!(result.text_content(), "hi");
    let strict = shout_tool().unwrap();
    let refused = block_on(strict.call_detached(json!({"text": "hi", "mood": "calm"})));
    assert!(refused.is_error());
}
