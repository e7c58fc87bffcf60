//! Code mode end to end: the official Python SDK (`mcp==2.3.0`) drives
//! `mcp-server serve --openapi <GitHub's document> --code-mode` over stdio
//! and Streamable HTTP against a mock GitHub API the script serves itself
//! (`tests/python/code_mode.py`), checking `tools/list`, `search_tools`'
//! TypeScript declarations, and `execute` scripts that paginate, fan out,
//! filter then write, catch a 404, chain lookups and log, with the
//! upstream requests each one made.
//!
//! Python comes from `MCP_E2E_PYTHON`, else the venv at
//! `target/peers/venv`; a missing interpreter fails the test.

use std::path::PathBuf;
use std::process::Command;

use crate::e2e_python::python;
use crate::support::run_peer_script;

#[test]
fn python_sdk_runs_code_mode_scripts_on_github_against_a_mock_upstream() {
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
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/python/code_mode.py");
    let output = run_peer_script(
        Command::new(&python)
            .arg(script)
            .arg(env!("CARGO_BIN_EXE_mcp-server"))
            .arg(github),
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the Python peer failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("all checks passed"), "{stdout}");
    for transport in ["stdio", "http"] {
        for check in [
            "tools/list shows",
            "search_tools found",
            "paginate (",
            "Promise.all",
            "labelled the crash issues",
            "caught the 404",
            "issue number 7 ->",
            "console.log captured",
            "a syntax error and an uncaught throw",
            "an unlisted tool stays callable directly",
        ] {
            let line = format!("ok {transport}: {check}");
            assert!(stdout.contains(&line), "no `{line}` in:\n{stdout}");
        }
    }
}
