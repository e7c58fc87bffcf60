//! Testing a server in process (feature `testing`): [`TestClient`] serves a
//! [`Server`] over an in-memory pipe and talks to it with rmcp's own client,
//! so a test sees exactly what a client sees, with no process or port.
//!
//! Turn the feature on for tests only:
//!
//! ```toml
//! [dev-dependencies]
//! mcp-toolkit-server = { version = "0.1", default-features = false, features = ["testing"] }
//! ```
//!
//! ```
//! use mcp_server::Server;
//! use mcp_server::testing::TestClient;
//! use serde_json::json;
//!
//! /// Adds two numbers.
//! #[mcp_core::tool]
//! async fn add(a: i64, b: i64) -> i64 {
//!     a + b
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let client = TestClient::connect(Server::builder().tool(add_tool()?).build()?).await?;
//! let tools = client.list_tools().await?;
//! assert_eq!(tools[0].name, "add");
//! let sum = client.call_tool("add", json!({"a": 2, "b": 3})).await?;
//! assert_eq!(sum.structured_content, Some(json!({"result": 5})));
//! let wrong = client.call_tool("add", json!({"a": "two", "b": 3})).await?;
//! assert_eq!(wrong.is_error, Some(true));
//! # Ok(())
//! # }
//! ```
//!
//! It works alike for every kind of tool (hand-written, an OpenAPI document
//! pointed at a local base URL) and in every mode (plain, discovery, code
//! mode); [`TestClient::peer`] reaches the rest of the protocol
//! (resources, prompts, tasks, ...).

use std::fmt;

use rmcp::model::{CallToolRequestParams, CallToolResult, Tool};
use rmcp::service::{ClientInitializeError, RunningService, ServiceError};
use rmcp::{ClientHandler, ErrorData, Peer, RoleClient, ServiceExt};
use serde_json::Value;

use crate::Server;

/// The rmcp crate this client speaks with, so that a test names its values
/// (`rmcp::model::Content`, ...) without a dependency of its own.
pub use rmcp;

/// The size of the in-memory pipe between client and server, each way.
const PIPE_BYTES: usize = 1 << 20;

/// A client of one [`Server`] in the same process: the server runs on a
/// task of its own and serves one session over an in-memory pipe, and the
/// client is rmcp's, with the handshake done. `H` is the client's handler
/// (what it answers and hears); [`connect`](TestClient::connect) uses rmcp's
/// default, [`connect_with`](TestClient::connect_with) takes yours (a
/// protocol version, notifications, sampling or elicitation answers).
///
/// Dropping it closes the session, which ends the server's task.
pub struct TestClient<H: ClientHandler = ()> {
    session: RunningService<RoleClient, H>,
}

impl TestClient {
    /// Serves `server` in process and connects to it, with rmcp's default
    /// client (the latest protocol version).
    pub async fn connect<C: Send + Sync + 'static>(
        server: Server<C>,
    ) -> Result<Self, TestClientError> {
        Self::connect_with(server, ()).await
    }
}

impl<H: ClientHandler> TestClient<H> {
    /// Serves `server` in process and connects to it with `handler` as the
    /// client's handler.
    pub async fn connect_with<C: Send + Sync + 'static>(
        server: Server<C>,
        handler: H,
    ) -> Result<Self, TestClientError> {
        let (server_end, client_end) = tokio::io::duplex(PIPE_BYTES);
        let (reader, writer) = tokio::io::split(server_end);
        tokio::spawn(async move {
            if let Err(error) = server.serve_io(reader, writer).await {
                tracing::warn!(%error, "the in-process server ended");
            }
        });
        let session =
            handler
                .serve(client_end)
                .await
                .map_err(|error| TestClientError::Handshake {
                    error: Box::new(error),
                })?;
        Ok(Self { session })
    }

    /// Every tool `tools/list` gives, all pages, as the wire's values.
    pub async fn list_tools(&self) -> Result<Vec<Tool>, TestClientError> {
        self.session.list_all_tools().await.map_err(refused)
    }

    /// Calls the tool `name` with `arguments` (a JSON object, or `null` for
    /// none) and gives the wire's result: its `content`,
    /// `structured_content` and `is_error`. A tool that fails, or refuses
    /// its arguments, is an `Ok` result with `is_error: Some(true)`; an
    /// unknown tool or a malformed request is
    /// [`TestClientError::Protocol`].
    pub async fn call_tool(
        &self,
        name: impl Into<String>,
        arguments: Value,
    ) -> Result<CallToolResult, TestClientError> {
        let mut params = CallToolRequestParams::new(name.into());
        match arguments {
            Value::Object(arguments) => params = params.with_arguments(arguments),
            Value::Null => {}
            other => {
                return Err(TestClientError::Arguments {
                    found: other.to_string(),
                });
            }
        }
        self.session.call_tool(params).await.map_err(refused)
    }

    /// The rmcp peer, for every other request (`list_all_resources`,
    /// `read_resource`, `get_prompt`, tasks, ...) and what the server said
    /// of itself (`peer_info`).
    pub fn peer(&self) -> &Peer<RoleClient> {
        self.session.peer()
    }

    /// Closes the session and waits for the client to stop.
    pub async fn close(self) -> Result<(), TestClientError> {
        self.session
            .cancel()
            .await
            .map(|_| ())
            .map_err(|error| TestClientError::Closed {
                reason: error.to_string(),
            })
    }
}

impl<H: ClientHandler> fmt::Debug for TestClient<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TestClient").finish_non_exhaustive()
    }
}

/// A server's JSON-RPC error is [`TestClientError::Protocol`]; anything else
/// went wrong with the session.
fn refused(error: ServiceError) -> TestClientError {
    match error {
        ServiceError::McpError(error) => TestClientError::Protocol { error },
        error => TestClientError::Session { error },
    }
}

/// What went wrong between a [`TestClient`] and its server.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TestClientError {
    /// The handshake failed.
    #[error("the handshake with the in-process server failed: {error}")]
    Handshake {
        /// rmcp's error (shown in the message, so not a `source()`).
        error: Box<ClientInitializeError>,
    },
    /// The server answered with a JSON-RPC error: an unknown tool, a
    /// malformed request.
    #[error("the server refused the request: {error}")]
    Protocol {
        /// The error as the server sent it (`code`, `message`, `data`).
        error: ErrorData,
    },
    /// The session failed (it is closed, a message could not be sent, ...).
    #[error("the session with the in-process server failed: {error}")]
    Session {
        /// rmcp's error (shown in the message, so not a `source()`).
        error: ServiceError,
    },
    /// The arguments of a call are not a JSON object.
    #[error("tool arguments must be a JSON object (or null), found {found}")]
    Arguments {
        /// The JSON given.
        found: String,
    },
    /// The client could not be stopped cleanly.
    #[error("the client did not stop cleanly: {reason}")]
    Closed {
        /// Why.
        reason: String,
    },
}
