//! Serve mcp-core tools over stdio and Streamable HTTP (in progress).
