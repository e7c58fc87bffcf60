//! The settings of the Streamable HTTP endpoint.

use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::auth::Auth;

/// Settings of the Streamable HTTP endpoint.
///
/// Defaults: path `/mcp`; stateful sessions; `Host` must be `localhost`,
/// `127.0.0.1` or `::1` (any port); a present `Origin` must be a loopback
/// origin (`http(s)://localhost|127.0.0.1|[::1]`, any port), so a web page
/// cannot reach a local server through DNS rebinding (403 otherwise); no
/// authorization ([`auth`](Self::auth)); request bodies up to 4 MiB (413
/// beyond); 10 s for in-flight calls at shutdown; at most 1,000 live
/// sessions (beyond, the session idle longest gives way, see
/// [`max_sessions`](Self::max_sessions)), each ended after 30 minutes
/// without a message, or 60 s when it never made a request after
/// `initialize` (its id then answers 404, so the client initializes again),
/// with at most 64 requests in flight (429 beyond) and at most 256 tasks
/// kept (a JSON-RPC error beyond).
///
/// **Stateless mode** ([`stateless`](Self::stateless)) keeps no state
/// between requests: every POST is served on its own (no `Mcp-Session-Id`,
/// no standalone SSE stream, JSON responses when the call sends no
/// notifications), so replicas can sit behind any load balancer without
/// sticky sessions. The per-session context is then made per request.
#[derive(Clone, Debug)]
pub struct HttpConfig {
    pub(crate) path: String,
    pub(crate) stateless: bool,
    pub(crate) allowed_hosts: Vec<String>,
    pub(crate) allowed_origins: Vec<String>,
    pub(crate) auth: Option<Auth>,
    pub(crate) max_body_bytes: usize,
    pub(crate) shutdown_grace: Duration,
    pub(crate) cancellation: CancellationToken,
    pub(crate) max_sessions: usize,
    pub(crate) session_idle_timeout: Duration,
    pub(crate) unused_session_grace: Duration,
    pub(crate) max_pending_requests: usize,
    pub(crate) max_tasks_per_session: usize,
}

impl Default for HttpConfig {
    fn default() -> Self {
        Self {
            path: "/mcp".to_owned(),
            stateless: false,
            allowed_hosts: ["localhost", "127.0.0.1", "::1"]
                .map(str::to_owned)
                .to_vec(),
            allowed_origins: ["http", "https"]
                .into_iter()
                .flat_map(|scheme| {
                    ["localhost", "127.0.0.1", "[::1]"]
                        .map(move |host| format!("{scheme}://{host}:*"))
                })
                .collect(),
            auth: None,
            max_body_bytes: 4 * 1024 * 1024,
            shutdown_grace: Duration::from_secs(10),
            cancellation: CancellationToken::new(),
            max_sessions: 1000,
            session_idle_timeout: Duration::from_secs(30 * 60),
            unused_session_grace: Duration::from_secs(60),
            max_pending_requests: 64,
            max_tasks_per_session: 256,
        }
    }
}

impl HttpConfig {
    /// The defaults described on the type.
    pub fn new() -> Self {
        Self::default()
    }

    /// The endpoint's path (default `/mcp`).
    pub fn path(mut self, path: impl Into<String>) -> Self {
        self.path = path.into();
        self
    }

    /// Serves without sessions (see the type's docs).
    pub fn stateless(mut self, stateless: bool) -> Self {
        self.stateless = stateless;
        self
    }

    /// Also accepts `Host` (a hostname, or `host:port`), for example the
    /// public name of a deployment.
    pub fn allow_host(mut self, host: impl Into<String>) -> Self {
        self.allowed_hosts.push(host.into());
        self
    }

    /// Accepts any `Host` header. Only for servers behind a proxy that
    /// checks it: this disables DNS-rebinding protection by `Host`.
    pub fn any_host(mut self) -> Self {
        self.allowed_hosts.clear();
        self
    }

