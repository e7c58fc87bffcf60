//! One run: a fresh runtime with its limits, the prelude, the compiled
//! script, and the loop that runs its jobs and hands it the replies to its
//! tool calls until its promise settles or a limit stops it.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rquickjs::context::EvalOptions;
use rquickjs::promise::PromiseState;
use rquickjs::{Context, Ctx, Function, Object, Persistent, Promise, Runtime, Value};

use super::calls::{Calls, InFlight, Waited};
use super::host::{self, Host};
use super::outcome::{Outcome, ScriptError};
use super::script::{FILE_NAME, as_body, as_expression, position_of, syntax_error};
use super::{CallReply, Limits};

/// The prelude that makes the script's globals.
const PRELUDE: &str = include_str!("prelude.js");

/// What a run is given.
#[derive(Debug)]
pub(crate) struct Job {
    /// The script.
    pub(crate) code: String,
    /// The `tools.<identifier>` names, for `Object.keys(tools)`.
    pub(crate) identifiers: Arc<[String]>,
    /// The `catalog` array as JSON.
    pub(crate) catalog: Arc<str>,
    /// Its limits.
    pub(crate) limits: Limits,
    /// When the run started (the time limit counts from here).
    pub(crate) started: Instant,
}

/// Runs `job` on this thread in a sandbox made for it (see [`Prepared`]).
#[cfg(test)]
pub(crate) fn run(job: Job, calls: Calls, cancelled: Arc<AtomicBool>) -> Outcome {
    match Prepared::new() {
        Ok(prepared) => prepared.run(job, calls, cancelled),
        Err(error) => Outcome {
            result: Err(error),
            logs: Vec::new(),
            calls: 0,
        },
    }
}

/// A fresh sandbox made ahead of its one run: a runtime and a context in
/// which the prelude has made the globals, on the thread that will run
/// the script (QuickJS values never leave it).
pub(crate) struct Prepared {
    // Fields drop in order: the handles before the context, the context
    // before the runtime.
    drive: Persistent<Function<'static>>,
    finish: Persistent<Function<'static>>,
    context: Context,
    host: Rc<RefCell<Host>>,
    runtime: Runtime,
}

impl Prepared {
    /// A runtime, a context and the prelude's globals.
    pub(crate) fn new() -> Result<Self, ScriptError> {
        let runtime = Runtime::new().map_err(sandbox)?;
        let context = Context::full(&runtime).map_err(sandbox)?;
        let host = Rc::new(RefCell::new(Host::idle()));
        let (drive, finish) = context.with(|ctx| -> Result<_, ScriptError> {
            let api = prelude(&ctx, &host)
                .map_err(|error| ScriptError::Sandbox(format!("the prelude failed: {error}")))?;
            let drive: Function<'_> = api.get("drive").map_err(sandbox)?;
            let finish: Function<'_> = api.get("finish").map_err(sandbox)?;
            Ok((
                Persistent::save(&ctx, drive),
                Persistent::save(&ctx, finish),
            ))
        })?;
        Ok(Self {
            drive,
            finish,
            context,
            host,
            runtime,
        })
    }

    /// Runs `job`, making its tool calls with `calls` on this thread;
    /// `cancelled` (or the cancellation `calls` watches) stops the run. The
    /// sandbox is spent: drop it once the outcome is on its way.
    pub(crate) fn run(&self, job: Job, calls: Calls, cancelled: Arc<AtomicBool>) -> Outcome {
        self.host.borrow_mut().begin(
            job.limits.calls,
            job.limits.log_bytes,
            job.identifiers.clone(),
            job.catalog.clone(),
        );
        let mut in_flight = InFlight::new(calls);
        let result =
            Run::new(self, &job, cancelled).and_then(|mut run| run.until_settled(&mut in_flight));
        // Calls still running end here, and the promises still held are
        // freed before the runtime.
        drop(in_flight);
        let mut host = self.host.borrow_mut();
        host.forget_calls();
        Outcome {
            result,
            logs: host.take_logs(),
            calls: host.calls(),
        }
    }
}

/// What stops a script from outside: cancellation, the call limit, the
/// deadline. The interrupt handler checks the same.
#[derive(Clone)]
struct Stops {
    cancelled: Arc<AtomicBool>,
    over_call_limit: Rc<Cell<bool>>,
    deadline: Instant,
    limits: Limits,
}

impl Stops {
    /// Whether the script must stop now.
    fn now(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
            || self.over_call_limit.get()
            || Instant::now() >= self.deadline
    }

