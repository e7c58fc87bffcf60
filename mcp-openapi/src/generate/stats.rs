//! Size statistics of generated tools: what `tools/list` costs a model's context.

use mcp_core::Tool;
use mcp_core::schema::json_len;

/// The size of one tool on the wire.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct ToolSize {
    /// The tool name.
    pub name: String,
    /// Bytes of the whole tool JSON.
    pub bytes: usize,
    /// Bytes of `inputSchema` plus `outputSchema`.
    pub schema_bytes: usize,
    /// Bytes of `inputSchema`.
    pub input_bytes: usize,
    /// Bytes of `outputSchema` (0 without one).
    pub output_bytes: usize,
    /// Estimated tokens (bytes / 4, rounded up).
    pub tokens: usize,
}

/// Sizes of a set of tools, largest first.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct ToolStats {
    /// Number of tools.
    pub tools: usize,
    /// Bytes of the `{"tools": [...]}` result.
    pub total_bytes: usize,
    /// Estimated tokens of the `tools/list` result (bytes / 4).
    pub total_tokens: usize,
    /// Per tool, largest first (ties by name).
    pub per_tool: Vec<ToolSize>,
}

/// The size a tool should stay under (64 KiB of compact JSON); the
/// [`Display`](std::fmt::Display) of [`ToolStats`] lists the tools above it.
pub const TOOL_SIZE_LIMIT: usize = 64 * 1024;

/// Rough tokens for a byte count: JSON averages about 4 bytes per token.
const fn estimate_tokens(bytes: usize) -> usize {
    bytes.div_ceil(4)
}

/// Measures tools as `tools/list` would send them.
///
/// ```
/// let api: mcp_openapi::OpenApi = r#"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
///   "paths": {"/a": {"get": {"operationId": "a", "responses": {"200": {"description": "ok"}}}}}}"#
///     .parse().unwrap();
/// let stats = mcp_openapi::generate::tool_stats(&api.tools().unwrap());
/// assert_eq!(stats.tools, 1);
/// assert!(stats.total_tokens > 0);
/// ```
pub fn tool_stats<'t>(tools: impl IntoIterator<Item = &'t Tool>) -> ToolStats {
    let mut per_tool: Vec<ToolSize> = tools
        .into_iter()
        .map(|tool| {
            let bytes = json_len(tool);
            let input_bytes = json_len(&tool.input_schema);
            let output_bytes = tool.output_schema.as_ref().map_or(0, json_len);
            ToolSize {
                name: tool.name.clone(),
                bytes,
                schema_bytes: input_bytes + output_bytes,
                input_bytes,
                output_bytes,
                tokens: estimate_tokens(bytes),
            }
        })
        .collect();
    per_tool.sort_by(|a, b| b.bytes.cmp(&a.bytes).then_with(|| a.name.cmp(&b.name)));
    // `{"tools":[` (10 bytes) + commas + `]}` (2 bytes).
    let total_bytes =
        per_tool.iter().map(|t| t.bytes).sum::<usize>() + 12 + per_tool.len().saturating_sub(1);
    ToolStats {
        tools: per_tool.len(),
        total_bytes,
        total_tokens: estimate_tokens(total_bytes),
        per_tool,
    }
}

impl ToolStats {
    /// The tools larger than `limit` bytes, largest first.
    pub fn oversized(&self, limit: usize) -> impl Iterator<Item = &ToolSize> {
        self.per_tool
            .iter()
            .take_while(move |tool| tool.bytes > limit)
    }
}

impl std::fmt::Display for ToolStats {
    /// A table: one line per tool, largest first, then the totals, then the
    /// tools over [`TOOL_SIZE_LIMIT`] and whether their input schema alone
    /// is larger (input schemas are never trimmed).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{:>9} {:>9} {:>7}  name", "bytes", "schema", "tokens")?;
        for tool in &self.per_tool {
            writeln!(
                f,
                "{:>9} {:>9} {:>7}  {}",
                tool.bytes, tool.schema_bytes, tool.tokens, tool.name
            )?;
        }
        write!(
            f,
            "{} tools, {} bytes, ~{} tokens in tools/list",
            self.tools, self.total_bytes, self.total_tokens
        )?;
        let oversized: Vec<&ToolSize> = self.oversized(TOOL_SIZE_LIMIT).collect();
        if !oversized.is_empty() {
            write!(
                f,
                "\ntools over {TOOL_SIZE_LIMIT} bytes: {}",
                oversized.len()
            )?;
        }
        for tool in oversized {
            let why = if tool.input_bytes > TOOL_SIZE_LIMIT {
                "its input schema alone is larger"
            } else {
                "its input and output schemas together are larger"
            };
            write!(
                f,
                "\n  {}: {} bytes, input schema {}, output schema {} ({why})",
                tool.name, tool.bytes, tool.input_bytes, tool.output_bytes
            )?;
        }
        Ok(())
    }
}
