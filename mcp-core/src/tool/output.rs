//! The output of a tool: how a handler's return value becomes a
//! [`CallToolResult`], with or without a declared structured output.

use std::fmt::Display;

use serde::Serialize;
use serde_json::Value;

use crate::json::JsonObject;
use crate::tool::result::{CallToolResult, IntoCallToolResult, error_result};

/// The structured output of a tool.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's structured output",
    note = "derive `serde::Serialize` and `schemars::JsonSchema` for it"
)]
pub trait ToolOutput: Serialize + schemars::JsonSchema + Send + 'static {}

impl<T: Serialize + schemars::JsonSchema + Send + 'static> ToolOutput for T {}

/// The output marker of a tool without a declared output schema: its handler
/// returns anything [`IntoCallToolResult`].
#[derive(Debug, Clone, Copy)]
pub enum Unstructured {}

/// How a handler's return value becomes a result, given the tool's declared
/// output `Out`.
///
/// With `.output::<T>()`, a handler returns `T` or `Result<T, E: Display>`:
/// `T` becomes `structuredContent` plus a text block with the same JSON. With
/// no declared output, it returns anything [`IntoCallToolResult`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a result of a tool whose output is `{Out}`",
    note = "a tool declared with `.output::<T>()` returns `T` or `Result<T, E>` with `E: Display`"
)]
pub trait IntoToolResult<Out> {
    /// Converts the value; `wrapped` says whether the output schema wraps the
    /// value as `{"result": ...}`.
    fn into_tool_result(self, wrapped: bool) -> CallToolResult;
}

impl<R: IntoCallToolResult> IntoToolResult<Unstructured> for R {
    fn into_tool_result(self, _wrapped: bool) -> CallToolResult {
        self.into_call_tool_result()
    }
}

impl<T: Serialize> IntoToolResult<T> for T {
    fn into_tool_result(self, wrapped: bool) -> CallToolResult {
        structured(&self, wrapped)
    }
}

impl<T: Serialize, E: Display + 'static> IntoToolResult<T> for Result<T, E> {
    fn into_tool_result(self, wrapped: bool) -> CallToolResult {
        match self {
            Ok(value) => structured(&value, wrapped),
            Err(error) => error_result(error),
        }
    }
}

fn structured<T: Serialize>(value: &T, wrapped: bool) -> CallToolResult {
    match serde_json::to_value(value) {
        Ok(value) if wrapped => {
            let mut object = JsonObject::new();
            object.insert("result".to_owned(), value);
            CallToolResult::structured(Value::Object(object))
        }
        Ok(value) => CallToolResult::structured(value),
        Err(error) => CallToolResult::error(format!(
            "the tool's output could not be serialized: {error}"
        )),
    }
}
