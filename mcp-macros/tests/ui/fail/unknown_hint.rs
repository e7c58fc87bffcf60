#[mcp_core::tool(annotations(raed, closed_wrld, banana))]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {}
