//! The protocol values of resources: `Resource` and `ResourceTemplate`.

use serde::{Deserialize, Serialize};

use crate::annotations::Annotations;
use crate::icon::Icon;
use crate::meta::Meta;

/// A resource a server offers at a fixed URI (`Resource` of MCP
/// 2025-11-25). Build one with [`resource`](fn@crate::resource::resource).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Resource {
    /// The resource's URI.
    pub uri: String,
    /// The programmatic name.
    pub name: String,
    /// A display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the resource is, for people and models.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The MIME type of the contents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// The size of the raw contents in bytes, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// Icons a client may display.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub icons: Vec<Icon>,
    /// Audience, priority and last-modified hints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Meta::is_empty")]
    pub meta: Meta,
}

/// A family of resources whose URIs follow an RFC 6570 template
/// (`ResourceTemplate` of MCP 2025-11-25). Build one with
/// [`resource_template`](fn@crate::resource::resource_template).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ResourceTemplate {
    /// The URI template, such as `file:///logs/{date}`.
    pub uri_template: String,
    /// The programmatic name.
    pub name: String,
    /// A display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the resources are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The MIME type shared by every matching resource.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Icons a client may display.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub icons: Vec<Icon>,
    /// Audience, priority and last-modified hints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Meta::is_empty")]
    pub meta: Meta,
}

impl Resource {
    /// The resource at `uri` called `name`, with no optional field set.
    ///
    /// ```
    /// let resource = mcp_core::resource::Resource::new("file:///README.md", "readme");
    /// assert_eq!(
    ///     serde_json::to_value(&resource).unwrap(),
    ///     serde_json::json!({"uri": "file:///README.md", "name": "readme"})
    /// );
    /// ```
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
            icons: Vec::new(),
            annotations: None,
            meta: Meta::default(),
        }
    }
}

impl ResourceTemplate {
    /// The resources matching `uri_template` called `name`, with no optional
    /// field set.
    ///
    /// ```
    /// let template = mcp_core::resource::ResourceTemplate::new("file:///logs/{date}", "logs");
    /// assert_eq!(template.uri_template, "file:///logs/{date}");
    /// ```
    pub fn new(uri_template: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            uri_template: uri_template.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            icons: Vec::new(),
            annotations: None,
            meta: Meta::default(),
        }
    }
}
