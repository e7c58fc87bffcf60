struct Server;

impl Server {
    #[mcp_macros::prompt]
    async fn greet(&self) -> String {
        String::new()
    }
}

#[mcp_macros::prompt(meta("dev.mcp/x" = 1))]
fn farewell() -> String {
    String::new()
}

fn main() {}
