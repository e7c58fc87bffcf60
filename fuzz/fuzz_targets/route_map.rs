//! Any bytes as a route map file (the first byte picks TOML or YAML), its
//! maps then classifying the routes of a small document.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_openapi::OpenApi;
use mcp_openapi::route_map::{route_maps_from_path, route_maps_from_toml};

fuzz_target!(|data: &[u8]| {
    let Some((format, rest)) = data.split_first() else {
        return;
    };
    let maps = if format % 2 == 0 {
        let Ok(text) = std::str::from_utf8(rest) else {
            return;
        };
        route_maps_from_toml(text)
    } else {
        // YAML route maps are read from files only.
        let path = mcp_toolkit_fuzz::scratch_file("route_map.yaml");
        if std::fs::write(&path, rest).is_err() {
            return;
        }
        route_maps_from_path(&path)
    };
    let Ok(maps) = maps else {
        return;
    };
    if let Ok(api) = OpenApi::from_slice(mcp_toolkit_fuzz::SMALL_DOCUMENT.as_bytes()) {
        let _ = api.generator().route_maps(maps).generate();
    }
});
