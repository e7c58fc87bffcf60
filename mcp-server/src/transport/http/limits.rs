//! Keeps the endpoint bounded under abuse: a cap on live sessions and a cap
//! on the requests in flight per session. The endpoint admits each request
//! ([`Limits::admit_message`], [`Limits::admit_other`]) and settles its
//! [`Ticket`] against the response ([`Limits::settle`]).
//!
//! At the session cap, a new `initialize` is served by ending the session
//! idle longest (never-used sessions first, busy ones never; see
//! [`eviction`]); 503 remains for a server whose every session is busy.
//! Idle sessions are ended by rmcp's session worker (its keep-alive), which
//! removes them from the session manager, so their id then answers 404;
//! sessions never used after `initialize` are ended sooner by a sweep.

mod eviction;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Once, PoisonError};
use std::time::{Duration, Instant};

use axum::response::Response;
use http::StatusCode;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use self::eviction::{Book, Busy, Reason, Tally, Victim};
use super::HttpConfig;
use super::jsonrpc::jsonrpc_error;

/// The implementation-defined server error used for "over a limit".
const SERVER_BUSY: i64 = -32000;
/// The most sessions one tick of the sweep ends or checks, per kind of work.
const SWEEP_BATCH: usize = 512;
/// How long past the idle timeout the sweep checks whether rmcp ended a
/// session the book still counts.
const STALE_MARGIN: Duration = Duration::from_secs(5);

/// The limits of one endpoint and what they count.
pub(super) struct Limits {
    sessions: Arc<LocalSessionManager>,
    stateless: bool,
    max_sessions: usize,
    max_pending: usize,
    /// How long a session never used after `initialize` lives.
    unused_grace: Duration,
    /// How long rmcp keeps an idle session.
    idle_timeout: Duration,
    /// `initialize` requests between the cap check and their session's
    /// creation, counted against the cap so concurrent ones cannot overshoot.
    initializing: AtomicUsize,
    /// Set while new sessions are refused, so the refusal is logged once.
    refusing: AtomicBool,
    /// Requests in flight per session id (absent when none).
    pending: Mutex<HashMap<Arc<str>, usize>>,
    /// What each session is doing, for choosing which one gives way.
    book: Arc<Book>,
    /// Sessions ended, for the log.
    tally: Tally,
    /// Stops the sweep.
    stopped: CancellationToken,
    /// Starts the sweep at the first request (inside the runtime).
    sweeping: Once,
    /// The shared store, whose record of an ended session goes too.
    #[cfg(feature = "redis")]
    store: Option<crate::store::RedisStore>,
}

impl Limits {
    /// The limits of `config` on the sessions of `sessions`.
    pub(super) fn new(sessions: Arc<LocalSessionManager>, config: &HttpConfig) -> Self {
        Self {
            sessions,
            stateless: config.stateless,
            max_sessions: config.max_sessions,
            max_pending: config.max_pending_requests,
            unused_grace: config.unused_session_grace,
            idle_timeout: config.session_idle_timeout,
            initializing: AtomicUsize::new(0),
            refusing: AtomicBool::new(false),
            pending: Mutex::new(HashMap::new()),
            book: Arc::new(Book::default()),
            tally: Tally::default(),
            stopped: config.cancellation.clone(),
            sweeping: Once::new(),
            #[cfg(feature = "redis")]
            store: None,
        }
    }

    /// Sessions are shared through `store`: ending one here also ends it
    /// everywhere, unless another replica served it since it went idle
    /// here (see [`crate::store::RedisStore::end_session_idle_for`]).
    #[cfg(feature = "redis")]
    pub(super) fn shared_through(mut self, store: Option<crate::store::RedisStore>) -> Self {
        self.store = store;
        self
    }

    /// How many sessions rmcp holds.
    async fn live(&self) -> usize {
        self.sessions.sessions.read().await.len()
    }

