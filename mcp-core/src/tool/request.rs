//! The parameters of a `tools/call` request.

use serde::{Deserialize, Serialize};

use crate::json::JsonObject;

/// What a `tools/call` request asks for: the tool and its arguments. The
/// request's `_meta` travels in the call's
/// [`RequestScope`](crate::RequestScope), with its session and caller.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CallToolRequest {
    /// The tool's name.
    pub name: String,
    /// The arguments; absent means none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<JsonObject>,
}

impl CallToolRequest {
    /// A request to call `name` with `arguments`.
    pub fn new(name: impl Into<String>, arguments: Option<JsonObject>) -> Self {
        Self {
            name: name.into(),
            arguments,
        }
    }
}
