//! A `#[toolbox]` shares state between its tools.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use futures_executor::block_on;
use mcp_core::ToolDef;
use serde_json::json;

#[derive(Default)]
struct Counter {
    value: AtomicI64,
}

#[mcp_core::toolbox]
impl Counter {
    /// Adds to the counter.
    #[mcp_core::tool(annotations(write))]
    async fn add(&self, #[arg(description = "How much to add.", default = 1)] by: i64) -> i64 {
        self.value.fetch_add(by, Ordering::SeqCst) + by
    }

    /// Reads the counter.
    #[mcp_core::tool(name = "get", annotations(read))]
    async fn current(self: Arc<Self>) -> i64 {
        self.value.load(Ordering::SeqCst)
    }

    /// Says the toolbox's version.
    #[mcp_core::tool]
    async fn version() -> String {
        "1".to_owned()
    }

    /// Not a tool.
    fn helper(&self) -> i64 {
        self.value.load(Ordering::SeqCst)
    }
}

fn main() {
    let counter = Arc::new(Counter::default());
    let tools: Vec<ToolDef> = counter.tools().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name()).collect();
    assert_eq!(names, ["add", "get", "version"]);
    assert_eq!(tools[0].tool().description.as_deref(), Some("Adds to the counter."));
    assert_eq!(tools[0].tool().input_schema["properties"]["by"]["description"], "How much to add.");
    assert_eq!(block_on(tools[0].call_detached(json!({"by": 5}))).structured_content, Some(json!({"result": 5})));
    assert_eq!(block_on(tools[1].call_detached(json!({}))).structured_content, Some(json!({"result": 5})));
    assert_eq!(block_on(tools[2].call_detached(json!({}))).text_content(), "1");
    assert_eq!(counter.helper(), 5);
    let one: ToolDef = counter.add_tool().unwrap();
    assert_eq!(one.name(), "add");
    assert_eq!(block_on(Counter::version()), "1");
}
