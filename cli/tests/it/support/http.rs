//! Shared pieces of the Streamable HTTP tests: a server on a free loopback
//! port, SSE bodies, and `mcp-server` processes that print their endpoint
//! and stop on SIGTERM.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use mcp_server::{HttpConfig, Server};
use serde_json::Value;
use tokio::sync::oneshot;

/// A server on a free loopback port; dropping it stops the server.
pub(crate) struct Running {
    pub(crate) url: String,
    stop: Option<oneshot::Sender<()>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// Serves `server` over HTTP with `config` on the current runtime.
pub(crate) async fn serve_http(server: Server, config: HttpConfig) -> Running {
    let addr: SocketAddr = "127.0.0.1:0".parse().unwrap();
    let http = server.bind_http(addr, config).await.unwrap();
    let url = http.url();
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(http.run_until(async move {
        let _ = stopped.await;
    }));
    Running {
        url,
        stop: Some(stop),
    }
}

/// The `(id, data)` of each SSE event in `text`.
pub(crate) fn sse_events(text: &str) -> Vec<(Option<String>, Option<Value>)> {
    text.split("\n\n")
        .map(|event| {
            let id = event
                .lines()
                .find_map(|line| line.strip_prefix("id:"))
                .map(|id| id.trim().to_owned());
            let data: Vec<&str> = event
                .lines()
                .filter_map(|line| line.strip_prefix("data:"))
                .map(str::trim_start)
                .collect();
            (id, serde_json::from_str(&data.join("\n")).ok())
        })
        .collect()
}

/// The JSON-RPC reply (the message with an id) among the SSE events of
/// `text`; panics when there is none.
pub(crate) fn sse_reply(text: &str) -> Value {
    sse_events(text)
        .into_iter()
        .filter_map(|(_, data)| data)
        .find(|message| message.get("id").is_some())
        .unwrap_or_else(|| panic!("no JSON-RPC reply in {text}"))
}

/// An `mcp-server` process serving HTTP, killed on drop.
pub(crate) struct ServerProcess {
    pub(crate) child: Child,
    /// The endpoint it printed.
    pub(crate) url: String,
}

impl ServerProcess {
    /// Reads `child`'s piped stdout up to its `http://` endpoint line.
    pub(crate) fn new(mut child: Child) -> Self {
        let stdout = child.stdout.take().expect("piped stdout");
        let url = BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
            .find(|line| line.starts_with("http://"))
            .expect("an endpoint line");
        ServerProcess { child, url }
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends SIGTERM and expects a successful exit within 20 seconds.
pub(crate) fn stops_cleanly_on_sigterm(child: &mut Child) {
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(status) = child.try_wait().expect("pollable") {
            assert!(
                status.success(),
                "the process exited with {status} on SIGTERM"
            );
            break;
        }
        assert!(Instant::now() < deadline, "the process ignored SIGTERM");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A free loopback port (free when asked; a process binds it right after).
pub(crate) fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .expect("a free loopback port")
}
