//! OpenAPI documents become MCP tools (in progress).