    /// Also accepts `Origin` (scheme, host and optional port, `:*` for any
    /// port), for example `https://app.example.com`.
    pub fn allow_origin(mut self, origin: impl Into<String>) -> Self {
        self.allowed_origins.push(origin.into());
        self
    }

    /// Requires `Authorization: Bearer {token}` on every request (401
    /// without it); short for `.auth(Auth::bearer(token))`.
    pub fn bearer_token(self, token: impl Into<String>) -> Self {
        self.auth(Auth::bearer(token))
    }

    /// How requests are authorized: a static bearer token, or OAuth 2.1
    /// access tokens (see [`crate::auth`]).
    pub fn auth(mut self, auth: Auth) -> Self {
        self.auth = Some(auth);
        self
    }

    /// The largest accepted request body (413 beyond).
    pub fn max_body_bytes(mut self, bytes: usize) -> Self {
        self.max_body_bytes = bytes;
        self
    }

    /// How long in-flight calls may run on after a shutdown signal.
    pub fn shutdown_grace(mut self, grace: Duration) -> Self {
        self.shutdown_grace = grace;
        self
    }

    /// A token that ends every session when cancelled.
    pub fn cancellation_token(mut self, token: CancellationToken) -> Self {
        self.cancellation = token;
        self
    }

    /// The most live sessions. At the limit, a new `initialize` is served by
    /// ending the session idle longest with no request in flight and no
    /// stream open, first among the sessions that never made a request
    /// after `initialize` (the ended session's id then answers 404, which
    /// tells its client to initialize again); only when every session is
    /// busy is it answered 503 with a JSON-RPC error. Ended sessions are
    /// counted (metric `mcp.server.session.evictions`, feature `otel`) and
    /// logged at most once a second. `initialize` requests still being
    /// answered count too, so a burst may end a session slightly early,
    /// never admit one beyond. Ignored when stateless.
    ///
    /// ```
    /// let config = mcp_server::HttpConfig::new().max_sessions(200);
    /// # let _ = config;
    /// ```
    pub fn max_sessions(mut self, sessions: usize) -> Self {
        self.max_sessions = sessions;
        self
    }

    /// How long a session may go without a message before it ends; its id
    /// then answers 404, which tells clients to initialize again. A
    /// standalone SSE stream with no traffic does not keep it alive.
    pub fn session_idle_timeout(mut self, timeout: Duration) -> Self {
        self.session_idle_timeout = timeout;
        self
    }

    /// How long a session that never made a request after `initialize`
    /// (nor opened a stream) lives (default 60 s): such sessions are ended
    /// past it, by a sweep that stops with the
    /// [`cancellation_token`](Self::cancellation_token), and are the first
    /// to give way at [`max_sessions`](Self::max_sessions). Capped by the
    /// [`session_idle_timeout`](Self::session_idle_timeout).
    ///
    /// ```
    /// use std::time::Duration;
    /// let config = mcp_server::HttpConfig::new().unused_session_grace(Duration::from_secs(10));
    /// # let _ = config;
    /// ```
    pub fn unused_session_grace(mut self, grace: Duration) -> Self {
        self.unused_session_grace = grace;
        self
    }

    /// The most requests a session may have in flight; one beyond is
    /// answered 429 with a JSON-RPC error carrying its id. Notifications
    /// and responses are never refused (a client at its cap can still
    /// cancel), though each counts for the moment it is accepted.
    pub fn max_pending_requests(mut self, requests: usize) -> Self {
        self.max_pending_requests = requests;
        self
    }

    /// The most tasks a session may keep, running or finished and kept for
    /// their TTL; creating one more is a JSON-RPC error (-32000). This
    /// setting is the server's: the last router made from it sets it.
    pub fn max_tasks_per_session(mut self, tasks: usize) -> Self {
        self.max_tasks_per_session = tasks;
        self
    }
}
