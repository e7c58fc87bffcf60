//! Toolsets and the read-only view end to end: the official Python SDK
//! (`mcp==2.3.0`) drives `mcp-server serve --openapi <GitHub's document>`
//! over Streamable HTTP (stateful and stateless) and stdio
//! (`tests/python/toolsets.py`), choosing toolsets and the read-only view
//! by header (`X-MCP-Toolsets`, `X-MCP-Readonly`), by URL (`/mcp/x/issues,pulls`,
//! `/mcp/readonly`, `/mcp/x/issues/readonly`) and by flag (`--toolsets`,
//! `--read-only`); an unknown toolset is refused naming the toolsets, and a
//! tool outside the view is unknown to `tools/call`, to discovery mode's
//! `call_tool` and to code mode's `execute` (a tiny mock upstream, served by
//! the script, answers the calls of the tools inside it).
//!
//! Python comes from `MCP_E2E_PYTHON`, else the venv at
//! `target/peers/venv`; a missing interpreter fails the test.

use crate::e2e_python::run_on_github;

#[test]
fn python_sdk_sees_only_the_toolsets_and_read_only_tools_it_asks_for() {
    let stdout = run_on_github("toolsets.py");
    for check in [
        "ok header X-MCP-Toolsets: issues (legacy)",
        "ok header X-MCP-Toolsets: issues (auto)",
        "ok URL /mcp/x/issues,pulls (legacy)",
        "ok URL /mcp/x/issues,pulls (auto)",
        "ok header X-MCP-Readonly: true (legacy)",
        "ok URL /mcp/readonly (auto)",
        "ok URL /mcp/x/issues/readonly",
        "ok header X-MCP-Toolsets: nope is refused",
        "ok URL /mcp/x/nope is refused",
        "ok tools/call (legacy): issues_create and pulls_list are unknown tools",
        "ok a session (legacy) keeps the view of its first request",
        "ok stateless (auto): each request's headers choose its view",
        "ok serve --toolsets issues: a client asking for pulls gets nothing",
        "ok serve --read-only:",
        "ok discovery (legacy): search_tools and call_tool see only",
        "ok code mode (auto): execute finds only the read-only issues tools",
        "ok stdio serve --toolsets issues --read-only (legacy)",
    ] {
        assert!(stdout.contains(check), "no `{check}` in:\n{stdout}");
    }
}
