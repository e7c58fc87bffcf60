//! The official Python SDK (`mcp==2.3.0`) drives the `mcp-server` binary
//! (`demo`, and `serve --openapi petstore.yaml`) over stdio and Streamable
//! HTTP (stateful and stateless), with both protocol generations.
//!
//! Python comes from `MCP_E2E_PYTHON`, else the venv `.ci/run` creates at
//! `target/peers/venv` (`python3 -m venv target/peers/venv &&
//! target/peers/venv/bin/pip install mcp==2.3.0`). A missing interpreter
//! fails the test: it is never skipped.

use std::path::PathBuf;
use std::process::Command;

use crate::support::run_peer_script;

pub(crate) fn python() -> PathBuf {
    if let Some(path) = std::env::var_os("MCP_E2E_PYTHON") {
        return PathBuf::from(path);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/peers/venv/bin/python")
}

/// Runs `tests/python/{script}` with the official Python SDK against the
/// `mcp-server` binary serving GitHub's document; its stdout, once it
/// printed `all checks passed`.
pub(crate) fn run_on_github(script: &str) -> String {
    let python = python();
    assert!(
        python.exists(),
        "the Python peer is missing at {}: create it with `python3 -m venv target/peers/venv && target/peers/venv/bin/pip install mcp==2.3.0`, or set MCP_E2E_PYTHON",
        python.display()
    );
    let github = testdata::openapi("github-api.github.com.json");
    assert!(
        github.is_file(),
        "no GitHub document at {}",
        github.display()
    );
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/python")
        .join(script);
    let output = run_peer_script(
        Command::new(&python)
            .arg(script)
            .arg(env!("CARGO_BIN_EXE_mcp-server"))
            .arg(github),
    );
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the Python peer failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("all checks passed"), "{stdout}");
    stdout
}

fn run_script() {
    let python = python();
    assert!(
        python.exists(),
        "the Python peer is missing at {}: create it with `python3 -m venv target/peers/venv && target/peers/venv/bin/pip install mcp==2.3.0`, or set MCP_E2E_PYTHON",
        python.display()
    );
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/python/e2e.py");
    let output = run_peer_script(
        Command::new(&python)
            .arg(script)
            .arg(env!("CARGO_BIN_EXE_mcp-server"))
            .arg(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/cli/petstore.yaml")),
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the Python peer failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("all checks passed"), "{stdout}");
    let runs = [
        "stdio/auto",
        "stdio/legacy",
        "http/auto",
        "http/legacy",
        "http--stateless/auto",
        "http--stateless/legacy",
    ];
    for command in ["demo", "serve"] {
        for run in runs {
            let label = format!("ok {command} {run}:");
            assert!(stdout.contains(&label), "no `{label}` in:\n{stdout}");
        }
    }
}

#[test]
fn python_sdk_drives_demo_and_serve_openapi_over_stdio_and_http() {
    run_script();
}
