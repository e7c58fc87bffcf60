struct Server;

#[mcp_core::toolbox]
impl Server {
    #[mcp_core::tool]
    async fn take(self) -> String {
        String::new()
    }

    #[mcp_core::tool]
    async fn change(&mut self) -> String {
        String::new()
    }
}

fn main() {}
