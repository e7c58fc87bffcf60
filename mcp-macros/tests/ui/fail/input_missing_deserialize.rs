#[derive(schemars::JsonSchema)]
struct Page {
    size: u32,
}

#[mcp_core::tool]
async fn list(filter: String, page: Page) -> String {
    format!("{filter} {}", page.size)
}

fn main() {}
