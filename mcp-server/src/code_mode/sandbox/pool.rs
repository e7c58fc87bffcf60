//! Sandboxes made ahead of their run: a few threads, each holding a fresh
//! runtime in which the prelude has made the globals, wait for one script
//! each. A run takes a waiting sandbox (or has one made when none waits)
//! and another is made to take its place, so a caller does not wait for a
//! runtime to start, and every script still gets a sandbox no script has
//! touched.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, PoisonError, Weak};

use tokio::sync::OwnedSemaphorePermit;
use tokio::sync::mpsc::UnboundedSender;
use tokio::sync::oneshot;

use super::engine::{Job, Prepared};
use super::outcome::{Outcome, ScriptError};
use super::{CallReply, CallRequest};

/// The native stack a sandbox's thread has beyond what JavaScript may use.
const THREAD_STACK_MARGIN: usize = 2 * 1024 * 1024;

/// What a run hands its sandbox.
pub(crate) struct Start {
    pub(crate) job: Job,
    pub(crate) requests: UnboundedSender<CallRequest>,
    pub(crate) replies: Receiver<CallReply>,
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
            spare,
            stack_bytes,
        })
    }

    /// Runs `start` in a waiting sandbox, else in one made now, then has a
    /// sandbox made to wait in its place. Fails when no thread can be had.
    pub(crate) fn run(self: &Arc<Self>, mut start: Start) -> Result<(), String> {
        loop {
            let waiting = self
                .ready
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .pop();
            let Some(sandbox) = waiting else {
                self.spawn(Some(start))?;
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

    /// Has sandboxes made until `spare` wait or are being made.
    fn refill(self: &Arc<Self>) {
        loop {
            let waiting = self
                .ready
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .len();
            let making = self.making.load(Ordering::Acquire);
            if waiting + making >= self.spare {
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

    /// A thread that makes a sandbox, then runs `start`, or waits in the
    /// pool for one when `start` is `None`.
    fn spawn(self: &Arc<Self>, start: Option<Start>) -> Result<(), String> {
        let pool = Arc::downgrade(self);
        std::thread::Builder::new()
            .name("mcp-code-mode".into())
            .stack_size(self.stack_bytes + THREAD_STACK_MARGIN)
            .spawn(move || {
                let prepared = Prepared::new();
                let start = match start {
                    Some(start) => start,
                    None => match wait(&pool) {
                        Some(start) => start,
                        None => return,
                    },
                };
                let outcome = match prepared {
                    Ok(prepared) => {
                        prepared.run(start.job, start.requests, &start.replies, start.cancelled)
                    }
                    Err(error) => Outcome {
                        result: Err(error),
                        logs: Vec::new(),
                        calls: 0,
                    },
                };
                drop(start.permit);
                let _ = start.done.send(outcome);
            })
            .map(drop)
            .map_err(|error| {
                ScriptError::Sandbox(format!("no thread for the script: {error}")).to_string()
            })
    }
}

/// Waits in `pool` for a script; `None` once the pool is gone.
fn wait(pool: &Weak<Pool>) -> Option<Start> {
    let (sender, receiver) = mpsc::channel();
    {
        let pool = pool.upgrade()?;
        pool.ready
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(sender);
        pool.making.fetch_sub(1, Ordering::AcqRel);
    }
    receiver.recv().ok()
}
