#[derive(serde::Deserialize)]
struct DeleteRequest {
    id: String,
}

#[mcp_core::tool]
async fn delete_user(req: DeleteRequest) -> String {
    req.id
}

fn main() {}
