//! A script's tool calls, made exactly as a direct `tools/call` makes
//! them: the session's identity and OAuth scopes, the server's middleware
//! then the tool's, argument checks in the handler, a span per call, and
//! cancellation with the `execute` call that made them.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use futures_util::FutureExt;
use mcp_core::tool::middleware::Layer;
use mcp_core::{CallToolResult, ToolCallContext, ToolDef};
use tracing::Instrument;

use super::sandbox::{CallReply, CallRequest, Mismatch};
use super::value::{ScriptValue, script_value};
use super::view::CodeModeView;

/// The OAuth scopes the server's configuration asks of a tool on top of
/// those its definition declares (set when the session is OAuth-protected).
pub(crate) type ConfiguredScopes = Arc<dyn Fn(&str) -> Vec<String> + Send + Sync>;

/// Makes the tool calls of one run.
pub(crate) struct Invoker<C> {
    pub(crate) view: Arc<CodeModeView<C>>,
    pub(crate) layers: Arc<[Layer<C>]>,
    /// The context of the `execute` call: its session, caller and channel.
    pub(crate) cx: ToolCallContext<C>,
    pub(crate) scopes: Option<ConfiguredScopes>,
    /// The span of the `execute` call, parent of each call's.
    pub(crate) parent: tracing::Span,
}

impl<C: Send + Sync + 'static> Invoker<C> {
    /// Makes the call `request` asks for; the reply carries the value the
    /// script gets, or the message of the error it throws.
    pub(crate) fn call(
        &self,
        request: CallRequest,
    ) -> impl Future<Output = CallReply> + Send + 'static {
        let id = request.id;
        let started = match self.view.resolve(&request.tool) {
            Err(message) => Err(message),
            Ok(def) => self.allowed(def).map(|()| {
                let cx = self.cx.for_tool(
                    def.tool_arc().clone(),
                    request.arguments.unwrap_or_default(),
                );
                let name = def.name().to_owned();
                let span = tracing::info_span!(
                    parent: &self.parent,
                    "mcp.code_mode.call",
                    otel.name = %format_args!("execute_tool {name}"),
                    otel.kind = "internal",
                    gen_ai.tool.name = %name,
                    gen_ai.operation.name = "execute_tool",
                );
                let running = AssertUnwindSafe(def.call_inside(self.layers.clone(), cx))
                    .catch_unwind()
                    .instrument(span);
                let identifier = self.view.identifier_of(&name).to_owned();
                (def.clone(), identifier, running)
            }),
        };
        async move {
            let (def, identifier, running) = match started {
                Err(message) => {
                    return CallReply {
                        id,
                        outcome: Err(message),
                        mismatch: None,
                    };
                }
                Ok(started) => started,
            };
            let result = running.await.unwrap_or_else(|_| {
                tracing::error!(tool = %def.name(), "the tool handler panicked");
                CallToolResult::error(format!("tool `{}` failed unexpectedly", def.name()))
            });
            match script_value(def.tool(), &result) {
                Err(message) => CallReply {
                    id,
                    outcome: Err(message),
                    mismatch: None,
                },
                Ok(ScriptValue { json, mismatch }) => CallReply {
                    id,
                    outcome: Ok(json),
                    mismatch: mismatch.map(|message| Mismatch {
                        tool: identifier,
                        message,
                    }),
                },
            }
        }
    }

    /// Whether the session may call `def`: behind OAuth, its token must
    /// hold the scopes the tool needs, and the tool must not pass the
    /// caller's token upstream.
    fn allowed(&self, def: &ToolDef<C>) -> Result<(), String> {
        let Some(auth) = self.cx.scope().auth() else {
            return Ok(());
        };
        let name = def.name();
        if def.forwards_caller_credentials() {
            return Err(format!(
                "tool `{name}` passes the caller's Authorization header through to its upstream API, which an OAuth-protected server refuses"
            ));
        }
        let mut needed: Vec<String> = self
            .scopes
            .as_ref()
            .map(|scopes| scopes(name))
            .unwrap_or_default();
        needed.extend(def.required_scopes().iter().cloned());
        let mut missing: Vec<String> = needed
            .into_iter()
            .filter(|scope| !auth.has_scope(scope))
            .collect();
        missing.dedup();
        if missing.is_empty() {
            return Ok(());
        }
        let quoted: Vec<String> = missing.iter().map(|scope| format!("`{scope}`")).collect();
        Err(format!(
            "insufficient scope: tool `{name}` needs the OAuth scope{} {}, which this session's token lacks",
            if missing.len() == 1 { "" } else { "s" },
            quoted.join(", ")
        ))
    }
}
