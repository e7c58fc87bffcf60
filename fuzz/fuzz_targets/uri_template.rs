//! Any bytes as `TEMPLATE\nURI`: parse the RFC 6570 template, list its
//! variables, and match the URI against it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_core::resource::UriTemplate;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (template, uri) = text.split_once('\n').unwrap_or((text, ""));
    if let Ok(template) = UriTemplate::parse(template) {
        let _ = template.variables().count();
        let _ = template.match_uri(uri);
        let _ = template.match_uri(template.as_str());
    }
});
