//! The tool calls of one run, made and polled on the sandbox's own thread
//! inside the server's runtime: a tool that answers at once is answered
//! with no other thread involved, and one that waits (on I/O, a timer, a
//! task) wakes this thread when it is done. The thread sleeps only while
//! every call it made is waiting, until the first one is done, the run is
//! cancelled, or its deadline passes.

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll, Wake, Waker};
use std::thread::Thread;
use std::time::Instant;

use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;
use mcp_core::BoxFuture;
use tokio::runtime::Handle;
use tokio::sync::oneshot;

use super::{CallReply, CallRequest, Caller};

/// What a run needs to make its calls.
pub(crate) struct Calls {
    caller: Caller,
    /// How many calls run at once; later ones wait their turn.
    at_once: usize,
    /// The server's runtime, which the calls run inside.
    runtime: Handle,
    /// Ends (its sender dropped) when the run is cancelled.
    cancel: oneshot::Receiver<()>,
    /// The calls the script has asked for so far, for whoever answers
    /// when the run does not stop in time.
    asked: Arc<AtomicUsize>,
}

impl Calls {
    /// Calls made by `caller`, `at_once` at a time, inside `runtime`; the
    /// run is cancelled when `cancel`'s sender goes, and `asked` counts the
    /// calls asked for.
    pub(crate) fn new(
        caller: Caller,
        at_once: usize,
        runtime: Handle,
        cancel: oneshot::Receiver<()>,
        asked: Arc<AtomicUsize>,
    ) -> Self {
        Self {
            caller,
            at_once: at_once.max(1),
            runtime,
            cancel,
            asked,
        }
    }
}

/// What waiting on the calls ended with.
pub(super) enum Waited {
    /// A call is done.
    Reply(CallReply),
    /// The run was cancelled.
    Cancelled,
    /// The deadline passed first.
    Deadline,
}

/// The calls of a run under way on this thread.
pub(super) struct InFlight {
    calls: Calls,
    running: FuturesUnordered<BoxFuture<'static, CallReply>>,
    queued: VecDeque<CallRequest>,
    /// Wakes this thread.
    waker: Waker,
}

/// Unparks the thread that polls the calls.
struct Unpark(Thread);

impl Wake for Unpark {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}

impl InFlight {
    /// The calls of a run on the current thread.
    pub(super) fn new(calls: Calls) -> Self {
        Self {
            calls,
            running: FuturesUnordered::new(),
            queued: VecDeque::new(),
            waker: Arc::new(Unpark(std::thread::current())).into(),
        }
    }

    /// Asks for the call `request` (started at once when fewer than the
    /// bound are running, else in turn).
    pub(super) fn push(&mut self, request: CallRequest) {
        self.calls.asked.fetch_add(1, Ordering::Relaxed);
        self.queued.push_back(request);
    }

    /// The reply of a call that is done now, if one is (without waiting).
    pub(super) fn ready(&mut self) -> Option<CallReply> {
        let _runtime = self.calls.runtime.enter();
        while self.running.len() < self.calls.at_once {
            let Some(request) = self.queued.pop_front() else {
                break;
            };
            self.running.push((self.calls.caller)(request));
        }
        let mut cx = Context::from_waker(&self.waker);
        match self.running.poll_next_unpin(&mut cx) {
            Poll::Ready(reply) => reply,
            Poll::Pending => None,
        }
    }

    /// Waits until a call is done, the run is cancelled or `deadline`
    /// passes.
    pub(super) fn wait(&mut self, deadline: Instant) -> Waited {
        loop {
            if let Some(reply) = self.ready() {
                return Waited::Reply(reply);
            }
            if self.cancelled() {
                return Waited::Cancelled;
            }
            let now = Instant::now();
            if now >= deadline {
                return Waited::Deadline;
            }
            // Woken by a call, the cancellation, or the time; a spurious
            // wake-up only polls again.
            std::thread::park_timeout(deadline - now);
        }
    }

    /// Whether the run was cancelled (and, if not, this thread is woken
    /// when it is).
    fn cancelled(&mut self) -> bool {
        let mut cx = Context::from_waker(&self.waker);
        Pin::new(&mut self.calls.cancel).poll(&mut cx).is_ready()
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        // Calls still running are cancelled here, inside the runtime their
        // resources belong to.
        let _runtime = self.calls.runtime.enter();
        self.running.clear();
    }
}
