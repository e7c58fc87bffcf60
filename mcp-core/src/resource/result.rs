//! The result of `resources/read`, and what a resource handler may return.

use std::any::Any;
use std::fmt::Display;

use serde::{Deserialize, Serialize};

use crate::meta::Meta;
use crate::resource::contents::ResourceContents;
use crate::resource::error::ResourceError;

/// The result of `resources/read`.
///
/// ```
/// use mcp_core::{resource::{ReadResourceResult, ResourceContents}};
///
/// let result = ReadResourceResult::new(vec![ResourceContents::text("test://a", None, "A")]);
/// assert_eq!(
///     serde_json::to_value(&result).unwrap(),
///     serde_json::json!({"contents": [{"uri": "test://a", "text": "A"}]})
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ReadResourceResult {
    /// The contents: usually one, several for a directory-like resource.
    pub contents: Vec<ResourceContents>,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Meta::is_empty")]
    pub meta: Meta,
}

impl ReadResourceResult {
    /// A result with these contents.
    pub fn new(contents: Vec<ResourceContents>) -> Self {
        Self {
            contents,
            meta: Meta::new(),
        }
    }
}

/// What a resource handler may return: text (`String`, `&'static str`),
/// bytes (`Vec<u8>`, sent base64-encoded as a blob), [`ResourceContents`],
/// a `Vec` of them, a [`ReadResourceResult`], or a `Result` of any of these
/// whose error is displayed (a [`ResourceError`] is kept as is).
///
/// Text and bytes take the requested URI and the resource's MIME type.
pub trait IntoReadResourceResult {
    /// Converts the value for a read of `uri` whose MIME type is `mime_type`.
    fn into_read_result(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<ReadResourceResult, ResourceError>;
}

impl IntoReadResourceResult for ReadResourceResult {
    fn into_read_result(
        self,
        _: &str,
        _: Option<&str>,
    ) -> Result<ReadResourceResult, ResourceError> {
        Ok(self)
    }
}

impl IntoReadResourceResult for Vec<ResourceContents> {
    fn into_read_result(
        self,
        _: &str,
        _: Option<&str>,
    ) -> Result<ReadResourceResult, ResourceError> {
        Ok(ReadResourceResult::new(self))
    }
}

impl IntoReadResourceResult for ResourceContents {
    fn into_read_result(
        self,
        _: &str,
        _: Option<&str>,
    ) -> Result<ReadResourceResult, ResourceError> {
        Ok(ReadResourceResult::new(vec![self]))
    }
}

impl IntoReadResourceResult for String {
    fn into_read_result(
        self,
        uri: &str,
        mime: Option<&str>,
    ) -> Result<ReadResourceResult, ResourceError> {
        ResourceContents::text(uri, mime.map(str::to_owned), self).into_read_result(uri, mime)
    }
}

impl IntoReadResourceResult for &'static str {
    fn into_read_result(
        self,
        uri: &str,
        mime: Option<&str>,
    ) -> Result<ReadResourceResult, ResourceError> {
        self.to_owned().into_read_result(uri, mime)
    }
}

impl IntoReadResourceResult for Vec<u8> {
    fn into_read_result(
        self,
        uri: &str,
        mime: Option<&str>,
    ) -> Result<ReadResourceResult, ResourceError> {
        let data = crate::base64::encode(&self);
        ResourceContents::blob(uri, mime.map(str::to_owned), data).into_read_result(uri, mime)
    }
}

impl<T: IntoReadResourceResult, E: Display + 'static> IntoReadResourceResult for Result<T, E> {
    fn into_read_result(
        self,
        uri: &str,
        mime: Option<&str>,
    ) -> Result<ReadResourceResult, ResourceError> {
        match self {
            Ok(value) => value.into_read_result(uri, mime),
            Err(error) => match (&error as &dyn Any).downcast_ref::<ResourceError>() {
                Some(error) => Err(error.clone()),
                None => Err(ResourceError::Read {
                    uri: uri.to_owned(),
                    message: error.to_string(),
                }),
            },
        }
    }
}
