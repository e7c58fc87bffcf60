//! The native functions the prelude builds the script's globals on, and
//! the calls they leave outstanding.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use std::sync::Arc;

use rquickjs::{Ctx, Exception, Function, Object, Persistent, Promise};
use serde_json::Value;

use super::outcome::{ScriptError, size};
use super::{CallReply, CallRequest, Mismatch, ToolRef};

/// What the native functions share within one run.
pub(super) struct Host {
    next_id: u64,
    /// The calls sent and not answered yet.
    pending: HashMap<u64, Pending>,
    calls: usize,
    max_calls: usize,
    /// Set once the script asks for a call past the limit; the interrupt
    /// handler then stops it.
    over_call_limit: Rc<Cell<bool>>,
    /// Whether a run has begun (an idle sandbox makes no calls).
    running: bool,
    /// The calls asked for since the run's loop last took them.
    requests: Vec<CallRequest>,
    logs: Logs,
    /// The tools whose values did not match their schema, said once each.
    mismatched: HashSet<String>,
    identifiers: Arc<[String]>,
    catalog: Arc<str>,
}

/// A call's promise, to settle when its reply comes.
struct Pending {
    resolve: Persistent<Function<'static>>,
    reject: Persistent<Function<'static>>,
    /// The tool as the script named it, for the error it may throw.
    tool: String,
}

/// What the script wrote with `console`, within a byte budget.
struct Logs {
    entries: Vec<String>,
    bytes: usize,
    limit: usize,
    cut: bool,
}

impl Host {
    /// The host of a sandbox not running anything yet: a call fails.
    pub(super) fn idle() -> Self {
        Self {
            next_id: 0,
            pending: HashMap::new(),
            calls: 0,
            max_calls: 0,
            over_call_limit: Rc::new(Cell::new(false)),
            running: false,
            requests: Vec::new(),
            logs: Logs {
                entries: Vec::new(),
                bytes: 0,
                limit: 0,
                cut: false,
            },
            mismatched: HashSet::new(),
            identifiers: Arc::from(Vec::new()),
            catalog: Arc::from("[]"),
        }
    }

    /// Starts a run: its limits, its tools.
    pub(super) fn begin(
        &mut self,
        max_calls: usize,
        log_bytes: usize,
        identifiers: Arc<[String]>,
        catalog: Arc<str>,
    ) {
        self.running = true;
        self.max_calls = max_calls;
        self.logs.limit = log_bytes;
        self.identifiers = identifiers;
        self.catalog = catalog;
    }

    /// The flag the interrupt handler reads.
    pub(super) fn over_call_limit(&self) -> Rc<Cell<bool>> {
        self.over_call_limit.clone()
    }

    /// Whether a call is outstanding.
    pub(super) fn is_waiting(&self) -> bool {
        !self.pending.is_empty()
    }

    /// The calls made so far.
    pub(super) fn calls(&self) -> usize {
        self.calls
    }

    /// Takes the captured console output.
    pub(super) fn take_logs(&mut self) -> Vec<String> {
        std::mem::take(&mut self.logs.entries)
    }