    /// Reserves room for one more session, ending an idle one at the cap;
    /// `None` when every session is busy.
    async fn reserve_session(self: &Arc<Self>) -> Option<SessionReservation> {
        let initializing = self.initializing.fetch_add(1, Ordering::SeqCst) + 1;
        let reservation = SessionReservation(self.clone());
        let live = self.live().await;
        if live + initializing > self.max_sessions && !self.make_room(live).await {
            if !self.refusing.swap(true, Ordering::SeqCst) {
                tracing::warn!(
                    limit = self.max_sessions,
                    live,
                    "refusing new sessions: the live-session limit is reached and \
                     every session has a request in flight or a stream open"
                );
            }
            return None;
        }
        if self.refusing.swap(false, Ordering::SeqCst) {
            tracing::info!(live, "accepting new sessions again");
        }
        Some(reservation)
    }

    /// Ends the session that gives way (see [`eviction`]); `false` when
    /// every session is busy.
    async fn make_room(&self, live: usize) -> bool {
        while let Some(victim) = self.book.pop_victim(Instant::now()) {
            if self.end(victim, Reason::Capacity).await {
                self.tally
                    .log_if_due(Instant::now(), live, self.max_sessions);
                return true;
            }
        }
        false
    }

    /// Ends `victim` if rmcp still holds it (whether it did): its id then
    /// answers 404. With a shared store, its record goes too unless another
    /// replica served it since it went idle here.
    async fn end(&self, victim: Victim, reason: Reason) -> bool {
        let handle = self.sessions.sessions.write().await.remove(&victim.id);
        let Some(handle) = handle else {
            return false;
        };
        if let Err(error) = handle.close().await {
            tracing::debug!(session = %victim.id, %error, "the ended session's worker had stopped");
        }
        self.tally.note(reason, &victim);
        #[cfg(feature = "redis")]
        if let Some(store) = &self.store {
            match store.end_session_idle_for(&victim.id, victim.idle).await {
                Ok(true) => {}
                Ok(false) => tracing::debug!(
                    session = %victim.id,
                    "ended a session here that another replica served since; it lives on there"
                ),
                Err(error) => tracing::debug!(
                    session = %victim.id,
                    %error,
                    "ended a session here; its shared record expires by itself"
                ),
            }
        }
        true
    }

    /// Starts the sweep, once, on the current runtime: it ends unused
    /// sessions past their grace and, with a shared store, sessions beyond
    /// the cap (restored ones are not counted by `initialize`), and drops
    /// what the book counts of sessions rmcp ended. It stops with the
    /// cancellation token or with the endpoint.
    fn start_sweeping(self: &Arc<Self>) {
        if self.stateless {
            return;
        }
        self.sweeping.call_once(|| {
            let limits = Arc::downgrade(self);
            let stopped = self.stopped.clone();
            let period =
                (self.unused_grace / 4).clamp(Duration::from_millis(50), Duration::from_secs(1));
            tokio::spawn(async move {
                let mut ticks = tokio::time::interval(period);
                ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
                loop {
                    tokio::select! {
                        () = stopped.cancelled() => return,
                        _ = ticks.tick() => {}
                    }
                    let Some(limits) = limits.upgrade() else {
                        return;
                    };
                    limits.sweep().await;
                }
            });
        });
    }

    /// One tick of the sweep: bounded work of each kind.
    async fn sweep(&self) {
        let now = Instant::now();
        let grace = self.unused_grace.min(self.idle_timeout);
        for victim in self.book.pop_unused_idle_for(grace, now, SWEEP_BATCH) {
            self.end(victim, Reason::Unused).await;
        }
        let live = self.live().await;
        for _ in 0..live.saturating_sub(self.max_sessions).min(SWEEP_BATCH) {
            let Some(victim) = self.book.pop_victim(Instant::now()) else {
                break;
            };
            self.end(victim, Reason::Capacity).await;
        }
        let stale = self
            .book
            .idle_for(self.idle_timeout + STALE_MARGIN, now, SWEEP_BATCH);
        if !stale.is_empty() {
            let alive: Vec<bool> = {
                let sessions = self.sessions.sessions.read().await;
                stale
                    .iter()
                    .map(|(id, _)| sessions.contains_key(id))
                    .collect()
            };
            for ((id, generation), alive) in stale.into_iter().zip(alive) {
                self.book.settle(&id, generation, alive, now);
            }
        }
        let live = self.live().await;
        self.tally
            .log_if_due(Instant::now(), live, self.max_sessions);
    }

