//! `mcp_core` values to `rmcp::model` values and back.

use ::rmcp::model as rm;
use mcp_core::{CallToolResult, Content, Meta, ToolDef};
use serde_json::Value;

use crate::execution_wire::EXECUTION_MARKER;

/// The hosted tools as rmcp values, in listing order, plus each tool's
/// `execution` as JSON (rmcp's `Tool` has no slot for it).
#[derive(Debug, Default)]
pub(crate) struct WireTools {
    tools: Vec<rm::Tool>,
    executions: Vec<Option<Value>>,
    /// Each tool's serialized size in bytes, for byte-bounded pages.
    sizes: Vec<usize>,
}

/// The length of `value`'s JSON, counted without building the string.
fn serialized_len(value: &impl serde::Serialize) -> usize {
    struct Counter(usize);
    impl std::io::Write for Counter {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut counter = Counter(0);
    // Writing to a counter cannot fail; an unserializable value counts as empty.
    let _ = serde_json::to_writer(&mut counter, value);
    counter.0
}

impl WireTools {
    pub(crate) fn new<C: Send + Sync + 'static>(defs: &[ToolDef<C>]) -> Self {
        let tools = defs
            .iter()
            .map(|def| rm::Tool::from(def.tool().clone()))
            .collect();
        let executions = defs
            .iter()
            .map(|def| {
                def.tool()
                    .execution
                    .and_then(|execution| serde_json::to_value(execution).ok())
            })
            .collect();
        let sizes = defs.iter().map(|def| serialized_len(def.tool())).collect();
        Self {
            tools,
            executions,
            sizes,
        }
    }

    /// Each tool's serialized size in bytes, in listing order.
    pub(crate) fn sizes(&self) -> &[usize] {
        &self.sizes
    }

    /// The tool at `index`.
    pub(crate) fn get(&self, index: usize) -> Option<&rm::Tool> {
        self.tools.get(index)
    }

    /// The tools in `range`, with `execution` parked in `_meta` when
    /// `with_execution` (see [`crate::execution_wire`]).
    pub(crate) fn page(
        &self,
        range: std::ops::Range<usize>,
        with_execution: bool,
    ) -> Vec<rm::Tool> {
        let (Some(tools), Some(executions)) =
            (self.tools.get(range.clone()), self.executions.get(range))
        else {
            return Vec::new();
        };
        tools
            .iter()
            .zip(executions)
            .map(|(tool, execution)| {
                let mut tool = tool.clone();
                if let (true, Some(execution)) = (with_execution, execution) {
                    tool.meta
                        .get_or_insert_with(Default::default)
                        .0
                        .insert(EXECUTION_MARKER.to_owned(), execution.clone());
                }
                tool
            })
            .collect()
    }
}

/// A tool result as rmcp's value.
pub(crate) fn result_to_rmcp(result: CallToolResult) -> rm::CallToolResult {
    let content = result.content.into_iter().map(content_to_rmcp).collect();
    let mut out = rm::CallToolResult::success(content);
    out.structured_content = result.structured_content;
    out.is_error = result.is_error;
    out.meta = (!result.meta.is_empty()).then(|| rm::MetaObject(result.meta.into_object()));
    out
}

/// A content block as rmcp's value: text without annotations directly,
/// everything else through its (identical) wire JSON.
fn content_to_rmcp(content: Content) -> rm::ContentBlock {
    match content {
        Content::Text(text) if text.annotations.is_none() && text.meta.is_empty() => {
            rm::ContentBlock::text(text.text)
        }
        other => serde_json::to_value(&other)
            .and_then(serde_json::from_value)
            .unwrap_or_else(|error| {
                tracing::error!(%error, "a content block has no rmcp equivalent");
                rm::ContentBlock::text(format!(
                    "the server could not encode a content block: {error}"
                ))
            }),
    }
}

/// The `_meta` of a request as a `mcp_core` value: what rmcp keeps on the
/// request context, plus anything only the parameters carry.
pub(crate) fn request_meta(
    context: &rm::RequestMetaObject,
    params: Option<&rm::RequestMetaObject>,
) -> Meta {
    let mut object = context.0.0.clone();
    for (key, value) in params.map(|meta| &meta.0.0).into_iter().flatten() {
        object.entry(key.clone()).or_insert_with(|| value.clone());
    }
    Meta::from_wire(object)
}

#[cfg(test)]
mod tests {
    use mcp_core::{Content, ResourceContents};
    use serde_json::json;

    use super::*;

    #[test]
    fn results_keep_their_wire_json() {
        let mut result = CallToolResult::success(vec![
            Content::text("hi"),
            Content::image("aGk=", "image/png"),
            Content::resource(ResourceContents::text(
                "file:///a",
                Some("text/plain".into()),
                "A",
            )),
        ]);
        result.structured_content = Some(json!({"n": 1}));
        result.meta.insert("com.example/trace", json!("t")).unwrap();
        let ours = serde_json::to_value(&result).unwrap();
        let mut theirs = serde_json::to_value(result_to_rmcp(result)).unwrap();
        // rmcp adds the 2026-07-28 discriminator; the handler strips it for older peers.
        theirs.as_object_mut().unwrap().remove("resultType");
        assert_eq!(ours, theirs);
    }
}
