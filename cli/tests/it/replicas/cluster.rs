//! A cluster of real processes on loopback: a `redis-server`, one Petstore
//! API (an `mcp-server demo` whose embedded API the replicas share), N
//! `mcp-server demo --transport http` replicas and `nginx` in front of them
//! (round-robin, no stickiness). Everything is killed on drop.

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::http::free_port;
use crate::support::redis::TestRedis;

/// The nginx configuration template (see its header).
const NGINX_TEMPLATE: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/replicas/nginx.conf"
));

/// How the replicas share what a session needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sharing {
    /// `--stateless`: nothing shared, 2026-07-28 and simple 2025-11-25 use.
    Stateless,
    /// `--state redis://...`: sessions, tasks and SSE events in Redis.
    Redis,
}

/// `nginx`, the program in front of the replicas.
#[derive(Debug)]
pub(crate) struct Nginx(PathBuf);

impl Nginx {
    /// `MCP_NGINX` (set by `cargo xtask peers`), else `nginx` on `PATH` or
    /// in the system `sbin` folders; `None` after printing why the calling
    /// test skips.
    pub(crate) fn find_or_skip(test: &str) -> Option<Self> {
        let found = match std::env::var_os("MCP_NGINX") {
            Some(path) => Some(PathBuf::from(path)).filter(|path| path.is_file()),
            None => {
                let path = std::env::var_os("PATH").unwrap_or_default();
                std::env::split_paths(&path)
                    .chain(["/usr/local/sbin", "/usr/sbin", "/sbin"].map(PathBuf::from))
                    .map(|dir| dir.join("nginx"))
                    .find(|candidate| candidate.is_file())
            }
        };
        if found.is_none() {
            eprintln!("skipped {test}: no nginx (set MCP_NGINX or run `cargo xtask peers`)");
        }
        found.map(Self)
    }
}

/// A child process, killed (SIGKILL) and reaped on drop.
#[derive(Debug)]
pub(crate) struct Process {
    name: String,
    child: Child,
}

impl Process {
    fn spawn(name: impl Into<String>, command: &mut Command) -> Self {
        let name = name.into();
        let child = command
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start {name} ({command:?}): {error}"));
        Self { name, child }
    }

