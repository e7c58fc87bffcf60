//! A tool value together with its code.

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::error::ToolError;
use crate::future::BoxFuture;
use crate::meta::validate_meta_key;
use crate::name::validate_tool_name;
use crate::tool::context::ToolCallContext;
use crate::tool::handler::ToolHandler;
use crate::tool::middleware::{Layer, Next, ToolMiddleware};
use crate::tool::request::CallToolRequest;
use crate::tool::result::CallToolResult;
use crate::tool::value::Tool;

/// A [`Tool`] plus its handler and per-tool middleware: what a server hosts.
///
/// Make one with [`tool`](fn@crate::tool) (or the `#[tool]` macro, or OpenAPI
/// generation). `C` is the server's per-session context type.
///
/// Three ways to call it, from the server's to the test's:
/// [`call_inside`](Self::call_inside) runs server-wide layers around the
/// tool's own, [`call`](Self::call) runs only the tool's own, and
/// [`call_detached`](Self::call_detached) makes the context itself from JSON
/// arguments, outside any server.
pub struct ToolDef<C = ()> {
    tool: Arc<Tool>,
    handler: Arc<dyn ToolHandler<C>>,
    layers: Arc<[Layer<C>]>,
    scopes: Arc<[String]>,
    toolsets: Arc<[String]>,
    result_limit: Option<usize>,
    forwards_credentials: bool,
}

impl<C: Send + Sync + 'static> ToolDef<C> {
    /// A tool whose code is a hand-written [`ToolHandler`]. The name and the
    /// `_meta` keys are checked as the builder checks them.
    pub fn new(tool: Tool, handler: impl ToolHandler<C>) -> Result<Self, ToolError> {
        validate_tool_name(&tool.name)?;
        tool.meta
            .iter()
            .try_for_each(|(key, _)| validate_meta_key(key))?;
        Ok(Self::from_parts(tool, Arc::new(handler)))
    }

    pub(crate) fn from_parts(tool: Tool, handler: Arc<dyn ToolHandler<C>>) -> Self {
        Self {
            tool: Arc::new(tool),
            handler,
            layers: Arc::from(Vec::new()),
            scopes: Arc::from(Vec::new()),
            toolsets: Arc::from(Vec::new()),
            result_limit: None,
            forwards_credentials: false,
        }
    }

    /// A tool with this one's value and settings (scopes, toolsets, result
    /// bound, credentials) whose code is `handler`, without middleware.
    pub(crate) fn with_handler<D>(&self, handler: Arc<dyn ToolHandler<D>>) -> ToolDef<D> {
        ToolDef {
            tool: self.tool.clone(),
            handler,
            layers: Arc::from(Vec::new()),
            scopes: self.scopes.clone(),
            toolsets: self.toolsets.clone(),
            result_limit: self.result_limit,
            forwards_credentials: self.forwards_credentials,
        }
    }

    #[cfg(test)]
    pub(crate) fn handler(&self) -> &Arc<dyn ToolHandler<C>> {
        &self.handler
    }

    /// Adds OAuth scopes a call of the tool needs (see
    /// [`ToolBuilder::scopes`](crate::ToolBuilder::scopes)).
    pub fn require_scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        let mut all = self.scopes.to_vec();
        for scope in scopes.into_iter().map(Into::into) {
            if !all.contains(&scope) {
                all.push(scope);
            }
        }
        self.scopes = Arc::from(all);
        self
    }

    /// The OAuth scopes a call of the tool needs, on top of the server's:
    /// an OAuth-protected HTTP server refuses a `tools/call` whose token
    /// lacks one (403); elsewhere nothing checks them.
    pub fn required_scopes(&self) -> &[String] {
        &self.scopes
    }

    /// Puts the tool in the toolsets `names` too: a server can serve a
    /// selection of toolsets (the whole server, or one client's view of
    /// it), and a tool in none of them is not served there. A tool that
    /// names no toolset is in every selection. Tools generated from an
    /// OpenAPI document are in the toolsets of their operation's tags.
    ///
    /// ```
    /// use mcp_core::{tool, ToolDef};
    ///
    /// let list: ToolDef = tool("list_issues").toolset("issues").run(|| async { "[]" })?;
    /// assert_eq!(list.in_toolsets(["triage"]).toolsets(), ["issues", "triage"]);
    /// # Ok::<(), mcp_core::ToolError>(())
    /// ```
    pub fn in_toolsets(mut self, names: impl IntoIterator<Item = impl Into<String>>) -> Self {
        let mut all = self.toolsets.to_vec();
        for name in names.into_iter().map(Into::into) {
            if !all.contains(&name) {
                all.push(name);
            }
        }
        self.toolsets = Arc::from(all);
        self
    }

    /// Puts the tool in exactly the toolsets `names` (none: every
    /// selection), replacing those it was in.
    pub fn in_toolsets_only(mut self, names: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.toolsets = Arc::from(Vec::new());
        self.in_toolsets(names)
    }

    /// The toolsets the tool is in (none: it is in every selection).
    pub fn toolsets(&self) -> &[String] {
        &self.toolsets
    }

    /// Bounds the bytes of this tool's results a server sends, in place of
    /// its server-wide bound: a larger result is cut at whole items (see
    /// the server's result budget).
    ///
    /// ```
    /// use mcp_core::{tool, ToolDef};
    ///
    /// let dump: ToolDef = tool("dump").run(|| async { "..." })?.max_result_bytes(8_000);
    /// assert_eq!(dump.result_limit(), Some(8_000));
    /// # Ok::<(), mcp_core::ToolError>(())
    /// ```
    pub fn max_result_bytes(mut self, bytes: usize) -> Self {
        self.result_limit = Some(bytes);
        self
    }

    /// The bound set with [`max_result_bytes`](Self::max_result_bytes).
    pub fn result_limit(&self) -> Option<usize> {
        self.result_limit
    }

    /// Marks the tool as one that sends its caller's own credentials (the
    /// incoming `Authorization` header) to an upstream API. An
    /// OAuth-protected HTTP server refuses to serve such a tool: the
    /// caller's token was issued for this server, and the MCP
    /// specification forbids passing it on (exchange it for an upstream
    /// token instead).
    ///
    /// ```
    /// use mcp_core::{tool, ToolDef};
    ///
    /// let echo: ToolDef = tool("echo").run(|| async { "hi" })?;
    /// assert!(!echo.forwards_caller_credentials());
    /// assert!(echo.forwarding_caller_credentials(true).forwards_caller_credentials());
    /// # Ok::<(), mcp_core::ToolError>(())
    /// ```
    pub fn forwarding_caller_credentials(mut self, forwards: bool) -> Self {
        self.forwards_credentials = forwards;
        self
    }

    /// Whether the tool sends its caller's own credentials upstream (see
    /// [`forwarding_caller_credentials`](Self::forwarding_caller_credentials)).
    pub fn forwards_caller_credentials(&self) -> bool {
        self.forwards_credentials
    }

    /// The protocol value.
    pub fn tool(&self) -> &Tool {
        &self.tool
    }

    /// The protocol value, shared.
    pub fn tool_arc(&self) -> &Arc<Tool> {
        &self.tool
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.tool.name
    }

    /// Adds a per-tool middleware layer inside the ones added before (see
    /// [`middleware`](crate::tool::middleware) for the order).
    pub fn layer(mut self, middleware: impl ToolMiddleware<C>) -> Self {
        let mut layers = self.layers.to_vec();
        layers.push(Arc::new(middleware));
        self.layers = layers.into();
        self
    }

    /// Renames the tool (for example to prefix every tool of a source).
    pub fn rename(mut self, name: impl Into<String>) -> Result<Self, ToolError> {
        let name = name.into();
        validate_tool_name(&name)?;
        Arc::make_mut(&mut self.tool).name = name;
        Ok(self)
    }

    /// Changes the protocol value's descriptive fields; the name cannot be
    /// changed this way (use [`rename`](Self::rename)).
    pub fn map_tool(mut self, change: impl FnOnce(&mut Tool)) -> Self {
        let tool = Arc::make_mut(&mut self.tool);
        let name = tool.name.clone();
        change(tool);
        tool.name = name;
        self
    }

    /// Calls the tool with the context `cx` through its own middleware,
    /// then its handler.
    pub fn call(&self, cx: ToolCallContext<C>) -> BoxFuture<'static, CallToolResult> {
        self.call_inside(Arc::from(Vec::new()), cx)
    }

    /// Calls the tool with the context `cx` inside `outer` (server-wide
    /// layers, outermost first), then through its own middleware, then its
    /// handler: what a server does for `tools/call`.
    pub fn call_inside(
        &self,
        outer: Arc<[Layer<C>]>,
        cx: ToolCallContext<C>,
    ) -> BoxFuture<'static, CallToolResult> {
        Next::new(outer, self.layers.clone(), self.handler.clone()).run(cx)
    }

    /// The context of a call of this tool with `request` in a session whose
    /// context is `ctx`.
    pub fn context(&self, request: CallToolRequest, ctx: Arc<C>) -> ToolCallContext<C> {
        ToolCallContext::new(request, self.tool.clone(), ctx)
    }
}

