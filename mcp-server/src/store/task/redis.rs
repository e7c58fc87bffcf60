//! Task records in Redis, so that any replica answers for any task.
//!
//! Layout, under the store's prefix (`mcp:` by default):
//!
//! | key or channel | holds | expires |
//! |---|---|---|
//! | `task:{id}` | the [`TaskRecord`] as JSON | the task's TTL after its last change |
//! | `tasks:{session}` | sorted set of the session's task ids, scored by creation time (µs since the epoch) | the longest TTL of its tasks; ids of expired records are dropped on read |
//! | `replica:{replica}` | `1` while the replica beats | its heartbeat TTL |
//! | channel `replica:{replica}:tasks` | [`TaskCommand`]s as JSON for the replica running a task | |
//! | channel `tasks:ended` | a [`TaskCommand::Ended`] as JSON whenever a task ends, for every replica | |
//! | `request-state-key` | the secret (hex) sealing the `requestState` of 2026-07-28 input rounds, so a round begun on one replica continues on another | never |

use std::time::Duration;

use futures_util::future::BoxFuture;
use futures_util::stream::{BoxStream, StreamExt};
use redis::AsyncCommands;

use super::{TaskCommand, TaskRecord, TaskStore};
use crate::store::redis_store::RedisStore;
use crate::store::{StoreError, hex, unhex};

/// How long subscribing to a replica's command channel may take.
const SUBSCRIBE_TIMEOUT: Duration = Duration::from_secs(5);

/// Sets `KEYS[1]` to `ARGV[1]` for `ARGV[2]` ms unless the record stored
/// there already ended; 1 when written.
const PUT_UNLESS_ENDED: &str = r#"
local stored = redis.call('GET', KEYS[1])
if stored then
  local ok, record = pcall(cjson.decode, stored)
  if ok and (record.status == 'completed' or record.status == 'failed' or record.status == 'cancelled') then
    return 0
  end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"#;

/// The task records of a [`RedisStore`].
#[derive(Clone, Debug)]
pub(crate) struct RedisTaskStore {
    store: RedisStore,
}

impl RedisTaskStore {
    pub(crate) fn new(store: RedisStore) -> Self {
        Self { store }
    }

    fn record_key(&self, task_id: &str) -> String {
        self.store.key(&["task", task_id])
    }

    fn index_key(&self, owner: &str) -> String {
        self.store.key(&["tasks", owner])
    }

    fn replica_key(&self, replica: &str) -> String {
        self.store.key(&["replica", replica])
    }

    fn channel(&self, replica: &str) -> String {
        self.store.key(&["replica", replica, "tasks"])
    }

    fn ended_channel(&self) -> String {
        self.store.key(&["tasks", "ended"])
    }

    fn decode(&self, key: &str, json: &str) -> Result<TaskRecord, StoreError> {
        serde_json::from_str(json).map_err(|error| StoreError::Corrupt {
            key: key.to_owned(),
            reason: error.to_string(),
        })
    }
}

