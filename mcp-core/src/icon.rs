//! Icons a client may show next to a tool.

use serde::{Deserialize, Serialize};

/// An optionally sized icon (`Icon` of the MCP specification).
///
/// Clients must support `image/png` and `image/jpeg` and should support
/// `image/svg+xml` and `image/webp`; the constructors set the MIME type.
///
/// ```
/// use mcp_core::{Icon, icon::IconTheme};
///
/// let icon = Icon::png("https://example.com/delete.png", &["48x48", "any"]).theme(IconTheme::Dark);
/// assert_eq!(
///     serde_json::to_value(&icon).unwrap(),
///     serde_json::json!({
///         "src": "https://example.com/delete.png",
///         "mimeType": "image/png",
///         "sizes": ["48x48", "any"],
///         "theme": "dark"
///     })
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Icon {
    /// An `http(s)` URL or a `data:` URI with base64 image data.
    pub src: String,
    /// The MIME type, when the source's own is missing or generic.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Sizes in `WxH` form (`"48x48"`) or `"any"`; absent means any size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sizes: Option<Vec<String>>,
    /// The background the icon is designed for; absent means any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theme: Option<IconTheme>,
}

/// The theme an icon is designed for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum IconTheme {
    /// For a light background.
    Light,
    /// For a dark background.
    Dark,
}

impl Icon {
    /// An icon with only a source; MIME type, sizes and theme unset.
    pub fn new(src: impl Into<String>) -> Self {
        Self {
            src: src.into(),
            mime_type: None,
            sizes: None,
            theme: None,
        }
    }

    /// A PNG icon (`image/png`). An empty `sizes` leaves sizes unset.
    pub fn png(src: impl Into<String>, sizes: &[&str]) -> Self {
        Self::new(src).mime_type("image/png").sizes(sizes)
    }

    /// A JPEG icon (`image/jpeg`). An empty `sizes` leaves sizes unset.
    pub fn jpeg(src: impl Into<String>, sizes: &[&str]) -> Self {
        Self::new(src).mime_type("image/jpeg").sizes(sizes)
    }

    /// An SVG icon (`image/svg+xml`). An empty `sizes` leaves sizes unset.
    pub fn svg(src: impl Into<String>, sizes: &[&str]) -> Self {
        Self::new(src).mime_type("image/svg+xml").sizes(sizes)
    }

    /// A WebP icon (`image/webp`). An empty `sizes` leaves sizes unset.
    pub fn webp(src: impl Into<String>, sizes: &[&str]) -> Self {
        Self::new(src).mime_type("image/webp").sizes(sizes)
    }

    /// An inline icon from data that is already base64-encoded:
    /// `data:{mime};base64,{base64}`.
    ///
    /// ```
    /// use mcp_core::Icon;
    ///
    /// let icon = Icon::data_uri("image/png", "iVBORw0KGgo=");
    /// assert_eq!(icon.src, "data:image/png;base64,iVBORw0KGgo=");
    /// assert_eq!(icon.mime_type.as_deref(), Some("image/png"));
    /// ```
    pub fn data_uri(mime: impl Into<String>, base64: impl AsRef<str>) -> Self {
        let mime = mime.into();
        Self::new(format!("data:{mime};base64,{}", base64.as_ref())).mime_type(mime)
    }

    /// An inline icon from raw bytes, base64-encoded for you, so a server
    /// needs no static asset hosting.
    ///
    /// ```
    /// use mcp_core::Icon;
    ///
    /// let icon = Icon::data_encode("image/svg+xml", "<svg/>");
    /// assert_eq!(icon.src, "data:image/svg+xml;base64,PHN2Zy8+");
    /// ```
    pub fn data_encode(mime: impl Into<String>, raw: impl AsRef<[u8]>) -> Self {
        let encoded = crate::base64::encode(raw.as_ref());
        Self::data_uri(mime, encoded)
    }

    /// Sets the MIME type.
    pub fn mime_type(mut self, mime: impl Into<String>) -> Self {
        self.mime_type = Some(mime.into());
        self
    }

    /// Sets the sizes (`"48x48"`, `"any"`); an empty list unsets them.
    pub fn sizes(mut self, sizes: &[&str]) -> Self {
        self.sizes = if sizes.is_empty() {
            None
        } else {
            Some(sizes.iter().map(|s| (*s).to_owned()).collect())
        };
        self
    }

    /// Sets the theme the icon is designed for.
    pub fn theme(mut self, theme: IconTheme) -> Self {
        self.theme = Some(theme);
        self
    }
}
