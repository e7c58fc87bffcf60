//! The document's top-level `tags`: the groups its operations name, and what
//! each group is.

use serde_json::Value;

/// One entry of a document's top-level `tags`: a group of operations, and
/// so the toolset of their tools.
///
/// ```
/// use mcp_openapi::OpenApi;
///
/// let api: OpenApi = r#"
/// openapi: 3.2.0
/// info: {title: t, version: "1"}
/// tags:
///   - {name: pets, summary: Pets, description: "Everything about your pets. Adopt one today."}
///   - {name: store}
/// paths: {}
/// "#.parse()?;
/// let tags = api.tags();
/// assert_eq!(tags[0].name, "pets");
/// assert_eq!(tags[0].summary.as_deref(), Some("Pets"));
/// assert_eq!(tags[1].description, None);
/// # Ok::<(), mcp_openapi::SpecError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Tag {
    /// `name`: what operations write in their `tags`.
    pub name: String,
    /// `summary` (OpenAPI 3.2), a short name for display; else the
    /// `x-displayName` extension that documents written before 3.2 use
    /// for it (Redoc's).
    pub summary: Option<String>,
    /// `description`, often Markdown.
    pub description: Option<String>,
}

impl Tag {
    /// What the group is: its `description`, else its `summary`.
    ///
    /// ```
    /// use mcp_openapi::OpenApi;
    ///
    /// let api: OpenApi = r#"
    /// openapi: 3.2.0
    /// info: {title: t, version: "1"}
    /// tags: [{name: pets, summary: Pets}, {name: store, summary: Store, description: Orders.}]
    /// paths: {}
    /// "#.parse()?;
    /// let about: Vec<_> = api.tags().iter().map(|tag| tag.about().map(str::to_owned)).collect();
    /// assert_eq!(about, [Some("Pets".to_owned()), Some("Orders.".to_owned())]);
    /// # Ok::<(), mcp_openapi::SpecError>(())
    /// ```
    pub fn about(&self) -> Option<&str> {
        self.description.as_deref().or(self.summary.as_deref())
    }
}

/// The tags of `document`, in document order; entries without a string
/// `name` are left out, and so are empty texts.
pub(crate) fn read(document: &Value) -> Vec<Tag> {
    let text = |tag: &Value, key: &str| {
        tag.get(key)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|text| !text.is_empty())
            .map(str::to_owned)
    };
    document
        .get("tags")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|tag| {
            Some(Tag {
                name: tag.get("name")?.as_str()?.to_owned(),
                summary: text(tag, "summary").or_else(|| text(tag, "x-displayName")),
                description: text(tag, "description"),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn entries_without_a_name_are_left_out() {
        let document = json!({"tags": [
            {"description": "no name"},
            {"name": 3},
            {"name": "issues", "description": "  Issues.  ", "summary": ""},
        ]});
        assert_eq!(
            read(&document),
            [Tag {
                name: "issues".into(),
                summary: None,
                description: Some("Issues.".into()),
            }]
        );
    }

    #[test]
    fn a_display_name_extension_stands_for_a_missing_summary() {
        let document = json!({"tags": [
            {"name": "pets", "x-displayName": "Pets"},
            {"name": "store", "summary": "Store", "x-displayName": "Shop"},
        ]});
        let summaries: Vec<Option<String>> =
            read(&document).into_iter().map(|tag| tag.summary).collect();
        assert_eq!(summaries, [Some("Pets".into()), Some("Store".into())]);
    }

    #[test]
    fn a_document_without_tags_has_none() {
        assert_eq!(read(&json!({"paths": {}})), []);
        assert_eq!(read(&json!({"tags": {"name": "not a list"}})), []);
    }
}
