//! A tool function generic over its argument type: the parameter markers
//! carry the function's generics.

use futures_executor::block_on;
use serde::de::DeserializeOwned;
use serde_json::json;

#[mcp_core::tool]
async fn echo<T>(value: T, times: u8) -> String
where
    T: DeserializeOwned + schemars::JsonSchema + std::fmt::Display + Send + 'static,
{
    (0..times).map(|_| value.to_string()).collect()
}

fn main() {
    let def = echo_tool::<u32>().unwrap();
    let result = block_on(def.call_detached(json!({"value": 7, "times": 2})));
    assert_eq!(result.text_content(), "77");
}
