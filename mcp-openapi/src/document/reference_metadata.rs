//! OpenAPI 3.1 reference metadata (`summary` / `description` beside a `$ref`)
//! and its precedence over schema descriptions.

/// Metadata of an OpenAPI 3.1 reference object (`$ref` with `summary` and
/// `description` siblings).
///
/// Precedence: reference description, then reference summary, then the
/// schema's own description, then a generated fallback.
///
/// ```
/// use mcp_openapi::ReferenceMetadata;
///
/// let ref_meta = ReferenceMetadata::new(
///     Some("Pet data".to_string()),
///     Some("Complete pet information including health records".to_string()),
/// );
/// assert_eq!(
///     ref_meta.best_description(),
///     Some("Complete pet information including health records")
/// );
/// let enhanced = ref_meta.merge_with_description(Some("Generic pet schema"), false);
/// assert_eq!(enhanced, Some("Complete pet information including health records".to_string()));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReferenceMetadata {
    /// Optional contextual summary from the reference object.
    pub summary: Option<String>,
    /// Optional contextual description from the reference object (highest priority).
    pub description: Option<String>,
}

impl ReferenceMetadata {
    /// Creates reference metadata from an optional summary and description.
    pub fn new(summary: Option<String>, description: Option<String>) -> Self {
        Self {
            summary,
            description,
        }
    }

    /// Whether neither a summary nor a description is present.
    pub fn is_empty(&self) -> bool {
        self.summary.is_none() && self.description.is_none()
    }

    /// The reference description, else the reference summary, else `None`.
    pub fn best_description(&self) -> Option<&str> {
        self.description.as_deref().or(self.summary.as_deref())
    }

    /// The reference summary alone, without fallback.
    pub fn summary(&self) -> Option<&str> {
        self.summary.as_deref()
    }

    /// Merges with an existing (schema) description: the reference
    /// description wins, then the reference summary, then `existing_desc`.
    ///
    /// `prepend_summary` asks for `"{summary}\n\n{existing}"` when there is
    /// no reference description; the summary is then already the best
    /// description and wins alone, so the flag never changes the result.
    pub fn merge_with_description(
        &self,
        existing_desc: Option<&str>,
        prepend_summary: bool,
    ) -> Option<String> {
        let _ = prepend_summary;
        self.best_description().or(existing_desc).map(str::to_owned)
    }

    /// A parameter description: `"{name}: {reference description or summary}"`,
    /// else the existing description unchanged, else `"{name} parameter"`.
    pub fn enhance_parameter_description(
        &self,
        param_name: &str,
        existing_desc: Option<&str>,
    ) -> Option<String> {
        match (self.best_description(), existing_desc) {
            (Some(best), _) => Some(format!("{param_name}: {best}")),
            (None, Some(existing)) => Some(existing.to_owned()),
            (None, None) => Some(format!("{param_name} parameter")),
        }
    }

    /// Reads `summary` / `description` beside a `$ref` in a JSON object.
    pub(crate) fn from_ref_object(object: &serde_json::Map<String, serde_json::Value>) -> Self {
        let text = |key: &str| object.get(key).and_then(|v| v.as_str()).map(str::to_owned);
        Self::new(text("summary"), text("description"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> Option<String> {
        Some(text.to_owned())
    }

    #[test]
    fn struct_example() {
        let ref_meta = ReferenceMetadata::new(
            s("Pet data"),
            s("Complete pet information including health records"),
        );
        assert_eq!(
            ref_meta.best_description(),
            Some("Complete pet information including health records")
        );
        let enhanced = ref_meta.merge_with_description(Some("Generic pet schema"), false);
        assert_eq!(
            enhanced,
            s("Complete pet information including health records")
        );
    }

    #[test]
    fn best_description_examples() {
        let both = ReferenceMetadata::new(s("Brief summary"), s("Detailed description"));
        assert_eq!(both.best_description(), Some("Detailed description"));
        let summary_only = ReferenceMetadata::new(s("Brief summary"), None);
        assert_eq!(summary_only.best_description(), Some("Brief summary"));
        let empty = ReferenceMetadata::new(None, None);
        assert_eq!(empty.best_description(), None);
        assert!(empty.is_empty());
        assert!(!both.is_empty());
        assert!(!ReferenceMetadata::new(None, s("d")).is_empty());
    }

    #[test]
    fn summary_examples() {
        let with_summary = ReferenceMetadata::new(s("API token"), None);
        assert_eq!(with_summary.summary(), Some("API token"));
        assert_eq!(with_summary.best_description(), Some("API token"));
        let both = ReferenceMetadata::new(s("Token"), s("Auth token"));
        assert_eq!(both.summary(), Some("Token"));
        assert_eq!(both.best_description(), Some("Auth token"));
    }

    #[test]
    fn merge_with_description_examples() {
        let ref_meta = ReferenceMetadata::new(
            s("API Key"),
            s("Authentication token for secure API access"),
        );
        assert_eq!(
            ref_meta.merge_with_description(Some("Generic token schema"), false),
            s("Authentication token for secure API access")
        );
        let summary_only = ReferenceMetadata::new(s("API Key"), None);
        assert_eq!(
            summary_only.merge_with_description(Some("Generic token schema"), false),
            s("API Key")
        );
        let empty_ref = ReferenceMetadata::new(None, None);
        assert_eq!(
            empty_ref.merge_with_description(Some("Generic token schema"), false),
            s("Generic token schema")
        );
        assert_eq!(
            summary_only.merge_with_description(Some("Different description"), true),
            s("API Key")
        );
        assert_eq!(empty_ref.merge_with_description(None, true), None);
    }

    #[test]
    fn enhance_parameter_description_examples() {
        let with_desc =
            ReferenceMetadata::new(s("Pet ID"), s("Unique identifier for pet in the store"));
        assert_eq!(
            with_desc.enhance_parameter_description("petId", Some("Generic ID field")),
            s("petId: Unique identifier for pet in the store")
        );
        let with_summary = ReferenceMetadata::new(s("Pet ID"), None);
        assert_eq!(
            with_summary.enhance_parameter_description("petId", Some("Generic ID field")),
            s("petId: Pet ID")
        );
        let empty_ref = ReferenceMetadata::new(None, None);
        assert_eq!(
            empty_ref.enhance_parameter_description("petId", Some("Generic ID field")),
            s("Generic ID field")
        );
        assert_eq!(
            empty_ref.enhance_parameter_description("petId", None),
            s("petId parameter")
        );
    }
}
