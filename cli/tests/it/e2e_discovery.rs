//! Discovery mode as a model that reads only text sees it: the official
//! Python SDK (`mcp==2.3.0`) drives `mcp-server serve --openapi <GitHub's
//! document> --discovery` over stdio (`tests/python/discovery_text.py`) and
//! reads only each result's `content`: a `search_tools` answer's text is
//! JSON holding each hit's input schema, compact within 6000 bytes for 5
//! hits, or in full with `detail: true`.
//!
//! Python comes from `MCP_E2E_PYTHON`, else the venv at
//! `target/peers/venv`; a missing interpreter fails the test.

use crate::e2e_python::run_on_github;

#[test]
fn python_sdk_reads_input_schemas_in_the_text_of_search_answers() {
    let stdout = run_on_github("discovery_text.py");
    let compact = stdout
        .lines()
        .filter(|line| line.contains("answers 5 hits with their input schemas"))
        .count();
    assert_eq!(compact, 5, "{stdout}");
    for check in [
        "ok: detail gives full input schemas in the text",
        "ok: a call built from the text reaches the tool",
    ] {
        assert!(stdout.contains(check), "no `{check}` in:\n{stdout}");
    }
}
