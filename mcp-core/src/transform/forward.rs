//! Calling the original tool from a transformed one.

use std::fmt;
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use crate::future::BoxFuture;
use crate::json::JsonObject;
use crate::schema::json_kind;
use crate::tool::context::ToolCallContext;
use crate::tool::def::ToolDef;
use crate::tool::result::CallToolResult;
use crate::tool::value::Tool;
use crate::transform::plan::ArgPlan;

/// The way from a transformed tool to its original: what a
/// [`wrap`](crate::transform::ToolTransform::wrap) function gets next to
/// its arguments.
///
/// [`call`](Self::call) takes arguments under the transformed tool's names,
/// checks them against its input schema, maps them to the original names,
/// adds hidden values, and calls the original tool through its own
/// middleware and handler, which validate them again. It may be called any
/// number of times.
pub struct Forward<C = ()> {
    pub(crate) original: ToolDef<C>,
    pub(crate) plan: Arc<ArgPlan<C>>,
    pub(crate) cx: ToolCallContext<C>,
}

impl<C: Send + Sync + 'static> Forward<C> {
    /// The call being served (the transformed tool's request, its session
    /// and per-session context). Its arguments have been taken out.
    pub fn context(&self) -> &ToolCallContext<C> {
        &self.cx
    }

    /// The original tool's protocol value.
    pub fn original(&self) -> &Tool {
        self.original.tool()
    }

    /// Calls the original tool with `arguments`, named as the transformed
    /// tool names them (any value serializing to a JSON object, or `null`
    /// for none). Missing arguments with a default get it; arguments that
    /// break the transformed input schema give an error result naming them.
    pub fn call(&self, arguments: impl Serialize) -> BoxFuture<'static, CallToolResult> {
        let mut arguments = match serde_json::to_value(arguments) {
            Ok(Value::Object(arguments)) => arguments,
            Ok(Value::Null) => JsonObject::new(),
            Ok(other) => {
                return error(format!(
                    "tool `{}`: forwarded arguments must be a JSON object, found {}",
                    self.plan.tool,
                    json_kind(&other)
                ));
            }
            Err(reason) => {
                return error(format!(
                    "tool `{}`: the forwarded arguments cannot be serialized: {reason}",
                    self.plan.tool
                ));
            }
        };
        self.plan.fill_defaults(&mut arguments);
        if let Err(message) = self.plan.validate(&arguments) {
            return error(message);
        }
        self.send(arguments)
    }

    /// Calls the original tool with `arguments` already checked against
    /// the transformed input schema.
    pub(crate) fn send(&self, arguments: JsonObject) -> BoxFuture<'static, CallToolResult> {
        match self.plan.to_original(arguments, &self.cx) {
            Ok(arguments) => {
                let tool = self.original.tool_arc().clone();
                self.original.call(self.cx.for_tool(tool, arguments))
            }
            Err(message) => error(message),
        }
    }
}

fn error(message: String) -> BoxFuture<'static, CallToolResult> {
    Box::pin(std::future::ready(CallToolResult::error(message)))
}

impl<C: Send + Sync + 'static> fmt::Debug for Forward<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Forward")
            .field("original", &self.original.tool().name)
            .field("call", &self.cx)
            .finish_non_exhaustive()
    }
}
