//! Which session gives way when the live-session cap is reached, as trusted
//! servers degrade (a proxy drops its oldest idle connection, a cache evicts
//! the least recently used entry) instead of refusing everyone new.
//!
//! The [`Book`] knows, for every session this endpoint opened or served,
//! whether an HTTP request of it is being answered (a call in flight, an SSE
//! stream open: the response body is alive), since when it is idle, and
//! whether it ever made a request after `initialize`. At the cap, a new
//! `initialize` ends the session idle longest among those never used, else
//! among the used ones; only busy sessions are never ended, so 503 remains
//! for a server whose every session is busy. Unused sessions are also ended
//! by the endpoint's sweep once idle past a short grace.
//!
//! The book and rmcp's session map are reconciled lazily: a victim rmcp
//! already ended is skipped, and entries idle past the idle timeout are
//! checked against rmcp's map by the sweep (forgotten when rmcp ended them,
//! kept when rmcp saw traffic the book did not, server-sent messages say).

use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// A session's place in an idle queue: since when it is idle, then a
/// sequence number that orders equal instants and names the entry.
type IdleKey = (Instant, u64);

/// What the book holds of one session.
#[derive(Debug)]
struct Entry {
    /// HTTP requests of the session whose response is not over.
    busy: usize,
    /// Whether the session made a request (or opened a stream) after
    /// `initialize`.
    used: bool,
    /// Its key in the idle queue of its kind, while `busy` is zero.
    idle: Option<IdleKey>,
    /// Tells this entry from an earlier one of the same id.
    generation: u64,
}

#[derive(Debug, Default)]
struct Ledger {
    entries: HashMap<Arc<str>, Entry>,
    /// Idle sessions never used, longest idle first.
    unused: BTreeSet<(IdleKey, Arc<str>)>,
    /// Idle sessions used, longest idle first.
    used: BTreeSet<(IdleKey, Arc<str>)>,
    next: u64,
}

impl Ledger {
    fn key(&mut self, now: Instant) -> IdleKey {
        self.next += 1;
        (now, self.next)
    }

    fn queue(&mut self, used: bool) -> &mut BTreeSet<(IdleKey, Arc<str>)> {
        if used {
            &mut self.used
        } else {
            &mut self.unused
        }
    }

    /// Puts session `id` (idle, `used` or not) in its queue from `now`.
    fn enqueue(&mut self, id: &Arc<str>, used: bool, now: Instant) -> IdleKey {
        let key = self.key(now);
        self.queue(used).insert((key, id.clone()));
        key
    }

    /// Takes session `id` out of its idle queue, if it is in one.
    fn dequeue(&mut self, id: &Arc<str>, used: bool, key: Option<IdleKey>) {
        if let Some(key) = key {
            self.queue(used).remove(&(key, id.clone()));
        }
    }

    /// Removes the entry of `id` from the book and its queue.
    fn remove(&mut self, id: &Arc<str>) -> Option<Entry> {
        let entry = self.entries.remove(id)?;
        self.dequeue(id, entry.used, entry.idle);
        Some(entry)
    }
}

/// The activity of the endpoint's sessions (see the module docs).
#[derive(Debug, Default)]
pub(super) struct Book {
    ledger: Mutex<Ledger>,
}

/// A session the book gave up to be ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Victim {
    pub(super) id: Arc<str>,
    /// Whether it never made a request after `initialize`.
    pub(super) unused: bool,
    /// How long it had been idle.
    pub(super) idle: Duration,
}

/// An HTTP request of a session being answered; the session is idle again
/// once every such guard is dropped (with the response body).
#[derive(Debug)]
pub(super) struct Busy {
    book: Arc<Book>,
    id: Arc<str>,
    generation: u64,
    /// Whether the request turned out to use the session.
    uses: bool,
}

impl Busy {
    /// Marks the session used once the request is over (its response
    /// showed a request, not a notification).
    pub(super) fn mark_used(&mut self) {
        self.uses = true;
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.book
            .end(&self.id, self.generation, self.uses, Instant::now());
    }
}

