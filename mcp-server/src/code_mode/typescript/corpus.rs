//! The tools of corpus documents as the server hosts them (with their
//! tolerant output schemas), generated once per test binary.

use std::sync::{Arc, LazyLock};

use mcp_core::{Tool, ToolDef};
use mcp_openapi::{ClientConfig, OpenApi};

/// GitHub's REST API: 1,223 tools.
pub(crate) static GITHUB: LazyLock<Vec<Tool>> =
    LazyLock::new(|| hosted("github-api.github.com.json"));
/// Stripe's API: 417 tools.
pub(crate) static STRIPE: LazyLock<Vec<Tool>> = LazyLock::new(|| hosted("stripe-spec3.json"));

fn hosted(document: &str) -> Vec<Tool> {
    let api = OpenApi::from_path(testdata::openapi(document)).expect("the document loads");
    let config = ClientConfig::builder()
        .base_url("http://127.0.0.1:9")
        .build()
        .expect("the client config builds");
    let defs: Vec<ToolDef> = api
        .generator()
        .generate()
        .expect("the tools generate")
        .tool_defs(&Arc::new(config))
        .expect("the tool defs build");
    defs.iter().map(|def| def.tool().clone()).collect()
}

/// The tool of `tools` named `name`.
pub(crate) fn named<'a>(tools: &'a [Tool], name: &str) -> &'a Tool {
    tools
        .iter()
        .find(|tool| tool.name == name)
        .unwrap_or_else(|| panic!("no tool `{name}`"))
}

/// The sandbox identifier of a tool name: every character outside
/// `[A-Za-z0-9_$]` as `_`.
pub(crate) fn identifier(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '$' {
                c
            } else {
                '_'
            }
        })
        .collect()
}
