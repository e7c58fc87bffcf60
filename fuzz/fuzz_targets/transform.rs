//! Any bytes as a transformation file, read as `mcp-server --transform`
//! reads it (the first byte picks TOML, YAML or JSON), then applied to a
//! few tools, whose schemas and a call then go through the new shape.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_core::transform::TransformFile;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Some((format, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let value = match format % 3 {
        0 => toml::from_str::<Value>(text).ok(),
        1 => serde_saphyr::from_str::<Option<Value>>(text)
            .ok()
            .map(|v| v.unwrap_or(Value::Null)),
        _ => serde_json::from_str::<Value>(text).ok(),
    };
    let Some(value) = value else {
        return;
    };
    let Ok(file) = TransformFile::from_value(value) else {
        return;
    };
    if let Ok(tools) = file.apply(mcp_toolkit_fuzz::tools()) {
        mcp_toolkit_fuzz::block_on(async {
            for def in &tools {
                let _ = serde_json::to_string(def.tool());
                let _ = def
                    .call_detached(serde_json::json!({"text": "hi", "count": 2}))
                    .await;
            }
        });
    }
});
