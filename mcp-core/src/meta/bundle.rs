//! A bundle of the metadata many tools share.

use serde_json::Value;

use super::Meta;
use crate::error::ToolError;
use crate::icon::Icon;

/// The shareable part of a tool's metadata: `title`, `icons` and `_meta`.
///
/// Applying a bundle with [`ToolBuilder::metadata`](crate::ToolBuilder::metadata)
/// overwrites those three fields; flat setters called after it win again
/// (last write wins). Annotations and execution are per tool and stay on
/// their own setters.
///
/// A malformed `_meta` key is remembered and reported when the bundle is
/// applied and the tool built, so a bundle can live in a `static`:
///
/// ```
/// use std::sync::LazyLock;
/// use mcp_core::{tool, Icon, Metadata, ToolDef};
///
/// static BRAND: LazyLock<Metadata> = LazyLock::new(|| {
///     Metadata::new()
///         .icon(Icon::svg("https://example.com/brand.svg", &[]))
///         .meta("com.example.acme/team", "platform".into())
/// });
///
/// let first: ToolDef = tool("first").metadata(&BRAND).run(|| async { "1" }).unwrap();
/// assert_eq!(first.tool().icons.len(), 1);
/// assert_eq!(first.tool().meta.get("com.example.acme/team").unwrap(), "platform");
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Metadata {
    pub(crate) title: Option<String>,
    pub(crate) icons: Vec<Icon>,
    pub(crate) meta: Meta,
    pub(crate) error: Option<ToolError>,
}

impl Metadata {
    /// An empty bundle.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the title.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Appends an icon.
    pub fn icon(mut self, icon: Icon) -> Self {
        self.icons.push(icon);
        self
    }

    /// Replaces the icons.
    pub fn icons(mut self, icons: impl IntoIterator<Item = Icon>) -> Self {
        self.icons = icons.into_iter().collect();
        self
    }

    /// Adds an `_meta` entry; a malformed or reserved key is reported when
    /// the tool is built.
    pub fn meta(mut self, key: impl Into<String>, value: Value) -> Self {
        if let Err(error) = self.meta.insert(key, value) {
            self.error.get_or_insert(error);
        }
        self
    }
}
