struct Opaque;

#[mcp_core::tool]
async fn make(a: i64) -> Opaque {
    let _ = a;
    Opaque
}

fn main() {}
