//! The generated code passes strict lints in the user's crate.
#![deny(warnings, missing_docs, unreachable_pub, unused_qualifications, clippy::all)]

/// A tool.
pub mod tools {
    /// Adds two numbers.
    #[mcp_core::tool(title = "Add", annotations(read, idempotent))]
    pub async fn add(a: i64, b: i64) -> i64 {
        a + b
    }

    #[mcp_core::tool]
    pub(crate) async fn hidden(r#type: String) -> String {
        r#type
    }

    /// Repeats a word.
    #[mcp_core::tool]
    pub async fn repeat(
        #[arg(description = "The word.", example = "echo")] word: String,
        #[arg(default = 2)] times: usize,
    ) -> String {
        word.repeat(times)
    }
}

fn main() {
    let def = tools::add_tool().unwrap();
    assert_eq!(def.name(), "add");
    let def = tools::hidden_tool().unwrap();
    assert_eq!(def.tool().input_schema["required"], serde_json::json!(["type"]));
    let def = tools::repeat_tool().unwrap();
    assert_eq!(def.tool().input_schema["required"], serde_json::json!(["word"]));
}

/// Never compiled: the sibling follows the function's `cfg`.
#[mcp_core::tool]
#[cfg(any())]
pub async fn gated() -> String {
    String::new()
}
