#[mcp_core::tool(title = "Add", execution = "optional", title = "Plus", execution = "required")]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {}