    /// The operating system's process id.
    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Kills the process with SIGKILL and reaps it.
    pub(crate) fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Whether the process still runs.
    pub(crate) fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Reads stdout lines until `wanted` returns something (within 60 s),
    /// then drains the rest in the background.
    fn stdout_until<T>(&mut self, wanted: impl Fn(&str) -> Option<T>) -> T {
        let stdout = self
            .child
            .stdout
            .take()
            .unwrap_or_else(|| panic!("{} has no piped stdout", self.name));
        let (found, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if found.send(line).is_err() {
                    // Nobody listens any more: keep draining.
                    continue;
                }
            }
        });
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match lines.recv_timeout(left) {
                Ok(line) => {
                    if let Some(value) = wanted(line.trim()) {
                        return value;
                    }
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    panic!("{} did not print the expected line within 60 s", self.name)
                }
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    let status = self.child.wait();
                    panic!(
                        "{} closed its stdout without the expected line ({status:?}; its log is in the cluster's directory)",
                        self.name
                    )
                }
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Waits until `port` refuses connections (within 30 s): its process is
/// gone.
pub(crate) fn wait_until_refused(port: u16) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(("127.0.0.1", port)).is_ok() {
        assert!(
            Instant::now() < deadline,
            "port {port} still accepts connections"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Waits until something accepts connections on `port` (within 30 s).
fn wait_for_port(name: &str, port: u16) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "{name} does not accept connections on port {port}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// One `mcp-server` replica.
#[derive(Debug)]
pub(crate) struct Replica {
    /// Its process.
    pub(crate) process: Process,
    /// Its own endpoint (`http://127.0.0.1:PORT/mcp`), bypassing nginx.
    pub(crate) url: String,
}

impl Replica {
    /// Its loopback port.
    pub(crate) fn port(&self) -> u16 {
        self.url
            .trim_start_matches("http://127.0.0.1:")
            .trim_end_matches("/mcp")
            .parse()
            .unwrap_or_else(|_| panic!("no port in {}", self.url))
    }
}

/// Redis, the shared Petstore API, the replicas and nginx.
pub(crate) struct Cluster {
    /// The replicas, in `upstream` order.
    pub(crate) replicas: Vec<Replica>,
    /// nginx's endpoint (`http://127.0.0.1:PORT/mcp`).
    pub(crate) url: String,
    _nginx: Process,
    _api_process: Process,
    /// The Redis the replicas share (with [`Sharing::Redis`]).
    _redis: Option<TestRedis>,
    dir: tempfile::TempDir,
}

impl Cluster {
    /// Starts `count` replicas sharing state as `sharing` says, behind
    /// nginx; `None` (saying why) when [`Sharing::Redis`] finds no
    /// `redis-server`.
    pub(crate) async fn start(nginx: &Nginx, count: usize, sharing: Sharing) -> Option<Self> {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let redis = match sharing {
            Sharing::Redis => Some(TestRedis::start().await?),
            Sharing::Stateless => None,
        };
        let mut api_process = Process::spawn(
            "the Petstore API",
            demo(dir.path(), "api")
                .args(["--transport", "http", "--bind", "127.0.0.1:0"])
                .arg("--stateless"),
        );
        let api = api_process.stdout_until(|line| {
            line.strip_prefix("Petstore API (embedded): ")
                .map(str::to_owned)
        });
        let replicas = (0..count)
            .map(|index| {
                let mut command = demo(dir.path(), &format!("replica{index}"));
                command
                    .args(["--transport", "http", "--bind", "127.0.0.1:0"])
                    .args(["--api", &api]);
                match &redis {
                    // A replica killed mid-task is noticed within 3 s.
                    Some(redis) => command
                        .args(["--state", &redis.url()])
                        .args(["--task-heartbeat-secs", "3"]),
                    None => command.arg("--stateless"),
                };
                let mut process = Process::spawn(format!("replica {index}"), &mut command);
                let url = process.stdout_until(|line| {
                    (line.starts_with("http://") && line.ends_with("/mcp")).then(|| line.to_owned())
                });
                Replica { process, url }
            })
            .collect::<Vec<_>>();
        let port = free_port();
        let upstreams: String = replicas
            .iter()
            .map(|replica| {
                let authority = replica
                    .url
                    .trim_start_matches("http://")
                    .trim_end_matches("/mcp");
                format!("        server {authority};\n")
            })
            .collect();
        let prefix = dir.path().to_string_lossy().into_owned();
        let config = NGINX_TEMPLATE
            .replace("@PREFIX@", &prefix)
            .replace("@LISTEN@", &format!("127.0.0.1:{port}"))
            .replace("@UPSTREAMS@", upstreams.trim_end());
        std::fs::write(dir.path().join("nginx.conf"), config).expect("nginx.conf is written");
        let proxy = Process::spawn(
            "nginx",
            Command::new(&nginx.0)
                .arg("-p")
                .arg(dir.path())
                .arg("-e")
                .arg(dir.path().join("error.log"))
                .args(["-c", "nginx.conf", "-g", "daemon off;"])
                .stdout(Stdio::null())
                .stderr(log_file(dir.path(), "nginx")),
        );
        wait_for_port("nginx", port);
        Some(Self {
            replicas,
            url: format!("http://127.0.0.1:{port}/mcp"),
            _nginx: proxy,
            _api_process: api_process,
            _redis: redis,
            dir,
        })
    }

    /// The logs of every process (for a failure message).
    pub(crate) fn logs(&self) -> String {
        let mut logs = String::new();
        let Ok(entries) = std::fs::read_dir(self.dir.path()) else {
            return logs;
        };
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|path| path.extension().is_some_and(|ext| ext == "log"))
            .collect();
        paths.sort();
        for path in paths {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let tail: Vec<&str> = text.lines().rev().take(40).collect();
            logs.push_str(&format!("--- {}\n", path.display()));
            for line in tail.into_iter().rev() {
                logs.push_str(line);
                logs.push('\n');
            }
        }
        logs
    }
}

/// `mcp-server demo` with stdout piped and stderr logged to `NAME.log`.
fn demo(dir: &Path, name: &str) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_mcp-server"));
    command
        .arg("demo")
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(log_file(dir, name));
    command
}

fn log_file(dir: &Path, name: &str) -> Stdio {
    std::fs::File::create(dir.join(format!("{name}.log")))
        .map(Stdio::from)
        .unwrap_or_else(|_| Stdio::null())
}
