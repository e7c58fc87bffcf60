//! Any bytes as the body of a `POST /mcp` to the Streamable HTTP endpoint
//! (the first byte picks stateless or stateful mode and whether a session
//! id is sent): the limits layer's body checks, the JSON-RPC parsing and
//! the request it makes.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((mode, body)) = data.split_first() else {
        return;
    };
    mcp_toolkit_fuzz::post_mcp(*mode, body);
});
