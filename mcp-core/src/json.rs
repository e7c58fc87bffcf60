//! The JSON object type shared by schemas, arguments and `_meta`.

/// A JSON object: the type of schemas, arguments and `_meta`.
pub type JsonObject = serde_json::Map<String, serde_json::Value>;
