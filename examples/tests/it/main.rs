//! Every example runs, driven by a real MCP client (rmcp) over its stdio.

mod stdio_examples;
