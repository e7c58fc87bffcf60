//! A stateful `#[toolbox]`: tools that share one key-value store.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use mcp_core::toolbox;
use mcp_server::Server;

/// A key-value store the tools share.
#[derive(Debug, Default)]
struct Store {
    entries: Mutex<BTreeMap<String, String>>,
}

#[toolbox]
impl Store {
    /// Stores `value` under `key`, returning the value it replaces.
    #[tool(annotations(write, idempotent, closed_world))]
    async fn put(&self, key: String, value: String) -> Option<String> {
        self.entries
            .lock()
            .map(|mut e| e.insert(key, value))
            .unwrap_or_default()
    }

    /// The value under `key`, if any.
    #[tool(annotations(read, closed_world))]
    async fn get(&self, key: String) -> Option<String> {
        self.entries.lock().ok().and_then(|e| e.get(&key).cloned())
    }

    /// Every key, in order.
    #[tool(annotations(read, closed_world))]
    async fn keys(&self) -> Vec<String> {
        self.entries
            .lock()
            .map(|e| e.keys().cloned().collect())
            .unwrap_or_default()
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let store = Arc::new(Store::default());
    let server = Server::builder()
        .name("toolbox")
        .tools(store.tools()?)
        .build()?;
    server.serve_stdio().await?;
    Ok(())
}