    /// Counts session `id` busy with a request whose response has
    /// `status`, if rmcp holds it though the book does not (restored from a
    /// shared store).
    async fn adopt(&self, id: &Arc<str>, status: StatusCode) -> Option<Busy> {
        if self.stateless || !status.is_success() || self.book.knows(id) {
            return None;
        }
        if !self.sessions.sessions.read().await.contains_key(id) {
            return None;
        }
        Some(self.book.open(id.clone(), true))
    }

    /// Counts one more request in flight for `session`, or `None` at the cap.
    fn begin_request(self: &Arc<Self>, session: Arc<str>) -> Option<PendingRequest> {
        let mut pending = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
        let count = pending.entry(session.clone()).or_insert(0);
        if *count >= self.max_pending {
            // Debug, not warn: a misbehaving client could flood the log.
            tracing::debug!(
                session = %session,
                limit = self.max_pending,
                "refused a request: the session has too many requests in flight"
            );
            return None;
        }
        *count += 1;
        Some(PendingRequest {
            limits: self.clone(),
            session,
        })
    }
}

/// Room for one session while its `initialize` request is served.
struct SessionReservation(Arc<Limits>);

impl Drop for SessionReservation {
    fn drop(&mut self) {
        self.0.initializing.fetch_sub(1, Ordering::SeqCst);
    }
}

/// One request in flight; released when its response body is dropped.
struct PendingRequest {
    limits: Arc<Limits>,
    session: Arc<str>,
}

impl Drop for PendingRequest {
    fn drop(&mut self) {
        let mut pending = self
            .limits
            .pending
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = pending.get_mut(&self.session) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                pending.remove(&self.session);
            }
        }
    }
}

/// What a request holds of the limits from its admission to its response:
/// the room reserved for the session its `initialize` opens, its place
/// among its session's requests in flight, and its session's busy mark.
pub(super) struct Ticket {
    /// The session the request names, when the endpoint keeps sessions.
    session: Option<Arc<str>>,
    reservation: Option<SessionReservation>,
    pending: Option<PendingRequest>,
    busy: Option<Busy>,
    /// Whether the request ends its session (`DELETE`).
    ends_session: bool,
    /// Whether a success uses the session (a `POST` of it answered 200 was
    /// a request, not a notification).
    success_uses: bool,
}

impl Ticket {
    /// Whether the request may open a session (an `initialize` admitted),
    /// whose id the response names.
    pub(super) fn opens_session(&self) -> bool {
        self.reservation.is_some()
    }
}

/// What a response holds until its body is sent (or abandoned).
pub(super) struct Held {
    _pending: Option<PendingRequest>,
    _busy: Option<Busy>,
}

/// Why a `POST` is not admitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Refusal {
    /// An `initialize` at the session cap, every session busy: 503.
    SessionsBusy,
    /// A session at its cap of requests in flight: 429.
    TooManyRequests,
}

impl Limits {
    /// Whether the endpoint keeps sessions (it is not stateless).
    pub(super) fn keeps_sessions(&self) -> bool {
        !self.stateless
    }

