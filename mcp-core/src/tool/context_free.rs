//! A tool whose code needs no per-session context, so that a server of any
//! context type can host it.

use std::any::Any;
use std::ops::Deref;
use std::sync::Arc;

use crate::error::ToolError;
use crate::future::BoxFuture;
use crate::tool::context::ToolCallContext;
use crate::tool::def::ToolDef;
use crate::tool::handler::ToolHandler;
use crate::tool::middleware::ToolMiddleware;
use crate::tool::result::CallToolResult;
use crate::tool::value::Tool;

/// A tool whose code takes no per-session context: what `#[tool]` makes of
/// a function that names none (no `&T`, no `ToolCallContext<T>`). It needs
/// no type annotation, and a server of any context type `C` takes it: it
/// becomes a [`ToolDef<C>`] there (`From`), so `.tool(add_tool()?)` works
/// on every `ServerBuilder<C>`.
///
/// It reads as the [`ToolDef`] it wraps (`Deref`): [`name`](ToolDef::name),
/// [`tool`](ToolDef::tool), [`call_detached`](ToolDef::call_detached), ...
///
/// ```
/// use mcp_core::{ToolDef, tool::ContextFreeToolDef};
///
/// /// Adds two numbers.
/// #[mcp_core::tool]
/// async fn add(a: i64, b: i64) -> i64 {
///     a + b
/// }
///
/// let def = add_tool()?;
/// assert_eq!(def.name(), "add");
/// let result = futures_executor::block_on(def.call_detached(serde_json::json!({"a": 1, "b": 2})));
/// assert_eq!(result.structured_content, Some(serde_json::json!({"result": 3})));
///
/// // In a server whose sessions carry a `String`:
/// let hosted: ToolDef<String> = def.into();
/// assert_eq!(hosted.name(), "add");
/// # Ok::<(), mcp_core::ToolError>(())
/// ```
#[derive(Clone, Debug)]
pub struct ContextFreeToolDef(ToolDef);

impl ContextFreeToolDef {
    /// The [`ToolDef`] it wraps.
    pub fn into_inner(self) -> ToolDef {
        self.0
    }

    /// This tool in a server whose sessions carry a `C`, with `middleware`
    /// (typed for that context) as its outermost layer.
    pub fn layer<C: Send + Sync + 'static>(self, middleware: impl ToolMiddleware<C>) -> ToolDef<C> {
        ToolDef::from(self).layer(middleware)
    }

    /// Renames the tool (see [`ToolDef::rename`]).
    pub fn rename(self, name: impl Into<String>) -> Result<Self, ToolError> {
        self.0.rename(name).map(Self)
    }

    /// Changes the protocol value's descriptive fields (see
    /// [`ToolDef::map_tool`]).
    pub fn map_tool(self, change: impl FnOnce(&mut Tool)) -> Self {
        Self(self.0.map_tool(change))
    }

    /// Puts the tool in the toolsets `names` too (see
    /// [`ToolDef::in_toolsets`]).
    pub fn in_toolsets(self, names: impl IntoIterator<Item = impl Into<String>>) -> Self {
        Self(self.0.in_toolsets(names))
    }

    /// Adds OAuth scopes a call of the tool needs (see
    /// [`ToolDef::require_scopes`]).
    pub fn require_scopes(self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        Self(self.0.require_scopes(scopes))
    }

    /// Bounds the bytes of this tool's results a server sends (see
    /// [`ToolDef::max_result_bytes`]).
    pub fn max_result_bytes(self, bytes: usize) -> Self {
        Self(self.0.max_result_bytes(bytes))
    }
}

impl Deref for ContextFreeToolDef {
    type Target = ToolDef;

    fn deref(&self) -> &ToolDef {
        &self.0
    }
}

/// Any tool of a server without context needs none.
impl From<ToolDef> for ContextFreeToolDef {
    fn from(def: ToolDef) -> Self {
        Self(def)
    }
}

impl<C: Send + Sync + 'static> From<ContextFreeToolDef> for ToolDef<C> {
    fn from(free: ContextFreeToolDef) -> Self {
        // A server without context hosts the tool as it is.
        let mut unit = Some(free.0.clone());
        if let Some(same) = (&mut unit as &mut dyn Any)
            .downcast_mut::<Option<ToolDef<C>>>()
            .and_then(Option::take)
        {
            return same;
        }
        free.0.with_handler(Arc::new(WithoutContext {
            def: free.0.clone(),
            none: Arc::new(()),
        }))
    }
}

/// The handler of a context-free tool in a server with a context: the call
/// goes to the tool (its own middleware, then its code) with `()` as the
/// session's context.
struct WithoutContext {
    def: ToolDef,
    none: Arc<()>,
}

impl<C: Send + Sync + 'static> ToolHandler<C> for WithoutContext {
    fn call(&self, cx: ToolCallContext<C>) -> BoxFuture<'static, CallToolResult> {
        self.def.call(cx.with_context(self.none.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tool::builder::tool;
    use crate::tool::middleware;
    use crate::tool::request::CallToolRequest;

    fn echo() -> ContextFreeToolDef {
        let def: ToolDef = tool("echo")
            .run(|arguments: crate::JsonObject| async move { arguments.len().to_string() })
            .unwrap();
        def.into()
    }

    #[test]
    fn a_server_with_a_context_runs_it_with_the_called_tool() {
        let hosted: ToolDef<String> = echo()
            .layer(middleware::from_fn(
                |cx: ToolCallContext<String>, next: middleware::Next<String>| async move {
                    let session = cx.ctx().clone();
                    let result = next.run(cx).await;
                    CallToolResult::text(format!("{session}: {}", result.text_content()))
                },
            ))
            .rename("echo2")
            .unwrap();
        let arguments = serde_json::json!({"a": 1, "b": 2}).as_object().cloned();
        let cx = hosted.context(
            CallToolRequest::new("echo2", arguments),
            Arc::new("acme".to_owned()),
        );
        let result = futures_executor::block_on(hosted.call(cx));
        assert_eq!(result.text_content(), "acme: 2");
    }

    #[test]
    fn a_server_without_context_hosts_it_unwrapped() {
        let free = echo();
        let handler = free.handler().clone();
        let hosted: ToolDef = free.into();
        assert!(Arc::ptr_eq(hosted.handler(), &handler));
    }
}
