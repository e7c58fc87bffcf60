struct Server;

impl Server {
    #[mcp_core::tool]
    async fn list(&self) -> String {
        String::new()
    }
}

fn main() {}
