//! Any bytes as an OpenAPI Overlay (JSON or YAML): read and check it, apply
//! its actions (JSONPath targets) to a small document, and load the result.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_openapi::document::Overlay;
use mcp_openapi::{LoadOptions, OpenApi};

fuzz_target!(|data: &[u8]| {
    let Ok(overlay) = Overlay::from_slice(data) else {
        return;
    };
    let mut document = mcp_toolkit_fuzz::small_document();
    if overlay.apply(&mut document).is_ok() {
        let _ = OpenApi::from_value(document);
    }
    let options = LoadOptions::new().strict(true).overlay(overlay);
    let _ = OpenApi::from_slice_with(mcp_toolkit_fuzz::SMALL_DOCUMENT.as_bytes(), &options);
});
