#[mcp_core::tool(meta("io.modelcontextprotocol/x" = 1, "dev.mcp/x" = 2, "com.example/ok" = 3))]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {}
