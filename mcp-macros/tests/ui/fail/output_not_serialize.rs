#[derive(schemars::JsonSchema)]
struct Opaque {
    value: i64,
}

#[mcp_core::tool]
async fn make(a: i64) -> Opaque {
    Opaque { value: a }
}

fn main() {}