    /// Why the script is stopped, if it is, after `calls` calls.
    fn reason(&self, calls: usize) -> Option<ScriptError> {
        if self.cancelled.load(Ordering::Relaxed) {
            return Some(ScriptError::Cancelled);
        }
        if self.over_call_limit.get() {
            return Some(ScriptError::Calls {
                limit: self.limits.calls,
            });
        }
        (Instant::now() >= self.deadline).then(|| self.time_exceeded(calls))
    }

    fn time_exceeded(&self, calls: usize) -> ScriptError {
        ScriptError::Time {
            limit: self.limits.time,
            calls: calls.min(self.limits.calls),
        }
    }
}

/// A run under way.
struct Run<'a> {
    runtime: &'a Runtime,
    context: &'a Context,
    host: &'a Rc<RefCell<Host>>,
    stops: Stops,
    /// The script's promise.
    promise: Persistent<Promise<'static>>,
    /// The prelude's `finish`.
    finish: &'a Persistent<Function<'static>>,
}

impl<'a> Run<'a> {
    /// Sets the limits and starts the script.
    fn new(
        prepared: &'a Prepared,
        job: &Job,
        cancelled: Arc<AtomicBool>,
    ) -> Result<Self, ScriptError> {
        let (runtime, host) = (&prepared.runtime, &prepared.host);
        let limits = job.limits;
        runtime.set_memory_limit(limits.memory_bytes);
        runtime.set_max_stack_size(limits.stack_bytes);
        let stops = Stops {
            cancelled,
            over_call_limit: host.borrow().over_call_limit(),
            deadline: job.started + limits.time,
            limits,
        };
        let interrupt = stops.clone();
        runtime.set_interrupt_handler(Some(Box::new(move || interrupt.now())));
        let promise = prepared.context.with(|ctx| -> Result<_, ScriptError> {
            let drive = prepared.drive.clone().restore(&ctx).map_err(sandbox)?;
            let compiled = compile(&ctx, &job.code, &limits)?;
            // The script runs until its first `await` here.
            let promise: Promise<'_> = drive.call((compiled,)).map_err(|_| {
                let thrown = describe(&ctx, &ctx.catch(), &limits);
                stops.reason(host.borrow().calls()).unwrap_or(thrown)
            })?;
            Ok(Persistent::save(&ctx, promise))
        })?;
        Ok(Self {
            runtime,
            context: &prepared.context,
            host,
            stops,
            promise,
            finish: &prepared.finish,
        })
    }

    /// Runs jobs, makes the calls they ask for and delivers their replies
    /// until the script's promise settles: its value as JSON (`None` for
    /// `undefined`), or why it failed.
    fn until_settled(&mut self, calls: &mut InFlight) -> Result<Option<String>, ScriptError> {
        loop {
            loop {
                match self.runtime.execute_pending_job() {
                    Ok(true) => {}
                    Ok(false) => break,
                    Err(_) => {
                        let thrown = self
                            .context
                            .with(|ctx| describe(&ctx, &ctx.catch(), &self.stops.limits));
                        return Err(self.stopped().unwrap_or(thrown));
                    }
                }
            }
            if let Some(stop) = self.stopped() {
                return Err(stop);
            }
            if let Some(settled) = self.settled() {
                return settled;
            }
            self.host
                .borrow_mut()
                .take_requests()
                .for_each(|request| calls.push(request));
            // Calls done at once are answered before anything waits.
            let mut delivered = false;
            while let Some(reply) = calls.ready() {
                self.deliver(reply)?;
                delivered = true;
            }
            if delivered {
                continue;
            }
            if !self.host.borrow().is_waiting() {
                return Err(ScriptError::NeverSettled);
            }
            match calls.wait(self.stops.deadline) {
                Waited::Reply(reply) => self.deliver(reply)?,
                Waited::Deadline => return Err(self.time_exceeded()),
                Waited::Cancelled => return Err(ScriptError::Cancelled),
            }
        }
    }

    /// Settles a call's promise with its reply.
    fn deliver(&self, reply: CallReply) -> Result<(), ScriptError> {
        self.context.with(|ctx| {
            host::deliver(&ctx, self.host, reply).map_err(|_| {
                let thrown = describe(&ctx, &ctx.catch(), &self.stops.limits);
                self.stopped().unwrap_or(thrown)
            })
        })
    }

    /// The outcome, once the script's promise has settled.
    fn settled(&self) -> Option<Result<Option<String>, ScriptError>> {
        self.context.with(|ctx| {
            let promise = self.promise.clone().restore(&ctx).ok()?;
            match promise.state() {
                PromiseState::Pending => None,
                PromiseState::Rejected => {
                    let reason = match promise.result::<Value<'_>>() {
                        Some(Ok(value)) => value,
                        _ => ctx.catch(),
                    };
                    Some(Err(self.stopped().unwrap_or_else(|| {
                        describe(&ctx, &reason, &self.stops.limits)
                    })))
                }
                PromiseState::Resolved => {
                    let value = match promise.result::<Value<'_>>()? {
                        Ok(value) => value,
                        Err(_) => {
                            return Some(Err(describe(&ctx, &ctx.catch(), &self.stops.limits)));
                        }
                    };
                    Some(self.finished(&ctx, value))
                }
            }
        })
    }

    /// The returned `value` as JSON within the result limit.
    fn finished<'js>(
        &self,
        ctx: &Ctx<'js>,
        value: Value<'js>,
    ) -> Result<Option<String>, ScriptError> {
        let finish = self.finish.clone().restore(ctx).map_err(sandbox)?;
        let json: Option<String> = match finish.call((value,)) {
            Ok(json) => json,
            Err(_) => {
                let thrown = describe(ctx, &ctx.catch(), &self.stops.limits);
                return Err(self.stopped().unwrap_or(match thrown {
                    ScriptError::Uncaught { message, .. } => {
                        ScriptError::Unserializable { message }
                    }
                    other => other,
                }));
            }
        };
        let limit = self.stops.limits.result_bytes;
        match json {
            Some(json) if json.len() > limit => Err(ScriptError::ResultTooLarge {
                bytes: json.len(),
                limit,
            }),
            json => Ok(json),
        }
    }

    /// Why the script is stopped from outside, if it is.
    fn stopped(&self) -> Option<ScriptError> {
        self.stops.reason(self.host.borrow().calls())
    }

    fn time_exceeded(&self) -> ScriptError {
        self.stops.time_exceeded(self.host.borrow().calls())
    }
}

