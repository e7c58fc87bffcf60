//! Sandboxes made ahead of their run: a few threads, each holding a fresh
//! runtime in which the prelude has made the globals, wait for one script
//! each. A run takes a waiting sandbox (or has one made when none waits),
//! and every script still gets a sandbox no script has touched.
//!
//! A thread outlives its sandbox: once a run's outcome is on its way, the
//! thread frees that runtime and, while the pool has fewer than its spare
//! sandboxes waiting or being made, makes a fresh one and waits again; a
//! thread the pool does not need ends. So runs one after another reuse the
//! same threads, and the work of making the next sandbox happens after the
//! answer, not before it.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex, PoisonError, Weak};

use tokio::sync::OwnedSemaphorePermit;
use tokio::sync::oneshot;

use super::calls::Calls;
use super::engine::{Job, Prepared};
use super::outcome::{Outcome, ScriptError};

/// The native stack a sandbox's thread has beyond what JavaScript may use.
const THREAD_STACK_MARGIN: usize = 2 * 1024 * 1024;

/// What a run hands its sandbox.
pub(crate) struct Start {
    pub(crate) job: Job,
    /// How its tool calls are made.
    pub(crate) calls: Calls,
    pub(crate) cancelled: Arc<AtomicBool>,
    /// Where the outcome goes.
    pub(crate) done: oneshot::Sender<Outcome>,
    /// The run's place among the running scripts, held until it ends.
    pub(crate) permit: OwnedSemaphorePermit,
}

/// The sandboxes waiting for a script.
#[derive(Debug)]
pub(crate) struct Pool {
    ready: Mutex<Vec<Sender<Start>>>,
    /// Sandboxes being made to wait.
    making: AtomicUsize,
    /// Threads running a script.
    running: AtomicUsize,
    /// How many wait at most.
    spare: usize,
    stack_bytes: usize,
}

impl Pool {
    /// A pool keeping `spare` sandboxes waiting (made on first use), whose
    /// scripts may use `stack_bytes` of native stack.
    pub(crate) fn new(spare: usize, stack_bytes: usize) -> Arc<Self> {
        Arc::new(Self {
            ready: Mutex::new(Vec::new()),
            making: AtomicUsize::new(0),
            running: AtomicUsize::new(0),
            spare,
            stack_bytes,
        })
    }

    /// Runs `start` in a waiting sandbox, else in one made now; has spare
    /// sandboxes made when no thread will come back to make them. Fails
    /// when no thread can be had.
    pub(crate) fn run(self: &Arc<Self>, mut start: Start) -> Result<(), String> {
        self.running.fetch_add(1, Ordering::AcqRel);
        loop {
            let waiting = self.waiting().pop();
            let Some(sandbox) = waiting else {
                if let Err(error) = self.spawn(Some(start)) {
                    self.running.fetch_sub(1, Ordering::AcqRel);
                    return Err(error);
                }
                break;
            };
            match sandbox.send(start) {
                Ok(()) => break,
                // That sandbox's thread is gone: the next one.
                Err(mpsc::SendError(back)) => start = back,
            }
        }
        self.refill();
        Ok(())
    }

    fn waiting(&self) -> std::sync::MutexGuard<'_, Vec<Sender<Start>>> {
        self.ready.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Has sandboxes made until `spare` wait, are being made, or will be
    /// made by threads running a script now.
    fn refill(self: &Arc<Self>) {
        loop {
            let coming = self.waiting().len()
                + self.making.load(Ordering::Acquire)
                + self.running.load(Ordering::Acquire);
            if coming >= self.spare {
                return;
            }
            self.making.fetch_add(1, Ordering::AcqRel);
            if let Err(error) = self.spawn(None) {
                self.making.fetch_sub(1, Ordering::AcqRel);
                tracing::warn!(%error, "no thread for a spare code-mode sandbox");
                return;
            }
        }
    }

    /// Whether a thread that just ran a script should make a sandbox and
    /// wait (then it counts as making one).
    fn keeps_thread(&self) -> bool {
        let waiting = self.waiting();
        let making = self.making.load(Ordering::Acquire);
        if waiting.len() + making >= self.spare {
            return false;
        }
        self.making.fetch_add(1, Ordering::AcqRel);
        true
    }

    /// A thread that makes a sandbox, then runs `start`, or waits in the
    /// pool for one when `start` is `None`; then serves again while the
    /// pool wants it.
    fn spawn(self: &Arc<Self>, start: Option<Start>) -> Result<(), String> {
        let pool = Arc::downgrade(self);
        std::thread::Builder::new()
            .name("mcp-code-mode".into())
            .stack_size(self.stack_bytes + THREAD_STACK_MARGIN)
            .spawn(move || serve(&pool, start))
            .map(drop)
            .map_err(|error| {
                ScriptError::Sandbox(format!("no thread for the script: {error}")).to_string()
            })
    }
}

/// A sandbox thread's life: a fresh sandbox for each script, as long as
/// the pool wants the thread.
fn serve(pool: &Weak<Pool>, mut first: Option<Start>) {
    loop {
        let prepared = Prepared::new();
        let start = match first.take() {
            Some(start) => start,
            None => match wait(pool) {
                Some(start) => start,
                None => return,
            },
        };
        let Start {
            job,
            calls,
            cancelled,
            done,
            permit,
        } = start;
        let outcome = match &prepared {
            Ok(prepared) => prepared.run(job, calls, cancelled),
            Err(error) => Outcome {
                result: Err(error.clone()),
                logs: Vec::new(),
                calls: 0,
            },
        };
        drop(permit);
        let _ = done.send(outcome);
        // The spent runtime is freed after the answer has gone.
        drop(prepared);
        let Some(pool) = pool.upgrade() else {
            return;
        };
        pool.running.fetch_sub(1, Ordering::AcqRel);
        if !pool.keeps_thread() {
            return;
        }
    }
}

/// Waits in `pool` for a script; `None` once the pool is gone.
fn wait(pool: &Weak<Pool>) -> Option<Start> {
    let (sender, receiver) = mpsc::channel();
    {
        let pool = pool.upgrade()?;
        pool.waiting().push(sender);
        pool.making.fetch_sub(1, Ordering::AcqRel);
    }
    receiver.recv().ok()
}
