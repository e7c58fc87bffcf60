//! Task records in the memory of one process: the default, for a server
//! that runs as a single replica.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use futures_util::future::BoxFuture;
use futures_util::stream::{self, BoxStream, StreamExt};
use tokio::sync::mpsc;

use super::{TaskCommand, TaskRecord, TaskStore};
use crate::store::StoreError;

/// Records, heartbeats and command listeners of one process.
#[derive(Debug, Default)]
pub(crate) struct MemoryTaskStore {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    records: HashMap<String, (TaskRecord, Instant)>,
    /// Task ids in creation order.
    order: Vec<String>,
    alive: HashMap<String, Instant>,
    listeners: HashMap<String, mpsc::UnboundedSender<TaskCommand>>,
}

impl Inner {
    /// Forgets expired records.
    fn sweep(&mut self) {
        let now = Instant::now();
        self.records.retain(|_, (_, expires)| *expires > now);
        let records = &self.records;
        self.order.retain(|id| records.contains_key(id));
    }
}

impl MemoryTaskStore {
    fn inner(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl TaskStore for MemoryTaskStore {
    fn put<'a>(&'a self, record: &'a TaskRecord) -> BoxFuture<'a, Result<bool, StoreError>> {
        let expires = Instant::now() + Duration::from_millis(record.ttl_ms);
        let mut inner = self.inner();
        inner.sweep();
        let written = match inner.records.get(&record.id) {
            Some((stored, _)) if stored.status.is_terminal() => false,
            Some(_) => true,
            None => {
                inner.order.push(record.id.clone());
                true
            }
        };
        if written {
            inner
                .records
                .insert(record.id.clone(), (record.clone(), expires));
        }
        Box::pin(async move { Ok(written) })
    }

    fn get<'a>(
        &'a self,
        task_id: &'a str,
    ) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>> {
        let mut inner = self.inner();
        inner.sweep();
        let record = inner.records.get(task_id).map(|(record, _)| record.clone());
        Box::pin(async { Ok(record) })
    }

    fn list<'a>(&'a self, owner: &'a str) -> BoxFuture<'a, Result<Vec<TaskRecord>, StoreError>> {
        let mut inner = self.inner();
        inner.sweep();
        let listed = inner
            .order
            .iter()
            .filter_map(|id| inner.records.get(id))
            .map(|(record, _)| record)
            .filter(|record| record.owner.as_deref() == Some(owner))
            .cloned()
            .collect();
        Box::pin(async { Ok(listed) })
    }

    fn count<'a>(&'a self, owner: &'a str) -> BoxFuture<'a, Result<usize, StoreError>> {
        let mut inner = self.inner();
        inner.sweep();
        let count = inner
            .records
            .values()
            .filter(|(record, _)| record.owner.as_deref() == Some(owner))
            .count();
        Box::pin(async move { Ok(count) })
    }

    fn beat<'a>(
        &'a self,
        replica: &'a str,
        ttl: Duration,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        self.inner()
            .alive
            .insert(replica.to_owned(), Instant::now() + ttl);
        Box::pin(async { Ok(()) })
    }

    fn is_alive<'a>(&'a self, replica: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
        let alive = self
            .inner()
            .alive
            .get(replica)
            .is_some_and(|expires| *expires > Instant::now());
        Box::pin(async move { Ok(alive) })
    }

    fn seal_secret(&self) -> BoxFuture<'_, Result<Option<[u8; 32]>, StoreError>> {
        Box::pin(async { Ok(None) })
    }

    fn send<'a>(
        &'a self,
        replica: &'a str,
        command: &'a TaskCommand,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        let sent = self
            .inner()
            .listeners
            .get(replica)
            .is_some_and(|listener| listener.send(command.clone()).is_ok());
        Box::pin(async move { Ok(sent) })
    }

    fn commands<'a>(
        &'a self,
        replica: &'a str,
    ) -> BoxFuture<'a, Result<BoxStream<'static, TaskCommand>, StoreError>> {
        let (sender, receiver) = mpsc::unbounded_channel();
        self.inner().listeners.insert(replica.to_owned(), sender);
        let commands = stream::unfold(receiver, |mut receiver| async move {
            receiver.recv().await.map(|command| (command, receiver))
        })
        .boxed();
        Box::pin(async move { Ok(commands) })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::store::task::TaskState;

    fn record(id: &str, owner: &str, ttl_ms: u64) -> TaskRecord {
        TaskRecord {
            id: id.into(),
            owner: Some(owner.into()),
            status: TaskState::Working,
            status_message: None,
            created_at: String::new(),
            last_updated_at: String::new(),
            created_us: 0,
            ttl_ms,
            poll_interval_ms: 100,
            result: None,
            error: None,
            input_requests: BTreeMap::new(),
            runner: "r1".into(),
        }
    }

    #[tokio::test]
    async fn lists_a_sessions_live_tasks_in_creation_order() {
        let store = MemoryTaskStore::default();
        store.put(&record("b", "s1", 60_000)).await.unwrap();
        store.put(&record("a", "s1", 60_000)).await.unwrap();
        store.put(&record("c", "s2", 60_000)).await.unwrap();
        store.put(&record("gone", "s1", 0)).await.unwrap();
        let mut ended = record("a", "s1", 60_000);
        ended.status = TaskState::Cancelled;
        assert!(store.put(&ended).await.unwrap());
        assert!(!store.put(&record("a", "s1", 60_000)).await.unwrap());
        assert_eq!(
            store.get("a").await.unwrap().unwrap().status,
            TaskState::Cancelled
        );
        let ids: Vec<String> = store
            .list("s1")
            .await
            .unwrap()
            .into_iter()
            .map(|record| record.id)
            .collect();
        assert_eq!(ids, ["b", "a"]);
        assert_eq!(store.count("s1").await.unwrap(), 2);
        assert_eq!(store.count("s3").await.unwrap(), 0);
        assert!(store.get("gone").await.unwrap().is_none());
    }

    #[tokio::test]
    async fn commands_reach_only_a_listening_replica() {
        let store = MemoryTaskStore::default();
        let cancel = TaskCommand::Cancel {
            task_id: "t".into(),
        };
        assert!(!store.send("r1", &cancel).await.unwrap());
        let mut commands = store.commands("r1").await.unwrap();
        assert!(store.send("r1", &cancel).await.unwrap());
        assert_eq!(commands.next().await, Some(cancel));
        assert!(!store.is_alive("r1").await.unwrap());
        store.beat("r1", Duration::from_secs(5)).await.unwrap();
        assert!(store.is_alive("r1").await.unwrap());
    }
}
