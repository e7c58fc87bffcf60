//! Code mode end to end: the official Python SDK (`mcp==2.3.0`) drives
//! `mcp-server serve --openapi <GitHub's document> --code-mode` over stdio
//! and Streamable HTTP against a mock GitHub API the script serves itself
//! (`tests/python/code_mode.py`), checking `tools/list`, `search_tools`'
//! TypeScript declarations, and `execute` scripts that paginate, fan out,
//! filter then write, catch a 404, chain lookups and log, with the
//! upstream requests each one made; and, against a mock whose bodies
//! deviate from GitHub's schema (`tests/python/code_mode_deviating.py`),
//! that scripts get each value as the API sent it, with the deviation in
//! the run's logs, while a direct call still answers with the envelope.
//!
//! Python comes from `MCP_E2E_PYTHON`, else the venv at
//! `target/peers/venv`; a missing interpreter fails the test.

use crate::e2e_python::run_on_github;

#[test]
fn python_sdk_runs_code_mode_scripts_on_github_against_a_mock_upstream() {
    let stdout = run_on_github("code_mode.py");
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
            "every name shown",
            "a syntax error and an uncaught throw",
            "an unlisted tool stays callable directly",
        ] {
            let line = format!("ok {transport}: {check}");
            assert!(stdout.contains(&line), "no `{line}` in:\n{stdout}");
        }
    }
}

#[test]
fn scripts_get_values_as_the_api_sent_them_when_they_deviate_from_the_schema() {
    let stdout = run_on_github("code_mode_deviating.py");
    for transport in ["stdio", "http"] {
        for check in [
            "pulls_list resolves to the array as sent",
            "a transformed tool resolves to its kept fields",
            "a direct tools/call answers the envelope, valid against pulls_list's outputSchema",
        ] {
            let line = format!("ok {transport}: {check}");
            assert!(stdout.contains(&line), "no `{line}` in:\n{stdout}");
        }
    }
    let fields = "ok stdio --result-fields: `fields` resolves to the projected array";
    assert!(stdout.contains(fields), "no `{fields}` in:\n{stdout}");
}
