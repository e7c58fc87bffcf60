//! The client's roots (`roots/list`): the places it lets servers work in.

use serde::{Deserialize, Serialize};

/// A root the client exposes (`roots/list`): a `file://` URI and a name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Root {
    /// The root's URI.
    pub uri: String,
    /// A display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}
