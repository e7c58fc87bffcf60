#[mcp_macros::resource(mime_type = "text/plain")]
async fn no_uri() -> String {
    String::new()
}

#[mcp_macros::resource(uri = "file:///a.txt")]
async fn fixed_with_argument(id: String) -> String {
    id
}

#[mcp_macros::resource(uri = "file:///b.txt", uri_template = "file:///{b}")]
async fn both(b: String) -> String {
    b
}

#[mcp_core::tool(uri = "file:///c.txt")]
async fn a_tool() -> String {
    String::new()
}

fn main() {}
