//! The contents of a resource, as read or embedded in a content block.

use serde::{Deserialize, Serialize};

use crate::meta::Meta;

/// The contents of a resource: text or a base64 blob.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum ResourceContents {
    /// Text contents.
    Text {
        /// The resource's URI.
        uri: String,
        /// The MIME type.
        #[serde(rename = "mimeType", default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        /// The text.
        text: String,
        /// Extension metadata.
        #[serde(rename = "_meta", default, skip_serializing_if = "Meta::is_empty")]
        meta: Meta,
    },
    /// Binary contents, base64-encoded.
    Blob {
        /// The resource's URI.
        uri: String,
        /// The MIME type.
        #[serde(rename = "mimeType", default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        /// The base64-encoded bytes.
        blob: String,
        /// Extension metadata.
        #[serde(rename = "_meta", default, skip_serializing_if = "Meta::is_empty")]
        meta: Meta,
    },
}

impl ResourceContents {
    /// Text contents of `uri`.
    pub fn text(
        uri: impl Into<String>,
        mime_type: Option<String>,
        text: impl Into<String>,
    ) -> Self {
        Self::Text {
            uri: uri.into(),
            mime_type,
            text: text.into(),
            meta: Meta::new(),
        }
    }

    /// Binary contents of `uri` from base64 data.
    pub fn blob(
        uri: impl Into<String>,
        mime_type: Option<String>,
        base64: impl Into<String>,
    ) -> Self {
        Self::Blob {
            uri: uri.into(),
            mime_type,
            blob: base64.into(),
            meta: Meta::new(),
        }
    }
}
