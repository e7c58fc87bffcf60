//! The `execute` tool: runs a script in a fresh sandbox on a thread of its
//! own, which makes the tool calls it asks for (a bounded number at once)
//! on the server's runtime, and answers with what it returned.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use mcp_core::content::Content;
use mcp_core::tool::middleware::Layer;
use mcp_core::{BoxFuture, tool::ToolHandler};
use mcp_core::{CallToolResult, JsonObject, ToolCallContext};
use serde_json::{Value, json};
use tokio::sync::{Semaphore, oneshot};

use super::CodeMode;
use super::invoke::{ConfiguredScopes, Invoker};
use super::sandbox::{Caller, Calls, Job, Outcome, Pool, ScriptError, Start};
use super::view::CodeModeView;

/// How long past its time limit a run that does not stop is waited for
/// before the call is answered anyway.
const GRACE: Duration = Duration::from_secs(1);

/// The handler of `execute`: the view of the tools, the server's
/// middleware, the OAuth scopes configured per tool, the limits and the
/// places for running scripts.
pub(crate) struct Execute<C> {
    pub(crate) view: Arc<CodeModeView<C>>,
    pub(crate) layers: Arc<[Layer<C>]>,
    pub(crate) scopes: Option<ConfiguredScopes>,
    pub(crate) settings: CodeMode,
    /// One permit per script running, server-wide.
    pub(crate) running: Arc<Semaphore>,
    /// The sandboxes made ahead of their run.
    pub(crate) pool: Arc<Pool>,
}

impl<C: Send + Sync + 'static> ToolHandler<C> for Execute<C> {
    fn call(&self, mut cx: ToolCallContext<C>) -> BoxFuture<'static, CallToolResult> {
        let code = match code_of(cx.request_mut().arguments.take()) {
            Ok(code) => code,
            Err(message) => return Box::pin(std::future::ready(CallToolResult::error(message))),
        };
        let view = self.view.clone();
        let invoker = Arc::new(Invoker {
            view: view.clone(),
            layers: self.layers.clone(),
            cx,
            scopes: self.scopes.clone(),
            // The script's calls are made on its thread: their spans are
            // children of this call's.
            parent: tracing::Span::current(),
        });
        let caller: Caller = Arc::new(move |request| Box::pin(invoker.call(request)));
        let settings = self.settings.clone();
        let running = self.running.clone();
        let pool = self.pool.clone();
        Box::pin(async move {
            let started = Instant::now();
            let outcome = run(code, &view, caller, &settings, &running, &pool, started).await;
            answer(outcome)
        })
    }
}

/// The script `arguments` carry, or what is wrong with them.
fn code_of(arguments: Option<JsonObject>) -> Result<String, String> {
    let mut arguments = arguments.unwrap_or_default();
    if let Some(extra) = arguments.keys().find(|key| *key != "code") {
        return Err(format!("`execute` takes only `code`, not `{extra}`"));
    }
    match arguments.remove("code") {
        Some(Value::String(code)) if !code.trim().is_empty() => Ok(code),
        Some(Value::String(_)) | None => Err(
            "`execute` needs `code`: JavaScript that calls tools with `await tools.<identifier>(input)` and returns the answer".into(),
        ),
        Some(other) => Err(format!("`code` must be a string of JavaScript, not {other}")),
    }
}

/// Sets the cancellation flag when the call is dropped (cancelled by the
/// client, or answered by the watchdog), and wakes the sandbox waiting on
/// its calls (its receiver ends with the sender), so the sandbox stops too.
struct CancelOnDrop(Arc<AtomicBool>, Option<oneshot::Sender<()>>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
        self.1.take();
    }
}

/// Runs `code`: waits for a place among the running scripts and hands it
/// to a sandbox made ahead (see [`Pool`]), whose thread makes its calls
/// with `caller`, until it ends.
async fn run<C: Send + Sync + 'static>(
    code: String,
    view: &CodeModeView<C>,
    caller: Caller,
    settings: &CodeMode,
    running: &Arc<Semaphore>,
    pool: &Arc<Pool>,
    started: Instant,
) -> Outcome {
    let limits = settings.limits();
    let failed = |error: ScriptError| Outcome {
        result: Err(error),
        logs: Vec::new(),
        calls: 0,
    };
    let permit = match tokio::time::timeout(limits.time, running.clone().acquire_owned()).await {
        Ok(Ok(permit)) => permit,
        Ok(Err(_)) | Err(_) => {
            return failed(ScriptError::Sandbox(format!(
                "{} scripts were already running for the whole time limit; try again",
                settings.scripts_at_once()
            )));
        }
    };
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return failed(ScriptError::Sandbox(
            "`execute` runs inside a Tokio runtime".into(),
        ));
    };
    let (done, finished) = oneshot::channel();
    let (cancel, cancelled_calls) = oneshot::channel();
    let cancelled = Arc::new(AtomicBool::new(false));
    let _cancel_on_drop = CancelOnDrop(cancelled.clone(), Some(cancel));
    let asked = Arc::new(AtomicUsize::new(0));
    let job = Job {
        code,
        identifiers: view.identifiers(),
        catalog: view.catalog_json(),
        limits,
        started,
    };
    let start = Start {
        job,
        calls: Calls::new(
            caller,
            settings.calls_at_once(),
            runtime,
            cancelled_calls,
            asked.clone(),
        ),
        cancelled,
        done,
        permit,
    };
    if let Err(reason) = pool.run(start) {
        return failed(ScriptError::Sandbox(reason));
    }
    let deadline = started + limits.time + GRACE;
    match tokio::time::timeout_at(deadline.into(), finished).await {
        Ok(Ok(outcome)) => outcome,
        Ok(Err(_)) => failed(ScriptError::Sandbox(
            "the script's thread ended without an answer".into(),
        )),
        Err(_) => {
            let asked = asked.load(Ordering::Relaxed);
            Outcome {
                result: Err(ScriptError::Time {
                    limit: limits.time,
                    calls: asked,
                }),
                logs: Vec::new(),
                calls: asked,
            }
        }
    }
}

/// The result of `execute`: `{"result", "logs", "calls"}` as structured
/// content, the returned value as JSON text (then the console output, when
/// there is some); a failed run is an error result saying what happened.
fn answer(outcome: Outcome) -> CallToolResult {
    let logs_text =
        (!outcome.logs.is_empty()).then(|| format!("console output:\n{}", outcome.logs.join("\n")));
    match outcome.result {
        Ok(json) => {
            let value: Value = match json.as_deref().map(serde_json::from_str) {
                None => Value::Null,
                Some(Ok(value)) => value,
                Some(Err(error)) => {
                    return CallToolResult::error(format!(
                        "the returned value cannot be read back as JSON ({error}): return a flatter value"
                    ));
                }
            };
            let returned_nothing = json.is_none();
            let text = json.unwrap_or_else(|| "null".to_owned());
            let mut result = CallToolResult::structured(
                json!({ "result": value, "logs": outcome.logs, "calls": outcome.calls }),
            );
            result.content = vec![Content::text(text)];
            if returned_nothing {
                result.content.push(Content::text(
                    "The script returned nothing (undefined): end it with `return <value>`.",
                ));
            }
            result.content.extend(logs_text.map(Content::text));
            result
        }
        Err(error) => {
            let mut text = error.to_string();
            if let Some(logs) = logs_text {
                text.push_str("\n\n");
                text.push_str(&logs);
            }
            CallToolResult::error(text)
        }
    }
}
