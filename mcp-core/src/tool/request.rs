//! The parameters of a `tools/call` request.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::json::JsonObject;
use crate::meta::Meta;

/// The parameters of a `tools/call` request as the client sent them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CallToolRequest {
    /// The tool's name.
    pub name: String,
    /// The arguments; absent means none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<JsonObject>,
    /// The request's `_meta` (for example `progressToken`).
    #[serde(rename = "_meta", default, skip_serializing_if = "Meta::is_empty")]
    pub meta: Meta,
}

impl CallToolRequest {
    /// A request to call `name` with `arguments`.
    pub fn new(name: impl Into<String>, arguments: Option<JsonObject>) -> Self {
        Self {
            name: name.into(),
            arguments,
            meta: Meta::new(),
        }
    }

    /// Sets the request's `_meta`, as received from a peer.
    pub fn meta(mut self, meta: Meta) -> Self {
        self.meta = meta;
        self
    }

    /// The `progressToken` of the request's `_meta`, when the client asked for
    /// progress notifications.
    pub fn progress_token(&self) -> Option<&Value> {
        self.meta.get("progressToken")
    }
}