impl<C: Default + Send + Sync + 'static> ToolDef<C> {
    /// Calls the tool with `arguments` and a default context, detached from
    /// any server (no session, no client to notify or ask): handy in tests.
    /// Arguments other than an object (or `null`) give an error result.
    ///
    /// ```
    /// use mcp_core::{tool, ToolDef};
    ///
    /// let echo: ToolDef = tool("echo")
    ///     .run(|args: serde_json::Map<String, serde_json::Value>| async move { format!("{args:?}") })
    ///     .unwrap();
    /// let result = futures_executor::block_on(echo.call_detached(serde_json::json!({"a": 1})));
    /// assert_eq!(result.text_content(), r#"{"a": Number(1)}"#);
    /// ```
    pub fn call_detached(&self, arguments: Value) -> BoxFuture<'static, CallToolResult> {
        let arguments = match arguments {
            Value::Object(object) => Some(object),
            Value::Null => None,
            other => {
                let message = format!("tool arguments must be a JSON object, found {other}");
                return Box::pin(std::future::ready(CallToolResult::error(message)));
            }
        };
        let request = CallToolRequest::new(self.tool.name.clone(), arguments);
        self.call(self.context(request, Arc::new(C::default())))
    }
}

impl<C> Clone for ToolDef<C> {
    fn clone(&self) -> Self {
        Self {
            tool: self.tool.clone(),
            handler: self.handler.clone(),
            layers: self.layers.clone(),
            scopes: self.scopes.clone(),
            toolsets: self.toolsets.clone(),
            result_limit: self.result_limit,
            forwards_credentials: self.forwards_credentials,
        }
    }
}

impl<C> fmt::Debug for ToolDef<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolDef")
            .field("tool", &self.tool)
            .field("middleware_layers", &self.layers.len())
            .finish_non_exhaustive()
    }
}