impl Book {
    fn ledger(&self) -> std::sync::MutexGuard<'_, Ledger> {
        self.ledger.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Counts a request of session `id` as begun (`uses` marks the session
    /// used); `None` when the book does not know the session.
    pub(super) fn begin(self: &Arc<Self>, id: &Arc<str>, uses: bool) -> Option<Busy> {
        let mut ledger = self.ledger();
        let entry = ledger.entries.get_mut(id)?;
        let (was_used, idle) = (entry.used, entry.idle.take());
        entry.busy += 1;
        entry.used |= uses;
        let generation = entry.generation;
        ledger.dequeue(id, was_used, idle);
        Some(Busy {
            book: self.clone(),
            id: id.clone(),
            generation,
            uses: false,
        })
    }

    /// Records session `id`, busy with the request that revealed it: a new
    /// session (`used` false, its `initialize` being answered) or one rmcp
    /// holds that the book did not know (restored from a shared store).
    /// A session the book knows is only counted busy.
    pub(super) fn open(self: &Arc<Self>, id: Arc<str>, used: bool) -> Busy {
        if let Some(busy) = self.begin(&id, used) {
            return busy;
        }
        let mut ledger = self.ledger();
        ledger.next += 1;
        let generation = ledger.next;
        ledger.entries.insert(
            id.clone(),
            Entry {
                busy: 1,
                used,
                idle: None,
                generation,
            },
        );
        Busy {
            book: self.clone(),
            id,
            generation,
            uses: false,
        }
    }

    /// Ends one request of session `id` (of entry `generation`).
    fn end(&self, id: &Arc<str>, generation: u64, uses: bool, now: Instant) {
        let mut ledger = self.ledger();
        let Some(entry) = ledger.entries.get_mut(id) else {
            return;
        };
        if entry.generation != generation || entry.busy == 0 {
            return;
        }
        entry.used |= uses;
        entry.busy -= 1;
        if entry.busy > 0 {
            return;
        }
        let used = entry.used;
        let key = ledger.enqueue(id, used, now);
        if let Some(entry) = ledger.entries.get_mut(id) {
            entry.idle = Some(key);
        }
    }

    /// Forgets session `id` (ended by `DELETE`).
    pub(super) fn forget(&self, id: &Arc<str>) {
        self.ledger().remove(id);
    }

    /// Whether the book knows session `id`.
    pub(super) fn knows(&self, id: &str) -> bool {
        self.ledger().entries.contains_key(id)
    }

    /// Gives up the session idle longest among those never used, else among
    /// the used ones; `None` when every session is busy.
    pub(super) fn pop_victim(&self, now: Instant) -> Option<Victim> {
        let mut ledger = self.ledger();
        let unused = !ledger.unused.is_empty();
        let ((since, _), id) = ledger.queue(!unused).pop_first()?;
        ledger.entries.remove(&id);
        Some(Victim {
            id,
            unused,
            idle: now.saturating_duration_since(since),
        })
    }

    /// Gives up the unused sessions idle for `grace` or longer, longest
    /// idle first, at most `limit` of them.
    pub(super) fn pop_unused_idle_for(
        &self,
        grace: Duration,
        now: Instant,
        limit: usize,
    ) -> Vec<Victim> {
        let mut ledger = self.ledger();
        let mut victims = Vec::new();
        while victims.len() < limit {
            let Some(((since, _), _)) = ledger.unused.first() else {
                break;
            };
            let idle = now.saturating_duration_since(*since);
            if idle < grace {
                break;
            }
            let Some((_, id)) = ledger.unused.pop_first() else {
                break;
            };
            ledger.entries.remove(&id);
            victims.push(Victim {
                id,
                unused: true,
                idle,
            });
        }
        victims
    }

    /// The sessions idle for `idle` or longer (used ones first, then
    /// unused, each longest idle first), at most `limit`, with their
    /// generation, for [`Book::settle`].
    pub(super) fn idle_for(
        &self,
        idle: Duration,
        now: Instant,
        limit: usize,
    ) -> Vec<(Arc<str>, u64)> {
        let ledger = self.ledger();
        ledger
            .used
            .iter()
            .chain(ledger.unused.iter())
            .filter(|((since, _), _)| now.saturating_duration_since(*since) >= idle)
            .take(limit)
            .filter_map(|(_, id)| {
                let entry = ledger.entries.get(id)?;
                Some((id.clone(), entry.generation))
            })
            .collect()
    }

    /// After checking rmcp's map: a session rmcp ended is forgotten, one it
    /// still holds counts as idle from `now` (rmcp saw traffic the book did
    /// not). An entry that changed since [`Book::idle_for`] is left alone.
    pub(super) fn settle(&self, id: &Arc<str>, generation: u64, alive: bool, now: Instant) {
        let mut ledger = self.ledger();
        let Some(entry) = ledger.entries.get(id) else {
            return;
        };
        if entry.generation != generation || entry.busy > 0 {
            return;
        }
        if !alive {
            ledger.remove(id);
            return;
        }
        let (used, idle) = (entry.used, entry.idle);
        ledger.dequeue(id, used, idle);
        let key = ledger.enqueue(id, used, now);
        if let Some(entry) = ledger.entries.get_mut(id) {
            entry.idle = Some(key);
        }
    }
}

/// Why a session was ended, as the metric and the log line name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Reason {
    /// To admit a new session at the cap.
    Capacity,
    /// Never used, and idle past the grace.
    Unused,
}