    /// Admits a JSON-RPC `POST` of `session` (`initialize` when its body is
    /// one), or says why not. A `POST` of a session counts among its
    /// requests in flight while it is answered (a notification only for the
    /// moment rmcp takes to accept it); at the cap, `is_request` tells a
    /// request, refused, from a notification or response, always let
    /// through (a client at its cap must still be able to cancel).
    pub(super) async fn admit_message(
        self: &Arc<Self>,
        session: Option<Arc<str>>,
        initialize: bool,
        is_request: impl FnOnce() -> bool,
    ) -> Result<Ticket, Refusal> {
        self.start_sweeping();
        let mut reservation = None;
        let mut pending = None;
        match &session {
            None if initialize && !self.stateless => {
                reservation = Some(self.reserve_session().await.ok_or(Refusal::SessionsBusy)?);
            }
            Some(session) => {
                pending = self.begin_request(session.clone());
                if pending.is_none() && is_request() {
                    return Err(Refusal::TooManyRequests);
                }
            }
            None => {}
        }
        let session = session.filter(|_| !self.stateless);
        let busy = session
            .as_ref()
            .and_then(|session| self.book.begin(session, false));
        Ok(Ticket {
            success_uses: session.is_some(),
            session,
            reservation,
            pending,
            busy,
            ends_session: false,
        })
    }

    /// The answer to a `POST` refused for `refusal`, with its JSON-RPC `id`.
    pub(super) fn refusal_answer(&self, refusal: Refusal, id: Value) -> Response {
        match refusal {
            Refusal::SessionsBusy => jsonrpc_error(
                StatusCode::SERVICE_UNAVAILABLE,
                id,
                SERVER_BUSY,
                &format!(
                    "Server busy: {} live sessions is this server's limit and \
                     each has a request in flight or a stream open; retry later",
                    self.max_sessions
                ),
            ),
            Refusal::TooManyRequests => jsonrpc_error(
                StatusCode::TOO_MANY_REQUESTS,
                id,
                SERVER_BUSY,
                &format!(
                    "Too many requests: {} requests in flight is this \
                     server's limit per session; retry when one completes",
                    self.max_pending
                ),
            ),
        }
    }

    /// Admits any other request of `session`: a `GET` (a stream, so the
    /// session counts as used) or a `DELETE` (the session is forgotten once
    /// ended) is only counted as the session's activity.
    pub(super) fn admit_other(
        self: &Arc<Self>,
        session: Option<Arc<str>>,
        method: &http::Method,
    ) -> Ticket {
        self.start_sweeping();
        let session = session.filter(|_| !self.stateless);
        let busy = session
            .as_ref()
            .and_then(|session| self.book.begin(session, method == http::Method::GET));
        Ticket {
            session,
            reservation: None,
            pending: None,
            busy,
            ends_session: method == http::Method::DELETE,
            success_uses: false,
        }
    }

    /// Settles `ticket` against the response its request got (its `status`
    /// and the session id it names): the session an `initialize` opened is
    /// recorded, an ended one forgotten, one rmcp restored from a shared
    /// store adopted. What the response must hold until it is sent, if
    /// anything.
    pub(super) async fn settle(
        &self,
        ticket: Ticket,
        status: StatusCode,
        named: Option<Arc<str>>,
    ) -> Option<Held> {
        let Ticket {
            session,
            reservation,
            pending,
            mut busy,
            ends_session,
            success_uses,
        } = ticket;
        if success_uses
            && status == StatusCode::OK
            && let Some(busy) = &mut busy
        {
            busy.mark_used();
        }
        if reservation.is_some()
            && status.is_success()
            && let Some(opened) = named
        {
            busy = Some(self.book.open(opened, false));
        }
        drop(reservation);
        if let Some(session) = &session {
            if ends_session && status.is_success() {
                self.book.forget(session);
                return None;
            }
            if busy.is_none() {
                busy = self.adopt(session, status).await;
            }
        }
        if pending.is_none() && busy.is_none() {
            return None;
        }
        Some(Held {
            _pending: pending,
            _busy: busy,
        })
    }
}

#[cfg(test)]
mod tests;
