//! This replica among others sharing a task store: its name, its
//! heartbeat, and the commands other replicas send it about the tasks it
//! runs (a cancellation, answers to questions).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use futures_util::StreamExt;
use futures_util::future::BoxFuture;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use crate::store::task::{TaskCommand, TaskStore};

/// What carries out the commands sent to this replica.
pub(crate) trait Obey: Send + Sync {
    /// Carries out `command` for a task this replica runs.
    fn obey(&self, command: TaskCommand) -> BoxFuture<'_, ()>;
}

/// This replica's membership of a task store.
pub(crate) struct Membership {
    pub(crate) store: Arc<dyn TaskStore>,
    /// This replica's name in the store.
    pub(crate) replica: String,
    /// How long the replica counts as alive after a beat.
    pub(crate) heartbeat: Duration,
    /// `true` while this replica beats and hears commands.
    listening: watch::Sender<bool>,
    started: AtomicBool,
    stop: CancellationToken,
}

impl Membership {
    pub(crate) fn new(store: Arc<dyn TaskStore>, heartbeat: Duration) -> Self {
        Self {
            store,
            replica: crate::store::instance_name(),
            heartbeat,
            listening: watch::Sender::new(false),
            started: AtomicBool::new(false),
            stop: CancellationToken::new(),
        }
    }

    /// Starts beating and carrying out commands for `target` (once, on the
    /// current tokio runtime; without one, tasks cannot start and say so).
    pub(crate) fn start(&self, target: Weak<dyn Obey>) {
        if self.started.swap(true, Ordering::AcqRel) {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            tracing::error!("the task engine needs a tokio runtime");
            return;
        };
        runtime.spawn(serve(
            target,
            self.store.clone(),
            self.replica.clone(),
            self.heartbeat,
            self.listening.clone(),
            self.stop.clone(),
        ));
    }

    /// Whether this replica beats and hears commands within `wait`.
    pub(crate) async fn listening_within(&self, wait: Duration) -> bool {
        let mut listening = self.listening.subscribe();
        matches!(
            tokio::time::timeout(wait, listening.wait_for(|up| *up)).await,
            Ok(Ok(_))
        )
    }
}

impl Drop for Membership {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

/// Beats every third of the heartbeat TTL and carries out the commands
/// sent to this replica; after a store failure it tries again every beat,
/// so service resumes when the store returns. Ends with the membership.
async fn serve(
    target: Weak<dyn Obey>,
    store: Arc<dyn TaskStore>,
    replica: String,
    heartbeat: Duration,
    listening: watch::Sender<bool>,
    stop: CancellationToken,
) {
    let every = (heartbeat / 3).max(Duration::from_millis(10));
    loop {
        listening.send_replace(false);
        let joined = async {
            store.beat(&replica, heartbeat).await?;
            store.commands(&replica).await
        };
        let mut commands = match joined.await {
            Ok(commands) => commands,
            Err(error) => {
                tracing::warn!(%error, %replica, "cannot join the task store; trying again");
                tokio::select! {
                    () = stop.cancelled() => return,
                    () = tokio::time::sleep(every) => continue,
                }
            }
        };
        listening.send_replace(true);
        let mut beats = tokio::time::interval(every);
        beats.tick().await;
        loop {
            tokio::select! {
                () = stop.cancelled() => return,
                _ = beats.tick() => {
                    if let Err(error) = store.beat(&replica, heartbeat).await {
                        tracing::warn!(%error, %replica, "cannot renew this replica's heartbeat");
                    }
                }
                command = commands.next() => match command {
                    Some(command) => {
                        let Some(target) = target.upgrade() else { return };
                        target.obey(command).await;
                    }
                    None => {
                        tracing::warn!(%replica, "lost the task command subscription; joining again");
                        break;
                    }
                },
            }
        }
    }
}
