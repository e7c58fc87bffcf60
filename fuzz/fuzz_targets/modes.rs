//! Any bytes as an OpenAPI document (JSON or YAML, by content): its tools
//! served in discovery mode and in code mode, listed, and searched for the
//! categories and with each result's whole input schema, so the discovery
//! index and the TypeScript declarations are built from whatever schemas it
//! holds. Errors are fine; panics, hangs and aborts are bugs.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(
    // The word tables every search reads are made once per process: made
    // here, their cost is not counted against the first input's time.
    init: mcp_toolkit_fuzz::search_modes(mcp_toolkit_fuzz::SMALL_DOCUMENT.as_bytes()),
    |data: &[u8]| {
        mcp_toolkit_fuzz::search_modes(data);
    }
);
