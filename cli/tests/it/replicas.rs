//! Replicas of the `mcp-server` binary behind a real nginx (round-robin, no
//! stickiness), sharing state in a real `redis-server`: the official Python
//! SDK drives them (both protocol generations, with one replica killed
//! mid-run), raw HTTP drives what that client cannot express (dropping an
//! SSE stream), and a bounded load test measures them.
//!
//! The tests skip, saying why, only when `redis-server` or `nginx` is
//! missing (`cargo xtask peers` installs both).

mod cluster;
mod load;
mod raw;
mod sessions;

use std::path::PathBuf;
use std::process::Command;

use cluster::{Cluster, Nginx, Sharing};

use crate::e2e_python::python;
use crate::support::run_peer_script;

/// Runs `tests/python/replicas.py` against `cluster`, killing its second
/// replica mid-run, and checks every step passed.
fn python_drives(cluster: &mut Cluster, sessions: bool) {
    let python = python();
    assert!(
        python.exists(),
        "the Python peer is missing at {}: run `cargo xtask peers`, or set MCP_E2E_PYTHON",
        python.display()
    );
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/python/replicas.py");
    let victim = &cluster.replicas[1];
    let mut command = Command::new(&python);
    command
        .arg(script)
        .arg(&cluster.url)
        .arg(victim.process.pid().to_string())
        .arg(victim.port().to_string());
    if sessions {
        command.arg("--sessions");
    }
    let output = run_peer_script(&mut command);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success() && stdout.contains("all checks passed"),
        "the Python peer failed:\n{stdout}\n{stderr}\n{}",
        cluster.logs()
    );
    if sessions {
        assert!(
            stdout.contains("a listen stream for demo://petstore/pets was told of its update"),
            "{stdout}"
        );
    }
    assert!(
        !cluster.replicas[1].process.is_running(),
        "the script did not kill replica 1"
    );
    for replica in [0, 2] {
        assert!(
            cluster.replicas[replica].process.is_running(),
            "replica {replica} is gone:\n{}",
            cluster.logs()
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn python_sdk_through_nginx_to_stateless_replicas_survives_a_kill() {
    let Some(nginx) = Nginx::find_or_skip("the stateless replicas test") else {
        return;
    };
    let Some(mut cluster) = Cluster::start(&nginx, 3, Sharing::Stateless).await else {
        return;
    };
    tokio::task::block_in_place(|| python_drives(&mut cluster, false));
}

#[tokio::test(flavor = "multi_thread")]
async fn python_sdk_through_nginx_to_replicas_sharing_redis_keeps_its_session_through_a_kill() {
    let Some(nginx) = Nginx::find_or_skip("the shared-state replicas test") else {
        return;
    };
    let Some(mut cluster) = Cluster::start(&nginx, 3, Sharing::Redis).await else {
        return;
    };
    tokio::task::block_in_place(|| python_drives(&mut cluster, true));
}

#[test]
fn demo_state_needs_http() {
    let output = Command::new(env!("CARGO_BIN_EXE_mcp-server"))
        .args([
            "demo",
            "--transport",
            "stdio",
            "--state",
            "redis://127.0.0.1:1",
        ])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the demo runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(stderr.contains("--transport http"), "{stderr}");
}
