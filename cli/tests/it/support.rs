//! Shared helpers: serve a server in process and talk to it (rmcp's client
//! through `TestClient`, or raw JSON-RPC).

pub(crate) mod http;
pub(crate) mod redis;

use std::sync::Arc;

use mcp_server::Server;
use mcp_server::testing::TestClient;
use rmcp::ClientHandler;
use rmcp::model::{ClientConfig, ProgressNotificationParam, ProtocolVersion};
use rmcp::service::{NotificationContext, RoleClient};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, ReadHalf, WriteHalf};
use tokio::sync::mpsc;

/// A client handler speaking `version` that forwards the progress
/// notifications it hears to a channel, and the tool list changes to
/// another when asked to.
#[derive(Clone)]
pub(crate) struct Listening {
    pub(crate) progress: mpsc::UnboundedSender<ProgressNotificationParam>,
    pub(crate) version: ProtocolVersion,
    pub(crate) tools_changed: Option<mpsc::UnboundedSender<()>>,
}

impl ClientHandler for Listening {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::default().with_protocol_version(self.version.clone())
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        if let Some(changed) = &self.tools_changed {
            let _ = changed.send(());
        }
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let _ = self.progress.send(params);
    }
}

/// An in-process client of `server` speaking `version`, plus its progress
/// notifications.
pub(crate) async fn connect<C: Send + Sync + 'static>(
    server: Server<C>,
    version: ProtocolVersion,
) -> (
    TestClient<Listening>,
    mpsc::UnboundedReceiver<ProgressNotificationParam>,
) {
    let (progress, received) = mpsc::unbounded_channel();
    let listening = Listening {
        progress,
        version,
        tools_changed: None,
    };
    let client = TestClient::connect_with(server, listening)
        .await
        .expect("the client connects");
    (client, received)
}

/// A 2025-11-25 client that reports the list changes it hears (`"tools"`,
/// `"resources"`).
#[derive(Clone)]
pub(crate) struct Hearing(pub(crate) mpsc::UnboundedSender<&'static str>);

impl ClientHandler for Hearing {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::default().with_protocol_version(ProtocolVersion::V_2025_11_25)
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.0.send("tools");
    }

    async fn on_resource_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.0.send("resources");
    }
}

/// What a [`Hearing`] client hears within half a second, in order.
pub(crate) async fn heard_within_half_a_second(
    hears: &mut mpsc::UnboundedReceiver<&'static str>,
) -> Vec<&'static str> {
    let mut heard = Vec::new();
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_millis(500);
    while let Ok(Some(what)) = tokio::time::timeout_at(deadline, hears.recv()).await {
        heard.push(what);
    }
    heard
}

/// A raw JSON-RPC session: newline-delimited JSON over the pipe.
pub(crate) struct Raw {
    reader: BufReader<ReadHalf<DuplexStream>>,
    writer: WriteHalf<DuplexStream>,
    pub(crate) notifications: Vec<Value>,
}

impl Raw {
    /// Starts `server` on one end of a duplex pipe and speaks raw JSON-RPC
    /// on the other (what rmcp's client would not send, or would check).
    pub(crate) fn new<C: Send + Sync + 'static>(server: Server<C>) -> Self {
        let (server_end, client_end) = tokio::io::duplex(1 << 20);
        let (server_reader, server_writer) = tokio::io::split(server_end);
        tokio::spawn(async move {
            if let Err(error) = server.serve_io(server_reader, server_writer).await {
                eprintln!("server ended: {error}");
            }
        });
        let (reader, writer) = tokio::io::split(client_end);
        Self {
            reader: BufReader::new(reader),
            writer,
            notifications: Vec::new(),
        }
    }

    pub(crate) async fn send(&mut self, message: Value) {
        let mut line = serde_json::to_vec(&message).unwrap();
        line.push(b'\n');
        self.writer.write_all(&line).await.unwrap();
    }

    /// The next message the server writes (within 10 s).
    async fn next_message(&mut self) -> Value {
        let mut line = String::new();
        let read = tokio::time::timeout(
            std::time::Duration::from_secs(10),
            self.reader.read_line(&mut line),
        )
        .await
        .expect("a message within 10 s")
        .unwrap();
        assert!(read > 0, "the server closed the pipe");
        serde_json::from_str(&line).unwrap()
    }

    /// The response with `id`, keeping the messages that come first (a
    /// response read while waiting for another is found here later).
    pub(crate) async fn response(&mut self, id: i64) -> Value {
        if let Some(at) = self
            .notifications
            .iter()
            .position(|message| message.get("id") == Some(&json!(id)))
        {
            return self.notifications.remove(at);
        }
        loop {
            let message = self.next_message().await;
            if message.get("id") == Some(&json!(id)) {
                return message;
            }
            self.notifications.push(message);
        }
    }

    pub(crate) async fn request(&mut self, id: i64, method: &str, params: Value) -> Value {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        self.response(id).await
    }

    /// The next notification with `method`, skipping others.
    pub(crate) async fn notification(&mut self, method: &str) -> Value {
        if let Some(at) = self
            .notifications
            .iter()
            .position(|n| n["method"] == method)
        {
            return self.notifications.remove(at);
        }
        loop {
            let message = self.next_message().await;
            if message["method"] == method {
                return message;
            }
            self.notifications.push(message);
        }
    }

    /// The 2025-11-25 handshake.
    pub(crate) async fn initialize_2025(&mut self) -> Value {
        let reply = self
            .request(
                0,
                "initialize",
                json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}),
            )
            .await;
        self.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        reply
    }
}

/// The per-request `_meta` a 2026-07-28 client sends.
pub(crate) fn meta_2026() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"}
    })
}

/// A shared log of events, for ordering assertions.
pub(crate) type Log = Arc<std::sync::Mutex<Vec<String>>>;

/// Runs a peer's end-to-end script with its output captured, killing it
/// after four minutes, and returns its exit status and output.
pub(crate) fn run_peer_script(command: &mut std::process::Command) -> std::process::Output {
    use std::process::Stdio;
    use std::time::{Duration, Instant};

    let mut child = command
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the peer starts");
    let deadline = Instant::now() + Duration::from_secs(240);
    while child.try_wait().expect("the child can be polled").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().expect("the peer's output")
}
