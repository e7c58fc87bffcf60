#[mcp_core::tool]
async fn greet(name: &str) -> String {
    format!("hello {name}")
}

fn main() {}