    /// Takes the calls asked for since the last time.
    pub(super) fn take_requests(&mut self) -> impl Iterator<Item = CallRequest> + '_ {
        self.requests.drain(..)
    }

    /// Forgets the outstanding calls (their promises are freed here, before
    /// the runtime they belong to).
    pub(super) fn forget_calls(&mut self) {
        self.pending.clear();
        self.requests.clear();
    }

    /// Says in the logs, once per tool, that a value did not match its
    /// tool's schema.
    fn note_mismatch(&mut self, mismatch: Mismatch) {
        if self.mismatched.insert(mismatch.tool.clone()) {
            let line = format!("{}: {}", mismatch.tool, mismatch.message);
            self.log("warn", &line);
        }
    }

    /// Asks for a call and returns its promise.
    fn call<'js>(
        &mut self,
        ctx: &Ctx<'js>,
        key: String,
        input: Option<String>,
        by_identifier: bool,
    ) -> rquickjs::Result<Promise<'js>> {
        self.calls += 1;
        if self.calls > self.max_calls {
            self.over_call_limit.set(true);
            let limit = ScriptError::Calls {
                limit: self.max_calls,
            };
            return Err(Exception::throw_internal(ctx, &limit.to_string()));
        }
        let arguments = match input.as_deref().map(serde_json::from_str::<Value>) {
            None => None,
            Some(Ok(Value::Object(arguments))) => Some(arguments),
            Some(Ok(_)) => {
                return Err(Exception::throw_type(
                    ctx,
                    "the input of a tool call must be an object of named arguments",
                ));
            }
            Some(Err(error)) => {
                let message = format!("the input of a tool call cannot be read as JSON: {error}");
                return Err(Exception::throw_type(ctx, &message));
            }
        };
        let (promise, resolve, reject) = ctx.promise()?;
        let id = self.next_id;
        self.next_id += 1;
        let tool = if by_identifier {
            ToolRef::Identifier(key.clone())
        } else {
            ToolRef::Name(key.clone())
        };
        if !self.running {
            return Err(Exception::throw_internal(
                ctx,
                &ScriptError::Cancelled.to_string(),
            ));
        }
        self.requests.push(CallRequest {
            id,
            tool,
            arguments,
        });
        self.pending.insert(
            id,
            Pending {
                resolve: Persistent::save(ctx, resolve),
                reject: Persistent::save(ctx, reject),
                tool: key,
            },
        );
        Ok(promise)
    }

    fn log(&mut self, level: &str, text: &str) {
        let logs = &mut self.logs;
        if logs.cut {
            return;
        }
        let entry = match level {
            "log" | "info" => text.to_owned(),
            other => format!("[{other}] {text}"),
        };
        if logs.bytes + entry.len() > logs.limit {
            logs.cut = true;
            logs.entries
                .push(format!("(console output cut at {})", size(logs.limit)));
            return;
        }
        logs.bytes += entry.len();
        logs.entries.push(entry);
    }
}

/// The object the prelude receives as `host`: `call`, `log`,
/// `identifiers` and `catalog`.
pub(super) fn object<'js>(
    ctx: &Ctx<'js>,
    host: &Rc<RefCell<Host>>,
) -> rquickjs::Result<Object<'js>> {
    let object = Object::new(ctx.clone())?;
    let shared = host.clone();
    object.set(
        "call",
        Function::new(
            ctx.clone(),
            move |ctx: Ctx<'js>, key: String, input: Option<String>, by_identifier: bool| {
                shared.borrow_mut().call(&ctx, key, input, by_identifier)
            },
        )?,
    )?;
    let shared = host.clone();
    object.set(
        "log",
        Function::new(ctx.clone(), move |level: String, text: String| {
            shared.borrow_mut().log(&level, &text);
        })?,
    )?;
    let shared = host.clone();
    object.set(
        "identifiers",
        Function::new(ctx.clone(), move || {
            serde_json::to_string(&*shared.borrow().identifiers).unwrap_or_else(|_| "[]".into())
        })?,
    )?;
    let shared = host.clone();
    object.set(
        "catalog",
        Function::new(ctx.clone(), move || shared.borrow().catalog.to_string())?,
    )?;
    Ok(object)
}

/// Settles the promise of the call `reply` answers: resolved with the
/// tool's value, or rejected with an `Error` whose message is the tool's
/// error text (and whose `tool` names the tool). A value that does not
/// match its tool's schema is said in the logs.
pub(super) fn deliver<'js>(
    ctx: &Ctx<'js>,
    host: &RefCell<Host>,
    reply: CallReply,
) -> rquickjs::Result<()> {
    let pending = {
        let mut host = host.borrow_mut();
        let Some(pending) = host.pending.remove(&reply.id) else {
            return Ok(());
        };
        if let Some(mismatch) = reply.mismatch {
            host.note_mismatch(mismatch);
        }
        pending
    };
    match reply.outcome {
        Ok(json) => {
            let value = ctx.json_parse(json)?;
            pending.resolve.restore(ctx)?.call::<_, ()>((value,))
        }
        Err(message) => {
            let error = Exception::from_message(ctx.clone(), &message)?;
            error.as_object().set("tool", pending.tool)?;
            pending.reject.restore(ctx)?.call::<_, ()>((error,))
        }
    }
}
