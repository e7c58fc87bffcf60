//! Code mode's settings: the pinned tools and the limits of each run.

use std::time::Duration;

use super::sandbox::Limits;

/// The bytes of native stack a script may use.
const STACK_BYTES: usize = 512 * 1024;
/// The bytes of console output a run keeps.
const LOG_BYTES: usize = 16 * 1024;

/// Code mode's settings: which tools `tools/list` still shows besides
/// `search_tools` and `execute`, and the limits of each `execute` run.
///
/// Every limit has a default fit for a model's scripts: 30 s of wall time
/// (time spent waiting on tools included), 64 MiB of memory, 100 tool
/// calls, a 100 KB result, 8 calls running at once within a run, 4 runs
/// at once in the server, and 2 fresh sandboxes made ahead.
///
/// ```
/// use std::time::Duration;
/// use mcp_server::{CodeMode, Server};
///
/// let ping = |name: &str| mcp_core::tool(name).description("Answers pong.").run(|| async { "pong" }).unwrap();
/// let server = Server::builder()
///     .tools([ping("whoami"), ping("list_stargazers")])
///     .code_mode(CodeMode::new().pin(["whoami"]).timeout(Duration::from_secs(10)).max_calls(50))
///     .build()?;
/// let listed: Vec<String> = server.listed_tools().into_iter().map(|tool| tool.name).collect();
/// assert_eq!(listed, ["search_tools", "execute", "whoami"]);
/// # Ok::<(), mcp_server::BuildError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeMode {
    pinned: Vec<String>,
    timeout: Duration,
    memory_bytes: usize,
    max_calls: usize,
    max_result_bytes: usize,
    concurrent_calls: usize,
    running_scripts: usize,
    spare_sandboxes: usize,
}

impl Default for CodeMode {
    fn default() -> Self {
        Self {
            pinned: Vec::new(),
            timeout: Duration::from_secs(30),
            memory_bytes: 64 * 1024 * 1024,
            max_calls: 100,
            max_result_bytes: 100_000,
            concurrent_calls: 8,
            running_scripts: 4,
            spare_sandboxes: 2,
        }
    }
}

impl CodeMode {
    /// Code mode with the default limits.
    pub fn new() -> Self {
        Self::default()
    }

    /// Also lists the tools named `names` (each must be hosted when the
    /// server is built).
    pub fn pin(mut self, names: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.pinned.extend(names.into_iter().map(Into::into));
        self
    }

    /// The wall time a run may take, waiting on tools included (30 s by
    /// default).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The memory a run's JavaScript runtime may allocate, in bytes (64 MiB
    /// by default).
    pub fn memory_limit(mut self, bytes: usize) -> Self {
        self.memory_bytes = bytes;
        self
    }

    /// The tool calls one run may make (100 by default).
    pub fn max_calls(mut self, calls: usize) -> Self {
        self.max_calls = calls;
        self
    }

    /// The largest value a run may return, in bytes of JSON (100 KB by
    /// default).
    pub fn max_result_bytes(mut self, bytes: usize) -> Self {
        self.max_result_bytes = bytes;
        self
    }

    /// How many of a run's tool calls run at once (8 by default); more wait
    /// their turn, so `Promise.all` over a long list stays gentle on the
    /// upstream.
    pub fn concurrent_calls(mut self, calls: usize) -> Self {
        self.concurrent_calls = calls.max(1);
        self
    }

    /// How many runs the server executes at once (4 by default); a further
    /// `execute` waits for a free place within its own time limit. Each run
    /// has a thread of its own.
    pub fn running_scripts(mut self, scripts: usize) -> Self {
        self.running_scripts = scripts.max(1);
        self
    }

    /// How many fresh sandboxes wait, made ahead, for the next scripts (2
    /// by default; each is a thread with a JavaScript runtime of about a
    /// megabyte). A run takes one, so it does not wait for a runtime to
    /// start, and another is made in its place; no sandbox runs two
    /// scripts. 0 makes each sandbox when its script comes.
    pub fn spare_sandboxes(mut self, sandboxes: usize) -> Self {
        self.spare_sandboxes = sandboxes;
        self
    }

    /// The names of the pinned tools.
    pub fn pinned(&self) -> &[String] {
        &self.pinned
    }

    /// The wall time a run may take.
    pub fn time_limit(&self) -> Duration {
        self.timeout
    }

    /// The tool calls a run may make.
    pub fn call_limit(&self) -> usize {
        self.max_calls
    }

    /// How many runs execute at once.
    pub(crate) fn scripts_at_once(&self) -> usize {
        self.running_scripts
    }

    /// How many sandboxes wait for scripts.
    pub(crate) fn spare(&self) -> usize {
        self.spare_sandboxes
    }

    /// How many of a run's calls run at once.
    pub(crate) fn calls_at_once(&self) -> usize {
        self.concurrent_calls
    }

    /// The sandbox's limits.
    pub(crate) fn limits(&self) -> Limits {
        Limits {
            time: self.timeout,
            memory_bytes: self.memory_bytes,
            calls: self.max_calls,
            result_bytes: self.max_result_bytes,
            stack_bytes: STACK_BYTES,
            log_bytes: LOG_BYTES,
        }
    }
}
