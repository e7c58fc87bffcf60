//! What a server knows about a session when it creates its context.

/// How a session reaches the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TransportKind {
    /// Standard input and output.
    Stdio,
    /// An in-process byte stream (tests, embedding).
    Io,
    /// Streamable HTTP.
    Http,
}

/// A session, as given to the builder's [`context`](crate::ServerBuilder::context)
/// function when the session's first tool call arrives.
#[derive(Clone, Debug)]
pub struct Session {
    id: Option<String>,
    transport: TransportKind,
}

impl Session {
    pub(crate) fn new(id: Option<String>, transport: TransportKind) -> Self {
        Self { id, transport }
    }

    /// The session id (`Mcp-Session-Id` in stateful HTTP mode; none for
    /// stdio and stateless HTTP).
    pub fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    /// The transport the session uses.
    pub fn transport(&self) -> TransportKind {
        self.transport
    }
}