/// Runs the prelude with the native functions; returns `{drive, finish}`.
fn prelude<'js>(ctx: &Ctx<'js>, host: &Rc<RefCell<Host>>) -> rquickjs::Result<Object<'js>> {
    let make: Function<'js> = ctx.eval_with_options(PRELUDE, options("prelude"))?;
    make.call((host::object(ctx, host)?,))
}

/// The script compiled into an async function, none of it run yet: the
/// expression form, else the body form; a syntax error names its place.
fn compile<'js>(ctx: &Ctx<'js>, code: &str, limits: &Limits) -> Result<Function<'js>, ScriptError> {
    if let Ok(function) = ctx.eval_with_options(as_expression(code), options(FILE_NAME)) {
        return Ok(function);
    }
    ctx.catch();
    ctx.eval_with_options(as_body(code), options(FILE_NAME))
        .map_err(|_| match describe(ctx, &ctx.catch(), limits) {
            ScriptError::Uncaught {
                name: Some(name),
                at,
                message,
            } if name == "SyntaxError" => syntax_error(code, at, message),
            other => other,
        })
}

fn options(file: &str) -> EvalOptions {
    let mut options = EvalOptions::default();
    options.global = true;
    options.strict = false;
    options.filename = Some(file.to_owned());
    options
}

/// What a thrown `value` says: an error's name, message and line; out of
/// memory for QuickJS's own null throw; else the value as text.
fn describe<'js>(ctx: &Ctx<'js>, value: &Value<'js>, limits: &Limits) -> ScriptError {
    let memory = ScriptError::Memory {
        limit: limits.memory_bytes,
    };
    if value.is_null() {
        return memory;
    }
    if let Some(error) = value.as_exception() {
        let message = error.message().unwrap_or_default();
        if message == "out of memory" {
            return memory;
        }
        let name: Option<String> = error.get("name").ok();
        let tool: Option<String> = error.get("tool").ok();
        let message = match tool {
            Some(tool) => format!("{message} (from `{tool}`)"),
            None => message,
        };
        return ScriptError::Uncaught {
            name,
            at: error.stack().as_deref().and_then(position_of),
            message,
        };
    }
    let message = ctx
        .json_stringify(value.clone())
        .ok()
        .flatten()
        .and_then(|text| text.to_string().ok())
        .unwrap_or_else(|| format!("a value of type {}", value.type_name()));
    ScriptError::Uncaught {
        name: None,
        at: None,
        message,
    }
}

fn sandbox(error: rquickjs::Error) -> ScriptError {
    ScriptError::Sandbox(error.to_string())
}
