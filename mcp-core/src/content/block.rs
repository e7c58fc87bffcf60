//! Content blocks: what results, prompt messages and sampling messages carry.

use serde::{Deserialize, Serialize};

use crate::annotations::Annotations;
use crate::meta::Meta;
use crate::resource::contents::ResourceContents;
use crate::resource::value::Resource;

/// One content block (`ContentBlock` of the MCP specification).
///
/// ```
/// use mcp_core::content::Content;
///
/// assert_eq!(
///     serde_json::to_string(&Content::text("hi")).unwrap(),
///     r#"{"type":"text","text":"hi"}"#
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Content {
    /// Text.
    Text(TextContent),
    /// A base64-encoded image.
    Image(MediaContent),
    /// Base64-encoded audio.
    Audio(MediaContent),
    /// A link to a resource the client may read (`ResourceLink`: a
    /// [`Resource`] with `"type": "resource_link"`).
    ResourceLink(Resource),
    /// A resource embedded in the result.
    Resource(EmbeddedResource),
}

impl Content {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        Self::Text(TextContent {
            text: text.into(),
            annotations: None,
            meta: Meta::new(),
        })
    }

    /// An image block from base64 data.
    pub fn image(base64: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Self::Image(MediaContent::new(base64, mime_type))
    }

    /// An audio block from base64 data.
    pub fn audio(base64: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Self::Audio(MediaContent::new(base64, mime_type))
    }

    /// An embedded resource block.
    pub fn resource(resource: ResourceContents) -> Self {
        Self::Resource(EmbeddedResource {
            resource,
            annotations: None,
            meta: Meta::new(),
        })
    }

    /// The text of a text block.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Self::Text(text) => Some(&text.text),
            _ => None,
        }
    }
}

/// A text block.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TextContent {
    /// The text.
    pub text: String,
    /// Audience and priority hints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Meta::is_empty")]
    pub meta: Meta,
}

/// An image or audio block: base64 data and its MIME type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct MediaContent {
    /// The base64-encoded bytes.
    pub data: String,
    /// The MIME type of the bytes.
    pub mime_type: String,
    /// Audience and priority hints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Meta::is_empty")]
    pub meta: Meta,
}

impl MediaContent {
    fn new(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Self {
            data: data.into(),
            mime_type: mime_type.into(),
            annotations: None,
            meta: Meta::new(),
        }
    }
}

/// A resource embedded in a result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct EmbeddedResource {
    /// The resource's contents.
    pub resource: ResourceContents,
    /// Audience and priority hints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Meta::is_empty")]
    pub meta: Meta,
}
