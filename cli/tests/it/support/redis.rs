//! A private `redis-server` on a free loopback port, killed on drop.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running `redis-server` of this test alone (no persistence).
pub(crate) struct TestRedis {
    binary: PathBuf,
    port: u16,
    child: Option<Child>,
}

impl TestRedis {
    /// Starts one, or prints why it cannot and returns `None` (no
    /// `redis-server`: `cargo xtask peers` installs it).
    pub(crate) async fn start() -> Option<TestRedis> {
        let Some(binary) = redis_binary() else {
            eprintln!("skipped: no redis-server (set MCP_REDIS_SERVER or run `cargo xtask peers`)");
            return None;
        };
        // A port taken between choosing and binding makes the start fail:
        // choose again.
        for _ in 0..5 {
            let port = super::http::free_port();
            let mut redis = TestRedis {
                binary: binary.clone(),
                port,
                child: None,
            };
            if redis.spawn().await {
                return Some(redis);
            }
        }
        panic!("redis-server did not start on a free loopback port");
    }

    /// `redis://127.0.0.1:PORT/0`.
    pub(crate) fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/0", self.port)
    }

    /// Kills the server (its data goes with it).
    pub(crate) fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts it again on the same port, after [`TestRedis::stop`].
    pub(crate) async fn restart(&mut self) {
        self.stop();
        assert!(
            self.spawn().await,
            "redis-server did not restart on port {}",
            self.port
        );
    }

    /// Spawns the server and waits until it answers `PING`; `false` when it
    /// exits first (its port was taken).
    async fn spawn(&mut self) -> bool {
        let child = Command::new(&self.binary)
            .args(["--port", &self.port.to_string()])
            .args(["--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", self.binary.display()));
        self.child = Some(child);
        for _ in 0..200 {
            if self.answers_ping().await {
                return true;
            }
            let exited = self
                .child
                .as_mut()
                .is_some_and(|child| matches!(child.try_wait(), Ok(Some(_))));
            if exited {
                self.child = None;
                return false;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        self.stop();
        false
    }

    async fn answers_ping(&self) -> bool {
        let Ok(client) = redis::Client::open(self.url()) else {
            return false;
        };
        let Ok(mut connection) = client.get_multiplexed_async_connection().await else {
            return false;
        };
        redis::cmd("PING")
            .query_async::<String>(&mut connection)
            .await
            .is_ok_and(|pong| pong == "PONG")
    }
}

impl Drop for TestRedis {
    fn drop(&mut self) {
        self.stop();
    }
}

/// `MCP_REDIS_SERVER`, else `redis-server` on `PATH` or in `/usr/bin`.
fn redis_binary() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("MCP_REDIS_SERVER") {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/bin"), PathBuf::from("/usr/sbin")])
        .map(|dir| dir.join("redis-server"))
        .find(|candidate| candidate.is_file())
}
