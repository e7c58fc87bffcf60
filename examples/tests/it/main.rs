//! Every example runs, driven by a real MCP client (rmcp) over its stdio.

// issue 7: the conformance server
mod everything;
mod openapi_examples;
mod stdio_examples;
