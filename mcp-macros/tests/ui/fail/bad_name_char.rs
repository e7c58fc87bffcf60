#[mcp_core::tool(name = "delete user")]
async fn delete_user(id: String) -> String {
    id
}

fn main() {}
