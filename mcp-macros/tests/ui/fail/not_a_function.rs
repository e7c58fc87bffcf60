#[mcp_core::tool]
struct Add {
    a: i64,
}

#[mcp_core::toolbox(name = "x")]
impl Add {}

fn main() {}
