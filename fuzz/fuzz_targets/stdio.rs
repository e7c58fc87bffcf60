//! Any bytes as what a client writes to `mcp-server` over stdio: the
//! newline-delimited JSON-RPC framing, the messages and every request they
//! make of a server with tools, a resource template and a prompt. The
//! session must end when the input does.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    mcp_toolkit_fuzz::serve_stdio(data);
});