impl Reason {
    /// The metric attribute's value.
    #[cfg_attr(not(feature = "otel"), allow(dead_code))]
    pub(super) fn as_str(self) -> &'static str {
        match self {
            Reason::Capacity => "capacity",
            Reason::Unused => "unused",
        }
    }
}

/// At most one log line about ended sessions per this period.
const LOG_PERIOD: Duration = Duration::from_secs(1);

/// Counts ended sessions for the metrics and for a log line per burst.
#[derive(Debug)]
pub(super) struct Tally {
    /// Ended to admit a new session, since the last line.
    capacity: AtomicU64,
    /// Of those, sessions never used.
    capacity_unused: AtomicU64,
    /// Ended after the unused grace, since the last line.
    unused: AtomicU64,
    /// When the last line was written.
    logged: Mutex<Option<Instant>>,
}

impl Default for Tally {
    fn default() -> Self {
        Self {
            capacity: AtomicU64::new(0),
            capacity_unused: AtomicU64::new(0),
            unused: AtomicU64::new(0),
            logged: Mutex::new(None),
        }
    }
}

impl Tally {
    /// Counts one ended session.
    pub(super) fn note(&self, reason: Reason, victim: &Victim) {
        match reason {
            Reason::Capacity => {
                self.capacity.fetch_add(1, Ordering::Relaxed);
                if victim.unused {
                    self.capacity_unused.fetch_add(1, Ordering::Relaxed);
                }
            }
            Reason::Unused => {
                self.unused.fetch_add(1, Ordering::Relaxed);
            }
        }
        #[cfg(feature = "otel")]
        crate::telemetry::metrics::record_session_eviction(reason.as_str());
    }

    /// Writes the line of the sessions ended since the last one, unless a
    /// line was written less than a second ago (the next call writes it).
    pub(super) fn log_if_due(&self, now: Instant, live: usize, limit: usize) {
        let mut logged = self.logged.lock().unwrap_or_else(PoisonError::into_inner);
        if logged.is_some_and(|at| now.saturating_duration_since(at) < LOG_PERIOD) {
            return;
        }
        let capacity = self.capacity.swap(0, Ordering::Relaxed);
        let capacity_unused = self.capacity_unused.swap(0, Ordering::Relaxed);
        let unused = self.unused.swap(0, Ordering::Relaxed);
        if capacity + unused == 0 {
            return;
        }
        *logged = Some(now);
        if capacity > 0 {
            tracing::warn!(
                ended = capacity + unused,
                to_admit_new = capacity,
                never_used = capacity_unused,
                unused_expired = unused,
                live,
                limit,
                "ended idle sessions to admit new ones at the live-session limit \
                 (their ids now answer 404)"
            );
        } else {
            tracing::info!(
                ended = unused,
                live,
                "ended sessions never used after initialize, past their grace"
            );
        }
    }
}

#[cfg(test)]
mod tests;
