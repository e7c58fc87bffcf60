#[mcp_core::tool(name = "ok", annotations(raed), icon(gif = "x.gif"), input = Foo, execution = "sometimes", meta("dev.mcp/x" = 1))]
fn add((a, b): (i64, i64)) -> i64 {
    a + b
}

fn main() {}
