//! Middleware: code that wraps every call of a tool.
//!
//! A [`ToolMiddleware`] gets the call context and a [`Next`] to pass it on;
//! it may read or rewrite the request, short-circuit with its own result, or
//! decorate the result on the way back.
//!
//! # Order
//!
//! Layers form one onion around the handler. Server-wide layers wrap per-tool
//! layers, and within each level the first registered is the outermost: with
//! server layers `a`, `b` and tool layers `c`, `d`, a request flows
//! `a → b → c → d → handler` and the result flows back
//! `handler → d → c → b → a`.
//!
//! ```
//! use mcp_core::tool::middleware;
//! use mcp_core::{tool, CallToolResult, ToolDef};
//!
//! let audited: ToolDef = tool("ping")
//!     .run(|| async { "pong" })
//!     .unwrap()
//!     .layer(middleware::from_fn(|cx, next| async move {
//!         let name = cx.request().name.clone();
//!         let mut result = next.run(cx).await;
//!         result.meta.insert("com.example.audit/tool", name.into()).unwrap();
//!         result
//!     }));
//! let result = futures_executor::block_on(audited.call_detached(serde_json::json!({})));
//! assert_eq!(result.meta.get("com.example.audit/tool").unwrap(), "ping");
//! ```

use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::sync::Arc;

use crate::future::BoxFuture;
use crate::tool::context::ToolCallContext;
use crate::tool::handler::ToolHandler;
use crate::tool::result::CallToolResult;

/// Code that wraps a tool call; see the [module docs](self) for the order.
pub trait ToolMiddleware<C = ()>: Send + Sync + 'static {
    /// Handles the call, usually by passing it on with `next.run(cx)`.
    fn call<'a>(&'a self, cx: ToolCallContext<C>, next: Next<C>) -> BoxFuture<'a, CallToolResult>;
}

/// A shared middleware layer.
pub type Layer<C = ()> = Arc<dyn ToolMiddleware<C>>;

/// The rest of the onion: the inner layers and the handler.
pub struct Next<C = ()> {
    outer: Arc<[Layer<C>]>,
    inner: Arc<[Layer<C>]>,
    position: usize,
    handler: Arc<dyn ToolHandler<C>>,
}

impl<C: Send + Sync + 'static> Next<C> {
    pub(crate) fn new(
        outer: Arc<[Layer<C>]>,
        inner: Arc<[Layer<C>]>,
        handler: Arc<dyn ToolHandler<C>>,
    ) -> Self {
        Self {
            outer,
            inner,
            position: 0,
            handler,
        }
    }

    /// Passes the call to the next layer, or to the handler after the last.
    pub fn run(mut self, cx: ToolCallContext<C>) -> BoxFuture<'static, CallToolResult> {
        let layer = match self.position.checked_sub(self.outer.len()) {
            None => self.outer.get(self.position).cloned(),
            Some(inner_position) => self.inner.get(inner_position).cloned(),
        };
        match layer {
            Some(layer) => {
                self.position += 1;
                Box::pin(async move { layer.call(cx, self).await })
            }
            None => self.handler.call(cx),
        }
    }
}

impl<C> fmt::Debug for Next<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Next")
            .field(
                "remaining_layers",
                &(self.outer.len() + self.inner.len()).saturating_sub(self.position),
            )
            .finish_non_exhaustive()
    }
}

/// A middleware from an async function of the call context and [`Next`].
///
/// ```
/// use mcp_core::tool::middleware;
/// use mcp_core::CallToolResult;
///
/// let deny_all = middleware::from_fn(|_cx: mcp_core::ToolCallContext, _next| async {
///     CallToolResult::error("tools are disabled")
/// });
/// # let _ = deny_all;
/// ```
pub fn from_fn<C, F, Fut>(f: F) -> FromFn<F, C>
where
    F: Fn(ToolCallContext<C>, Next<C>) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = CallToolResult> + Send + 'static,
{
    FromFn {
        f,
        context: PhantomData,
    }
}

/// A middleware made by [`from_fn`].
pub struct FromFn<F, C> {
    f: F,
    context: PhantomData<fn(C)>,
}

impl<F: Clone, C> Clone for FromFn<F, C> {
    fn clone(&self) -> Self {
        Self {
            f: self.f.clone(),
            context: PhantomData,
        }
    }
}

impl<F, C> fmt::Debug for FromFn<F, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("FromFn")
    }
}

impl<F, Fut, C> ToolMiddleware<C> for FromFn<F, C>
where
    F: Fn(ToolCallContext<C>, Next<C>) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = CallToolResult> + Send + 'static,
    C: Send + Sync + 'static,
{
    fn call<'a>(&'a self, cx: ToolCallContext<C>, next: Next<C>) -> BoxFuture<'a, CallToolResult> {
        Box::pin((self.f)(cx, next))
    }
}