impl TaskStore for RedisTaskStore {
    fn put<'a>(&'a self, record: &'a TaskRecord) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let json = serde_json::to_string(record).map_err(|error| StoreError::Corrupt {
                key: self.record_key(&record.id),
                reason: error.to_string(),
            })?;
            let ttl = record.ttl_ms.max(1);
            let mut connection = self.store.connection();
            let written: bool = redis::cmd("EVAL")
                .arg(PUT_UNLESS_ENDED)
                .arg(1)
                .arg(self.record_key(&record.id))
                .arg(json)
                .arg(ttl)
                .query_async(&mut connection)
                .await
                .map_err(|error| self.store.error("EVAL", error))?;
            if !written {
                return Ok(false);
            }
            // A running task of no session is in no index and ends nowhere yet.
            if record.owner.is_none() && !record.status.is_terminal() {
                return Ok(true);
            }
            let mut pipe = redis::pipe();
            if let Some(owner) = &record.owner {
                let index = self.index_key(owner);
                pipe.cmd("ZADD")
                    .arg(&index)
                    .arg(record.created_us)
                    .arg(&record.id)
                    .ignore();
                // A fresh index gets the TTL; an existing one keeps the longer.
                pipe.cmd("PEXPIRE").arg(&index).arg(ttl).arg("NX").ignore();
                pipe.cmd("PEXPIRE").arg(&index).arg(ttl).arg("GT").ignore();
            }
            if record.status.is_terminal() {
                let ended = TaskCommand::Ended {
                    task_id: record.id.clone(),
                };
                let json = serde_json::to_string(&ended).unwrap_or_default();
                pipe.cmd("PUBLISH")
                    .arg(self.ended_channel())
                    .arg(json)
                    .ignore();
            }
            pipe.query_async::<()>(&mut connection)
                .await
                .map_err(|error| self.store.error("ZADD", error))?;
            Ok(true)
        })
    }

    fn get<'a>(
        &'a self,
        task_id: &'a str,
    ) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>> {
        Box::pin(async move {
            let key = self.record_key(task_id);
            let mut connection = self.store.connection();
            let json: Option<String> = connection
                .get(&key)
                .await
                .map_err(|error| self.store.error("GET", error))?;
            json.map(|json| self.decode(&key, &json)).transpose()
        })
    }

    fn list<'a>(&'a self, owner: &'a str) -> BoxFuture<'a, Result<Vec<TaskRecord>, StoreError>> {
        Box::pin(async move {
            let index = self.index_key(owner);
            let mut connection = self.store.connection();
            let ids: Vec<String> = connection
                .zrange(&index, 0, -1)
                .await
                .map_err(|error| self.store.error("ZRANGE", error))?;
            if ids.is_empty() {
                return Ok(Vec::new());
            }
            let keys: Vec<String> = ids.iter().map(|id| self.record_key(id)).collect();
            let found: Vec<Option<String>> = redis::cmd("MGET")
                .arg(&keys)
                .query_async(&mut connection)
                .await
                .map_err(|error| self.store.error("MGET", error))?;
            let mut records = Vec::with_capacity(ids.len());
            let mut expired = Vec::new();
            for ((id, key), json) in ids.iter().zip(&keys).zip(found) {
                match json {
                    Some(json) => records.push(self.decode(key, &json)?),
                    None => expired.push(id.clone()),
                }
            }
            if !expired.is_empty() {
                let _: usize = connection
                    .zrem(&index, expired)
                    .await
                    .map_err(|error| self.store.error("ZREM", error))?;
            }
            Ok(records)
        })
    }

    fn count<'a>(&'a self, owner: &'a str) -> BoxFuture<'a, Result<usize, StoreError>> {
        Box::pin(async move {
            let mut connection = self.store.connection();
            let ids: Vec<String> = connection
                .zrange(self.index_key(owner), 0, -1)
                .await
                .map_err(|error| self.store.error("ZRANGE", error))?;
            if ids.is_empty() {
                return Ok(0);
            }
            // The index keeps ids whose records expired until a list drops
            // them: count the records that still exist.
            let keys: Vec<String> = ids.iter().map(|id| self.record_key(id)).collect();
            connection
                .exists(&keys)
                .await
                .map_err(|error| self.store.error("EXISTS", error))
        })
    }

    fn beat<'a>(
        &'a self,
        replica: &'a str,
        ttl: Duration,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1);
            let mut connection = self.store.connection();
            connection
                .pset_ex::<_, _, ()>(self.replica_key(replica), 1, ms)
                .await
                .map_err(|error| self.store.error("SET", error))
        })
    }

    fn is_alive<'a>(&'a self, replica: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let mut connection = self.store.connection();
            connection
                .exists(self.replica_key(replica))
                .await
                .map_err(|error| self.store.error("EXISTS", error))
        })
    }

    fn seal_secret(&self) -> BoxFuture<'_, Result<Option<[u8; 32]>, StoreError>> {
        Box::pin(async move {
            let key = self.store.key(&["request-state-key"]);
            let mut fresh = [0_u8; 32];
            getrandom::fill(&mut fresh).map_err(|error| StoreError::Corrupt {
                key: key.clone(),
                reason: format!("no random bytes for a new secret: {error}"),
            })?;
            let mut connection = self.store.connection();
            // The first replica's secret wins; every replica reads it back.
            let stored: String = redis::pipe()
                .cmd("SET")
                .arg(&key)
                .arg(hex(&fresh))
                .arg("NX")
                .ignore()
                .cmd("GET")
                .arg(&key)
                .query_async::<(String,)>(&mut connection)
                .await
                .map_err(|error| self.store.error("GET", error))?
                .0;
            unhex(&stored)
                .and_then(|bytes| <[u8; 32]>::try_from(bytes).ok())
                .map(Some)
                .ok_or_else(|| StoreError::Corrupt {
                    key,
                    reason: "not 64 hexadecimal digits".to_owned(),
                })
        })
    }

    fn send<'a>(
        &'a self,
        replica: &'a str,
        command: &'a TaskCommand,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let channel = self.channel(replica);
            let json = serde_json::to_string(command).map_err(|error| StoreError::Corrupt {
                key: channel.clone(),
                reason: error.to_string(),
            })?;
            let mut connection = self.store.connection();
            let receivers: usize = connection
                .publish(&channel, json)
                .await
                .map_err(|error| self.store.error("PUBLISH", error))?;
            Ok(receivers > 0)
        })
    }

    fn commands<'a>(
        &'a self,
        replica: &'a str,
    ) -> BoxFuture<'a, Result<BoxStream<'static, TaskCommand>, StoreError>> {
        Box::pin(async move {
            let channel = self.channel(replica);
            let subscribed = async {
                let mut pubsub = self.store.client().get_async_pubsub().await?;
                pubsub.subscribe(&channel).await?;
                pubsub.subscribe(self.ended_channel()).await?;
                Ok::<_, redis::RedisError>(pubsub)
            };
            let pubsub = match tokio::time::timeout(SUBSCRIBE_TIMEOUT, subscribed).await {
                Ok(subscribed) => subscribed,
                Err(_) => Err(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    "no answer to SUBSCRIBE",
                )
                .into()),
            }
            .map_err(|error| self.store.error("SUBSCRIBE", error))?;
            let commands = pubsub.into_on_message().filter_map(move |message| {
                let command = message
                    .get_payload::<String>()
                    .ok()
                    .and_then(|json| serde_json::from_str::<TaskCommand>(&json).ok());
                if command.is_none() {
                    tracing::warn!(channel = %message.get_channel_name(), "ignored a task command that is not valid JSON");
                }
                std::future::ready(command)
            });
            Ok(commands.boxed())
        })
    }
}
