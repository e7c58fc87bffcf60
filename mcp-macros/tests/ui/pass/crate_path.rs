//! `crate = path` for facades that re-export `mcp_core`.

mod facade {
    pub use mcp_core as core_again;
}

#[facade::core_again::tool(crate = facade::core_again, title = "Echo")]
async fn echo(text: String) -> String {
    text
}

fn main() {
    let def = echo_tool().unwrap();
    assert_eq!(def.tool().title.as_deref(), Some("Echo"));
}
