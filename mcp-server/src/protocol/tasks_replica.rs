//! This replica among others sharing a task store: its name, its
//! heartbeat, and the commands other replicas send it about the tasks it
//! runs (a cancellation, answers to questions).

use std::hash::{BuildHasher, RandomState};
use std::sync::{Arc, Weak};
use std::time::Duration;

use futures_util::StreamExt;

use super::tasks::Tasks;
use crate::store::tasks::unix_ms;

/// A name no other replica has: random, with the process id for people
/// reading the store.
pub(crate) fn replica_name() -> String {
    let random = RandomState::new().hash_one(unix_ms());
    format!("{}-{random:016x}", std::process::id())
}

/// Starts beating and listening for `tasks` (on the current tokio runtime;
/// without one, tasks cannot start and say so).
pub(crate) fn start(tasks: &Arc<Tasks>) {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        tracing::error!("the task engine needs a tokio runtime");
        return;
    };
    runtime.spawn(serve(Arc::downgrade(tasks)));
}

/// Beats every third of the heartbeat TTL and carries out the commands
/// sent to this replica; after a store failure it tries again every beat,
/// so service resumes when the store returns. Ends with the engine.
async fn serve(engine: Weak<Tasks>) {
    let Some((store, replica, heartbeat, stop, listening)) = engine.upgrade().map(|tasks| {
        (
            tasks.store.clone(),
            tasks.replica.clone(),
            tasks.heartbeat,
            tasks.stop.clone(),
            tasks.listening.clone(),
        )
    }) else {
        return;
    };
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
                        let Some(tasks) = engine.upgrade() else { return };
                        tasks.obey(command).await;
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
