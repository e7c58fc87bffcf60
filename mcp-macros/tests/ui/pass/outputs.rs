//! Every output form: plain text, structured values, results and nothing.

use futures_executor::block_on;
use mcp_core::{CallToolResult, content::Content};
use serde_json::json;

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Sum {
    total: i64,
}

type Res<T> = Result<T, std::io::Error>;

#[mcp_core::tool]
async fn text(name: String) -> String {
    format!("hello {name}")
}

#[mcp_core::tool]
async fn text_or_error(fail: bool) -> Result<String, std::fmt::Error> {
    if fail { Err(std::fmt::Error) } else { Ok("fine".to_owned()) }
}

#[mcp_core::tool]
async fn structured(a: i64, b: i64) -> Sum {
    Sum { total: a + b }
}

#[mcp_core::tool]
async fn structured_result(a: i64) -> Res<Sum> {
    Ok(Sum { total: a })
}

#[mcp_core::tool]
async fn nothing() {}

#[mcp_core::tool]
async fn raw() -> CallToolResult {
    CallToolResult::success(vec![Content::text("raw")])
}

fn main() {
    let def = text_tool().unwrap();
    assert!(def.tool().output_schema.is_none());
    let result = block_on(def.call_detached(json!({"name": "x"})));
    assert_eq!(result.text_content(), "hello x");

    let def = text_or_error_tool().unwrap();
    assert!(def.tool().output_schema.is_none());
    assert!(block_on(def.call_detached(json!({"fail": true}))).is_error());
    assert_eq!(block_on(def.call_detached(json!({"fail": false}))).text_content(), "fine");

    let def = structured_tool().unwrap();
    assert!(def.tool().output_schema.is_some());
    let result = block_on(def.call_detached(json!({"a": 1, "b": 2})));
    assert_eq!(result.structured_content, Some(json!({"total": 3})));

    let def = structured_result_tool().unwrap();
    assert!(def.tool().output_schema.is_some());
    let result = block_on(def.call_detached(json!({"a": 4})));
    assert_eq!(result.structured_content, Some(json!({"total": 4})));

    let def = nothing_tool().unwrap();
    assert_eq!(serde_json::to_value(&def.tool().input_schema).unwrap(), json!({"type": "object"}));
    assert!(!block_on(def.call_detached(json!({}))).is_error());

    let def = raw_tool().unwrap();
    assert_eq!(block_on(def.call_detached(json!({}))).text_content(), "raw");
}
