#[mcp_core::tool(meta("1com.example/x" = 1, "com.example/a b" = 2))]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {}
