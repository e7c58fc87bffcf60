//! Integration tests of the server (`mcp-toolkit-server`) and of its
//! `mcp-server` binary: in-process sessions over `tokio::io::duplex` with an
//! rmcp client or raw JSON-RPC, HTTP checks, the CLI, and the official Python
//! SDK as a real peer.

mod call_tool;
mod cli;
mod code_mode;
mod cyclic_schemas;
mod discovery;
mod discovery_quality;
mod e2e_code_mode;
mod e2e_discovery;
mod e2e_python;
mod e2e_toolsets;
mod e2e_typescript;
mod http;
mod http_limits;
mod list_changed;
mod middleware_order;
mod oauth;
mod oauth_fuzz;
mod oauth_provider;
mod oauth_upstream;
mod pagination;
mod prompts_and_interaction;
mod reload;
mod replace_source;
mod replicas;
mod resources;
mod result_budget;
mod result_fields;
mod rmcp_roundtrip;
mod session_flood;
mod shared_sessions;
mod store;
mod support;
mod tasks;
mod tasks_2025;
mod tasks_replicas;
mod telemetry;
mod test_client;
mod tool_execution;
mod toolsets_cli;
