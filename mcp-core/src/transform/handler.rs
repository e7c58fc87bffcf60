//! The handler of a transformed tool: check the new arguments, then wrap or
//! forward, then trim the result.

use std::sync::Arc;

use crate::future::BoxFuture;
use crate::tool::context::ToolCallContext;
use crate::tool::def::ToolDef;
use crate::tool::handler::ToolHandler;
use crate::tool::result::CallToolResult;
use crate::transform::forward::Forward;
use crate::transform::keep::Keep;
use crate::transform::plan::ArgPlan;
use crate::transform::wrap::Wrap;

/// Serves a transformed tool by way of the original.
pub(crate) struct TransformHandler<C> {
    pub(crate) original: ToolDef<C>,
    pub(crate) plan: Arc<ArgPlan<C>>,
    pub(crate) wrap: Option<Arc<dyn Wrap<C>>>,
    pub(crate) keep: Option<Arc<Keep>>,
}

impl<C: Send + Sync + 'static> ToolHandler<C> for TransformHandler<C> {
    fn call(&self, mut cx: ToolCallContext<C>) -> BoxFuture<'static, CallToolResult> {
        let mut arguments = cx.take_arguments().unwrap_or_default();
        self.plan.fill_defaults(&mut arguments);
        if let Err(message) = self.plan.validate(&arguments) {
            return Box::pin(std::future::ready(CallToolResult::error(message)));
        }
        let forward = Forward {
            original: self.original.clone(),
            plan: self.plan.clone(),
            cx,
        };
        let result = match &self.wrap {
            Some(wrap) => wrap.call(arguments, forward),
            None => forward.send(arguments),
        };
        match self.keep.clone() {
            None => result,
            Some(keep) => Box::pin(async move {
                let mut result = result.await;
                keep.result(&mut result);
                result
            }),
        }
    }
}
